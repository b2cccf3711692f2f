"""The first day after `apt install ./build/pam-pattern_*.deb`, as a new person
would live it: on a machine where pam_pattern never ran (no store directory,
no state directory), a new user opens a login shell and types exactly the
commands of the reference's (docs/reference.md) "Changing your pattern" section, answering each
prompt its transcripts show; every line of each transcript must appear, in
order, on their terminal.

The package is installed in the Namespace of test_package (overlays of /usr,
/etc and /var, nothing written to the real system). The user's shell is
`su -l USER` on a pseudo-terminal: a login shell, with the PATH a person gets
(no /usr/sbin), and a controlling terminal for patternctl's echo-off prompts.
PAM_PATTERN_DEB names another .deb to try (an older build fails here).
Root only; holds the real-client lock. About 30 s.
"""

import fcntl
import os
import pty
import re
import select
import shutil
import signal
import time
import unittest

from support.paths import ROOT
from test_package import RUN_LOCK, STATE_DIR, STORE_DIR, Namespace, built_deb

USER, PASSWORD = "ppdeb-newcomer", "Newcomer-pw-2026"
# The reference's transcripts name alice; the test user stands in for her.
README_USER = "alice"
FIRST, SECOND, THIRD = "2946138", "1596274", "6357284"
SHELL_PROMPT = "ppdeb-ready> "
# A time in a transcript is an example: any time of that form matches, in whatever zone the machine keeps (a
# person reads local time: "2026-12-01 22:11:53 CET"; --json's ISO form in UTC).
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z+-][A-Za-z0-9+-]*|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def readme_transcripts():
    """[(command, [expected line, ...])] of every `$ patternctl ...` block in "Changing your pattern"."""
    with open(os.path.join(ROOT, "docs", "reference.md")) as f:
        section = f.read().split("## Changing your pattern\n", 1)[1].split("\n## ", 1)[0]
    blocks, current = [], None
    for line in section.splitlines():
        if line.startswith("    $ "):
            current = (line[len("    $ ") :].strip(), [])
            blocks.append(current)
        elif current is not None and line.startswith("    ") and line.strip():
            current[1].append(line.strip().replace(README_USER, USER))
        else:
            current = None
    return blocks


def normalized(line):
    return TIMESTAMP.sub("<time>", line.rstrip())


class LoginShell:
    """`su -l USER` inside the namespace, on a pseudo-terminal of its own, driven as a person types."""

    def __init__(self, ns, user):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # child: the namespace's su, from a clean environment
            os.execve(
                shutil.which("nsenter"),
                ns.enter(["su", "-l", user]),
                {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TERM": "dumb", "LANG": "C.UTF-8"},
            )
        self.output, self.cursor = b"", 0
        # Quoted apart, so the echo of this line is not yet the prompt it sets.
        self.type("PS1='%s''%s'; PROMPT_COMMAND=" % (SHELL_PROMPT[:3], SHELL_PROMPT[3:]))
        self.read_until(SHELL_PROMPT)

    def read_until(self, marker, timeout=90, unless=None):
        """Everything not read yet up to and including `marker`; fails at once if `unless` shows first."""
        start = self.cursor
        deadline = time.monotonic() + timeout
        while marker.encode() not in self.output[start:]:
            if unless and unless.encode() in self.output[start:]:
                raise AssertionError("%r ended before %r; got %r" % (unless, marker, self.output[start:]))
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(0, remaining))
            if not ready:
                raise AssertionError("timed out waiting for %r; got %r" % (marker, self.output[start:]))
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                data = b""
            if not data:
                raise AssertionError("the shell ended waiting for %r; got %r" % (marker, self.output[start:]))
            self.output += data
        self.cursor = self.output.index(marker.encode(), start) + len(marker)
        return self.output[start : self.cursor].decode(errors="replace").replace("\r", "")

    def type(self, text):
        os.write(self.fd, text.encode() + b"\r")

    def command(self, line, answers):
        """Types `line`, then each answer once its prompt shows; returns (exit status, what the terminal showed)."""
        self.type(line)
        shown = ""
        for prompt, answer in answers:
            shown += self.read_until(prompt, unless=SHELL_PROMPT)
            time.sleep(0.2)  # the echo goes off once the prompt is out; typing earlier would be flushed
            self.type(answer)
        shown += self.read_until(SHELL_PROMPT)
        self.type('echo "status=$?."')
        status = re.search(r"status=(\d+)\.", self.read_until(SHELL_PROMPT).split("\n", 1)[-1])
        return int(status.group(1)), shown

    def close(self):
        """Ends the session: `exit` at the shell; a session stuck in a prompt is killed, and the closed
        terminal hangs up whatever ran in it."""
        self.type("exit")
        deadline = time.monotonic() + 10
        while os.waitpid(self.pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                break
            time.sleep(0.1)
        os.close(self.fd)


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the package (in a private mount namespace)")
class FreshInstallTests(unittest.TestCase):
    # Where the package is installed: the host's overlays here, Debian 13 in test_debian13.
    NAMESPACE = Namespace

    @classmethod
    def setUpClass(cls):
        for tool in ("dpkg-deb", "apt-get", "nsenter", "unshare", "su", "useradd"):
            if not shutil.which(tool):
                raise unittest.SkipTest("%s is not installed (make deps)" % tool)
        cls.lock = None
        if cls.NAMESPACE.ON_HOST:
            cls.lock = os.open(RUN_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
            fcntl.flock(cls.lock, fcntl.LOCK_EX)
        cls.deb = os.environ.get("PAM_PATTERN_DEB") or built_deb()

    @classmethod
    def tearDownClass(cls):
        if cls.lock is not None:
            os.close(cls.lock)

    def test_a_new_user_sets_checks_changes_and_removes_a_pattern_as_the_readme_says(self):
        transcripts = readme_transcripts()
        self.assertEqual(
            [command for command, _ in transcripts],
            ["patternctl set", "patternctl status", "patternctl set", "patternctl remove", "patternctl set --forgot"],
            "the reference's transcripts are the first pattern, status, change, remove, a forgotten one",
        )
        # One story: the forgotten pattern is replaced before the last one is removed.
        transcripts = transcripts[:3] + transcripts[4:] + transcripts[3:4]
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        # Nothing was set before: whatever the host has, the namespace has no store and no state.
        ns.sh("rm -rf %s %s" % (STORE_DIR, STATE_DIR))
        ns.share(os.path.dirname(self.deb))
        ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.deb], timeout=300)
        # The new user's home: /home is not one of the overlays, so a private one, gone with the namespace.
        ns.sh("mount -t tmpfs -o mode=0755 tmpfs /home")
        ns.run(["useradd", "--create-home", "--shell", "/bin/bash", USER])
        ns.run(["chpasswd"], input="%s:%s\n" % (USER, PASSWORD))

        shell = LoginShell(ns, USER)
        self.addCleanup(shell.close)
        current, new = None, FIRST
        # One story: a step that fails leaves nothing for the next ones to show.
        for command, expected in transcripts:
            if command == "patternctl set --forgot":
                new = THIRD
            answers = {
                "Password:": PASSWORD,
                "Current pattern:": current,
                "Pattern:": new,
                "New pattern:": new,
                "Again:": new,
            }
            prompts = [(line, answers[line]) for line in expected if line in answers]
            status, shown = shell.command(command, prompts)
            self.assertEqual(status, 0, "%s:\n%s" % (command, shown))
            lines = [normalized(line) for line in shown.splitlines()]
            position = 0
            for want in expected:
                want = normalized(want)
                self.assertIn(
                    want, lines[position:], "%s: the reference's line is not on the terminal:\n%s" % (command, shown)
                )
                position = lines.index(want, position) + 1
            if command == "patternctl set":
                current, new = new, SECOND
            elif command == "patternctl set --forgot":
                current = THIRD
        # The end state: no pattern, and the directories the package made are still root-only.
        for directory in (STORE_DIR, STATE_DIR):
            info = os.stat(ns.path(directory))
            self.assertEqual((info.st_uid, info.st_mode & 0o7777), (0, 0o700), directory)


if __name__ == "__main__":
    unittest.main()
