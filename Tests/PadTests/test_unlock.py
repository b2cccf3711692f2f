"""Unlocking at the real xsecurelock with the pad: the right drawing, a wrong one then the right one (the
profile's password prompt in between), typed digits + Enter. Run by an unprivileged user; every check goes
through the installed setuid helper. Root only; needs Xvfb, xsecurelock, xdotool, x11-apps (make deps)."""

import unittest

from support import helper, pad
from support.helper import PATTERN, WRONG_PATTERN


def setUpModule():
    pad.require_pad()
    helper.take_run_lock()


def tearDownModule():
    helper.release_run_lock()


def dots(digits):
    return [int(d) for d in digits]


class UnlockTest(pad.PadCase):
    USER = "pphpad1"

    def test_the_right_drawing_unlocks(self):
        report = self.session([{"op": "wake"}, {"op": "drag", "path": dots(PATTERN)}, {"op": "wait", "timeout": 20}])
        self.assertWoke(report)
        self.assertTrue(self.step(report, "wait")["unlocked"], report)
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_wrong_drawing_then_the_right_one_unlocks(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": dots(WRONG_PATTERN)},
                {"op": "wait", "timeout": 1.5},
                {"op": "drag", "path": dots(PATTERN)},
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


if __name__ == "__main__":
    unittest.main()
