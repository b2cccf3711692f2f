"""Shared helpers for the patternctl tests: run the built binary, temp stores, golden files.

The tests run the real binary ($PAM_PATTERN_BUILD/patternctl) as a user would,
with a private store and state directory (--store/--state) in a root-owned
0700 temp directory, so nothing under /etc or /var/lib is touched.

Golden files (golden/*.txt) are compared exactly. After an intended change of
a text, regenerate them with PAM_PATTERN_UPDATE_GOLDEN=1 and review the diff.
"""

import os
import shutil
import subprocess
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("PAM_PATTERN_ROOT", os.path.abspath(os.path.join(HERE, "..", "..")))
BUILD = os.environ.get("PAM_PATTERN_BUILD", os.path.join(ROOT, "build"))
PATTERNCTL = os.path.join(BUILD, "patternctl")
GOLDEN = os.path.join(HERE, "golden")
UPDATE_GOLDEN = os.environ.get("PAM_PATTERN_UPDATE_GOLDEN") == "1"

# Users every Debian system has; only their names are used (the store is private).
USER_A = "daemon"
USER_B = "bin"
NO_SUCH_USER = "pp-no-such-user"

# A pattern the core accepts as not weak, and its canonical digits.
GOOD = "1569874"


def require_binary():
    """Fails (not skips): a missing binary must not look like a passing suite."""
    if not os.access(PATTERNCTL, os.X_OK):
        raise AssertionError("patternctl not built: %s (set PAM_PATTERN_BUILD)" % PATTERNCTL)


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
    environment = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    if env:
        environment.update(env)
    completed = subprocess.run(command, input=stdin, capture_output=True, text=True, env=environment, timeout=120)
    return Result(argv, completed)


class Sandbox:
    """A private store path and state directory, root-owned, removed on close."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="patternctl-test-")
        os.chmod(self.directory, 0o700)
        self.store = os.path.join(self.directory, "patterns")
        self.state = os.path.join(self.directory, "state")
        os.mkdir(self.state, 0o700)

    def args(self):
        return ["--store", self.store, "--state", self.state]

    def store_bytes(self):
        """The store's bytes, or None when there is no store file."""
        try:
            with open(self.store, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            return None

    def state_snapshot(self):
        """Every state file's name and bytes."""
        snapshot = {}
        for name in sorted(os.listdir(self.state)):
            path = os.path.join(self.state, name)
            if os.path.isfile(path):
                with open(path, "rb") as handle:
                    snapshot[name] = handle.read()
        return snapshot

    def tree_snapshot(self):
        """Names, modes and bytes of everything in the sandbox (store and state)."""
        snapshot = {}
        for directory, _, files in os.walk(self.directory):
            snapshot[directory] = os.stat(directory).st_mode
            for name in files:
                path = os.path.join(directory, name)
                with open(path, "rb") as handle:
                    snapshot[path] = (os.stat(path).st_mode, handle.read())
        return snapshot

    def close(self):
        shutil.rmtree(self.directory, ignore_errors=True)


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


def require_root(test):
    if os.geteuid() != 0:
        test.skipTest("needs root (the store must be root-owned)")


class SandboxCase(unittest.TestCase):
    """The built patternctl (missing: the class fails), root (else skipped) and a private Sandbox per test."""

    @classmethod
    def setUpClass(cls):
        require_binary()

    def setUp(self):
        require_root(self)
        self.box = Sandbox()
        self.addCleanup(self.box.close)
