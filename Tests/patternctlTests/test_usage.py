"""Help texts, --version and usage errors (exit 2) of patternctl, against golden files."""

import unittest

from support.cli import run, golden
from support.paths import PATTERNCTL, require_built, require_root

COMMANDS = ["set", "remove", "reset", "status", "list", "prune", "show", "bench"]

# Command lines that are usage errors, each with its exact stderr in golden/usage-errors.txt.
USAGE_ERRORS = [
    [],
    ["frobnicate"],
    ["--bogus"],
    ["set", "--bogus"],
    ["set", "--cost"],
    ["set", "--cost", "0"],
    ["set", "--cost", "12"],
    ["set", "--cost=seven"],
    ["set", "--allow-weak=yes"],
    ["set", "alice", "bob"],
    ["--layout", "qwerty", "show", "1235789"],
    ["show"],
    ["show", "1235789", "--ascii", "--unicode"],
    ["show", "--min-length", "3", "1235789"],
    ["show", "--min-length", "10", "1235789"],
    ["remove"],
    ["reset"],
    ["reset", "alice", "bob"],
    ["status", "--deny", "0"],
    ["status", "--unlock-time", "-1"],
    ["status", "--lock-after", "x"],
    ["status", "--lock-after", "100001"],
    ["status", "--store", ""],
    ["list", "extra"],
    ["bench", "--max", "12"],
    ["help", "frobnicate"],
    ["-x"],
]


class HelpTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)

    def test_overview_help(self):
        result = run("--help")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.err, "", result)
        golden(self, "help-overview.txt", result.out)
        # -h, `help` and `help --help` agree with the documented forms.
        self.assertEqual(run("-h").out, result.out)
        self.assertEqual(run("help").out, result.out)

    def test_every_command_has_help(self):
        for command in COMMANDS:
            with self.subTest(command=command):
                result = run(command, "--help")
                self.assertEqual(result.code, 0, result)
                self.assertEqual(result.err, "", result)
                golden(self, "help-%s.txt" % command, result.out)
                # The same text whichever way help is asked for.
                self.assertEqual(run("help", command).out, result.out)
                self.assertEqual(run("--help", command).out, result.out)
                self.assertEqual(run(command, "-h").out, result.out)

    def test_help_needs_no_root_and_wins_over_operands(self):
        result = run("remove", "someone", "--help", as_nobody=True)
        self.assertEqual(result.code, 0, result)
        self.assertTrue(result.out.startswith("Usage: patternctl remove"), result)

    def test_help_documents_exit_status(self):
        for command in COMMANDS:
            with self.subTest(command=command):
                self.assertIn("Exit status: 0 success, 1 refused or failed, 2 usage error.", run(command, "--help").out)

    def test_version(self):
        result = run("--version")
        self.assertEqual(result.code, 0, result)
        self.assertRegex(result.out, r"^patternctl \(pam_pattern\) \d+\.\d+\.\d+\n$")
        self.assertEqual(run("show", "--version").out, result.out)


class UsageErrorTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)

    def test_usage_errors_exit_2_with_golden_messages(self):
        # The golden file is root's view: a user's `patternctl remove` without USER is their own pattern.
        require_root("`remove` without USER is a usage error only for root")
        transcript = ""
        for argv in USAGE_ERRORS:
            result = run(*argv, as_nobody=False)
            with self.subTest(argv=argv):
                self.assertEqual(result.code, 2, result)
                self.assertEqual(result.out, "", result)
                self.assertTrue(result.err.startswith("patternctl: "), result)
                self.assertIn("for more information.", result.err)
            transcript += "$ patternctl %s\n%s\n" % (" ".join(argv), result.err)
        golden(self, "usage-errors.txt", transcript)

    def test_usage_error_wins_over_missing_root(self):
        # A wrong command line is reported as such (2), even for a non-root user.
        result = run("set", "--cost", "99", as_nobody=True)
        self.assertEqual(result.code, 2, result)
        self.assertNotIn("root", result.err)


if __name__ == "__main__":
    unittest.main()
