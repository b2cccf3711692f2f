"""patternctl as a user runs it: the built binary, its output, golden files.

The tests run the real binary ($PAM_PATTERN_BUILD/patternctl) as a user would,
with a private store and state directory (--store/--state; support.sandbox's
Sandbox), so nothing under /etc or /var/lib is touched.

Golden files (Tests/patternctlTests/golden/*.txt) are compared exactly. After an intended change of
a text, regenerate them with PAM_PATTERN_UPDATE_GOLDEN=1 and review the diff.
"""

import calendar
import os
import re
import subprocess
import time
import unittest

from support.paths import PATTERNCTL, ROOT

GOLDEN = os.path.join(ROOT, "Tests", "patternctlTests", "golden")
UPDATE_GOLDEN = os.environ.get("PAM_PATTERN_UPDATE_GOLDEN") == "1"

# Users every Debian system has; only their names are used (the store is private).
USER_A = "daemon"
USER_B = "bin"
NO_SUCH_USER = "pp-no-such-user"

# A pattern the core accepts as not weak, and its canonical digits.
GOOD = "1562943"

# status and list say times in the local time of whoever runs patternctl; run() sets TZ=UTC unless told, so a
# time reads "2026-12-06 14:03:05 UTC" (group 1 of this pattern); --json says ISO 8601 UTC.
LOCAL_UTC = r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC)"


def utc_seconds(text):
    """Seconds since the epoch of a time as status says it with TZ=UTC ("2026-12-06 14:03:05 UTC")."""
    return calendar.timegm(time.strptime(text, "%Y-%m-%d %H:%M:%S UTC"))


def iso_from_local(text):
    """The --json form (ISO 8601 UTC) of a time as status and list say it with TZ=UTC."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(utc_seconds(text)))


def table_rows(text):
    """`list`'s rows under its header: [USER, SET, COST, FAILURES, LOCKED] each (SET a local time, "-" or "?")."""
    row = re.compile(r"^(\S+)\s+(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+|\S+)\s+(\S+)\s+(\S+)\s+(.*)$")
    return [list(row.match(line).groups()) for line in text.splitlines()[1:]]


class Result:
    """Exit status and output of one patternctl run."""

    def __init__(self, argv, completed):
        self.argv = argv
        self.code = completed.returncode
        self.out = completed.stdout
        self.err = completed.stderr

    def __repr__(self):
        return "patternctl %r -> %d\nstdout:\n%s\nstderr:\n%s" % (self.argv, self.code, self.out, self.err)


def run(*argv, stdin="", env=None, as_nobody=False):
    """Runs patternctl with argv; stdin is text fed through a pipe (never a terminal)."""
    command = [PATTERNCTL] + list(argv)
    if as_nobody and os.geteuid() == 0:  # already not root: run as we are
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + command
    environment = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"}
    if env:
        environment.update(env)
    completed = subprocess.run(command, input=stdin, capture_output=True, text=True, env=environment, timeout=120)
    return Result(argv, completed)


def golden(test, name, actual):
    """Compares `actual` with golden/<name> exactly (or rewrites it in update mode)."""
    path = os.path.join(GOLDEN, name)
    if UPDATE_GOLDEN:
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(actual)
        return
    with open(path, encoding="utf-8") as handle:
        expected = handle.read()
    test.maxDiff = None
    test.assertEqual(actual, expected, "output differs from golden/%s" % name)


# read(2)'s system call number, as /proc/PID/syscall shows it.
READ_SYSCALL = {"x86_64": 0, "aarch64": 63}


def wait_until_reading(pid, timeout=30):
    """Waits until `pid` sleeps in read(2). readpassphrase(3) installs its signal handlers before the
    prompt and reads after it: a signal sent in between is only acted on after the next line, so a test
    that signals at the prompt must wait for the read."""
    number = READ_SYSCALL.get(os.uname().machine)
    if number is None:
        raise unittest.SkipTest("read(2)'s number on %s is not known to the test" % os.uname().machine)
    deadline = time.monotonic() + timeout
    while True:
        try:
            with open("/proc/%d/syscall" % pid) as handle:
                fields = handle.read().split()
        except FileNotFoundError:
            fields = []
        if fields[:1] == [str(number)]:
            return
        if time.monotonic() >= deadline:
            raise AssertionError("process %d never blocked in read(2): %r" % (pid, fields))
        time.sleep(0.02)
