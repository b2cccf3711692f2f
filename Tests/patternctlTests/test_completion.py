"""bash completion (completion/patternctl): bash is run with the file sourced, the
completion function is called with COMP_WORDS/COMP_CWORD set, and COMPREPLY is read.

It offers the commands and options patternctl's own help lists, the values of
--layout, and enrolled users for commands that take a USER, to root only:
for anyone else `patternctl list` is never even run."""

import os
import shlex
import shutil
import subprocess
import tempfile
import unittest

from support.cli import USER_A, USER_B, GOOD, run
from support.paths import PATTERNCTL, ROOT, require_built, require_root
from support.sandbox import Sandbox

COMPLETION = os.path.join(ROOT, "completion", "patternctl")
COMMANDS = ["set", "remove", "reset", "status", "list", "prune", "show", "bench", "help"]


class CompletionTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)
        if shutil.which("bash") is None:
            raise unittest.SkipTest("no bash")

    def setUp(self):
        # `patternctl` on PATH is a wrapper that logs every run, so the test sees what the completion ran.
        self.bin = tempfile.mkdtemp(prefix="completion-test-")
        os.chmod(self.bin, 0o755)
        self.addCleanup(shutil.rmtree, self.bin, True)
        self.log = os.path.join(self.bin, "runs.log")
        with open(self.log, "w"):
            pass
        os.chmod(self.log, 0o666)
        wrapper = os.path.join(self.bin, "patternctl")
        with open(wrapper, "w") as handle:
            handle.write(
                '#!/bin/sh\necho "$*" >> %s\nexec %s "$@"\n' % (shlex.quote(self.log), shlex.quote(PATTERNCTL))
            )
        os.chmod(wrapper, 0o755)

    def complete(self, line, as_nobody=False):
        """COMPREPLY for the command line `line`, completing its last word ("" after a trailing space)."""
        words = line.split(" ")
        script = "source %s\nCOMP_WORDS=(%s)\nCOMP_CWORD=%d\n_patternctl\nprintf '%%s\\n' \"${COMPREPLY[@]}\"\n" % (
            shlex.quote(COMPLETION),
            " ".join(shlex.quote(w) for w in words),
            len(words) - 1,
        )
        command = ["bash", "--norc", "--noprofile", "-c", script]
        if as_nobody and os.geteuid() == 0:
            command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + command
        env = {"PATH": self.bin + ":/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/"}
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, cwd="/")
        self.assertEqual((result.returncode, result.stderr), (0, ""), result)
        return [word for word in result.stdout.split("\n") if word]

    def runs(self):
        with open(self.log) as handle:
            return handle.read().splitlines()

    def test_commands(self):
        self.assertEqual(self.complete("patternctl "), COMMANDS)
        self.assertEqual(self.complete("patternctl st"), ["status"])
        self.assertEqual(self.complete("patternctl re"), ["remove", "reset"])
        # Global options and their values before the command are skipped over.
        self.assertEqual(self.complete("patternctl --layout numpad --deny 5 sh"), ["show"])
        self.assertEqual(self.complete("patternctl help s"), ["set", "status", "show"])

    def test_options(self):
        status = self.complete("patternctl status --")
        for option in ("--json", "--store", "--state", "--layout", "--deny", "--help"):
            self.assertIn(option, status)
        self.assertNotIn("--cost", status)
        self.assertIn("--cost", self.complete("patternctl set --"))
        self.assertIn("--allow-weak", self.complete("patternctl set --"))
        self.assertEqual(self.complete("patternctl list --j"), ["--json"])
        self.assertEqual(self.complete("patternctl --layout "), ["phone", "numpad"])
        self.assertEqual(self.complete("patternctl show --layout n"), ["numpad"])
        # A number is asked for: nothing to offer, and the value is not taken for the command.
        self.assertEqual(self.complete("patternctl set --cost "), [])
        self.assertEqual(self.complete("patternctl bench --max 9 --"), self.complete("patternctl bench --"))

    def enrol(self, box):
        for user in (USER_A, USER_B):
            made = run("set", *box.args(), "--cost", "1", user, stdin="%s\n%s\n" % (GOOD, GOOD))
            self.assertEqual(made.code, 0, made)

    def test_enrolled_users_are_offered_to_root(self):
        require_root("the store must be root-owned")
        box = Sandbox()
        self.addCleanup(box.close)
        self.enrol(box)
        prefix = "patternctl --store %s --state %s " % (box.store, box.state)
        for command in ("reset", "remove", "status", "set"):
            with self.subTest(command=command):
                self.assertEqual(sorted(self.complete(prefix + command + " ")), sorted([USER_A, USER_B]))
        self.assertEqual(self.complete(prefix + "reset " + USER_A[:2]), [USER_A])
        self.assertEqual(self.complete("patternctl reset --store=%s %s" % (box.store, USER_B[:2])), [USER_B])
        # One USER only; commands without one offer none.
        self.assertEqual(self.complete(prefix + "reset %s " % USER_A), [])
        self.assertEqual(self.complete(prefix + "show "), [])
        self.assertEqual(self.complete(prefix + "list "), [])
        self.assertTrue(any(line.endswith(" list") for line in self.runs()), self.runs())

    def test_enrolled_users_are_never_shown_to_others(self):
        require_root("the store must be root-owned")  # to make a store at all, then to become nobody
        box = Sandbox()
        self.addCleanup(box.close)
        self.enrol(box)
        os.chmod(box.directory, 0o755)  # even a store others could reach is not read for them
        prefix = "patternctl --store %s --state %s " % (box.store, box.state)
        for command in ("reset", "remove", "status", "set"):
            with self.subTest(command=command):
                self.assertEqual(self.complete(prefix + command + " ", as_nobody=True), [])
        self.assertEqual(self.complete("patternctl re", as_nobody=True), ["remove", "reset"])
        self.assertFalse([line for line in self.runs() if line.split()[-1:] == ["list"]], self.runs())


if __name__ == "__main__":
    unittest.main()
