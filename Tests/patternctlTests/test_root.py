"""Commands that need the store refuse non-root users clearly and change nothing."""

import unittest

from support import cli
from support.cli import run, USER_A, GOOD
from support.sandbox import SandboxCase


class NonRootTests(SandboxCase):
    def setUp(self):
        super().setUp()
        # A real store and state to compare against, made by root.
        made = run("set", *self.box.args(), "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(made.code, 0, made)

    def test_store_commands_need_root(self):
        before = self.box.tree_snapshot()
        for argv in (["reset", USER_A], ["list"]):
            with self.subTest(argv=argv):
                result = run(argv[0], *self.box.args(), *argv[1:], stdin="%s\n%s\n" % (GOOD, GOOD), as_nobody=True)
                self.assertEqual(result.code, 1, result)
                self.assertEqual(result.out, "", "nothing is asked or printed: %r" % result)
                self.assertIn("needs root", result.err)
                self.assertIn("sudo patternctl %s" % argv[0], result.err)
                self.assertEqual(self.box.tree_snapshot(), before)

    def test_own_pattern_commands_refuse_another_user_and_root_options(self):
        # set, remove and status work for one's own pattern through the helper (Tests/HelperTests), but never
        # on another user, nor with --store/--state (the helper uses the system's files only).
        before = self.box.tree_snapshot()
        cases = [
            (["set", USER_A], "only root can set the pattern of another user"),
            (["remove", USER_A], "only root can remove the pattern of another user"),
            (["status", USER_A], "only root can see the pattern of another user"),
            (["set"], "option '--store' is for root"),
            (["status"], "option '--store' is for root"),
        ]
        for argv, message in cases:
            with self.subTest(argv=argv):
                result = run(argv[0], *self.box.args(), *argv[1:], stdin="%s\n%s\n" % (GOOD, GOOD), as_nobody=True)
                self.assertEqual(result.code, 1, result)
                self.assertEqual(result.out, "", "nothing is asked or printed: %r" % result)
                self.assertIn(message, result.err)
                self.assertEqual(self.box.tree_snapshot(), before)

    def test_root_message_golden(self):
        result = run("reset", USER_A, as_nobody=True)
        cli.golden(self, "not-root-reset.txt", result.err)

    def test_show_and_bench_help_need_no_root(self):
        self.assertEqual(run("show", GOOD, as_nobody=True).code, 0)
        self.assertEqual(run("bench", "--help", as_nobody=True).code, 0)


if __name__ == "__main__":
    unittest.main()
