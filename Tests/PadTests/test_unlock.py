"""Unlocking at the real xsecurelock with the pad: the right drawing, a wrong one then the right one (the
profile's password prompt in between), typed digits + Enter. Run by an unprivileged user; every check goes
through the installed setuid helper. Root only; needs Xvfb, xsecurelock, xdotool, x11-apps (make deps)."""

import unittest

from support import pad
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import MODULE


setUpModule = pad.set_up_module


class UnlockTest(pad.PadCase):
    USER = "pphpad1"

    def test_the_right_drawing_unlocks(self):
        report = self.session(
            [{"op": "wake"}, {"op": "drag", "path": pad.dots(PATTERN)}, {"op": "wait", "timeout": 20}]
        )
        self.assertWoke(report)
        self.assertTrue(self.step(report, "wait")["unlocked"], report)
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_wrong_drawing_then_the_right_one_unlocks(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "wait", "timeout": 1.5},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertWoke(report)
        first, second = self.step(report, "wait", 0), self.step(report, "wait", 1)
        self.assertFalse(first["unlocked"], report)
        self.assertTrue(second["unlocked"], report)
        self.assertEqual(self.sandbox.failures(self.USER), 0)  # the right pattern reset the count

    def test_typed_digits_and_enter_unlock(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "type", "text": PATTERN},
                {"op": "key", "name": "Return"},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertWoke(report)
        self.assertTrue(self.step(report, "wait")["unlocked"], report)


class PatternOnlyServiceTest(pad.PadCase):
    """A service with the pattern alone (XSECURELOCK_PAM_SERVICE): after a wrong drawing authproto_pam's next try
    asks for the pattern again in the same run, and the next drawing goes there."""

    USER = "pphpad7"
    SERVICES = {"pattern-only": ["auth required %s" % MODULE, "account required pam_permit.so"]}

    def test_a_wrong_drawing_then_the_right_one_unlocks_in_the_same_run(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "wait", "timeout": 1.5},
                {"op": "caption", "until": "Wrong pattern.", "timeout": 10},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "wait", "timeout": 20},
            ],
            env={"XSECURELOCK_PAM_SERVICE": "pattern-only"},
        )
        self.assertWoke(report)
        self.assertFalse(self.step(report, "wait", 0)["unlocked"])
        caption = self.step(report, "caption")["text"]
        self.assertIn("Wrong pattern. 4 tries left before a wait.", caption)
        self.assertNotIn("Password", caption)  # no password prompt in this stack
        self.assertTrue(self.step(report, "wait", 1)["unlocked"], report)
        self.assertEqual(self.sandbox.failures(self.USER), 0)


if __name__ == "__main__":
    unittest.main()
