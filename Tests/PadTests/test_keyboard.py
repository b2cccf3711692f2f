"""The keyboard at the pad (xsecurelock writes the keys to its stdin): the password field while the throttle
holds the pattern back, with the countdown on screen; Backspace and Ctrl-U; Esc and the timeout cancel (`x`)
without counting. Root only (make deps)."""

import re
import time
import unittest

from support import formats, pad
from support.helper import WRONG_PATTERN


setUpModule = pad.set_up_module


def seconds_left(caption):
    """The countdown's seconds in 'try again in 59 seconds' / '1 minute 5 seconds' / '2 minutes'."""
    match = re.search(r"try again in ((?:\d+ \w+ ?)+)\.", caption)
    if not match:
        return None
    total = 0
    for number, unit in re.findall(r"(\d+) (second|minute|hour)", match.group(1)):
        total += int(number) * {"second": 1, "minute": 60, "hour": 3600}[unit]
    return total


class KeyboardTest(pad.PadCase):
    USER = "pphpad4"

    def test_while_throttled_the_countdown_runs_and_the_password_unlocks(self):
        # deny=5: five recorded failures just now hold the pattern back for unlock_time (60 s).
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.session(
            [
                {"op": "wake"},
                {"op": "caption", "until": ["Too many", "Password: "], "timeout": 5},
                {"op": "sleep", "seconds": 2.2},
                {"op": "caption"},
                {"op": "type", "text": self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertWoke(report)
        first, second = self.step(report, "caption", 0)["text"], self.step(report, "caption", 1)["text"]
        self.assertIn("Too many wrong patterns: try again in", first)
        self.assertIn("Password: ", first)
        a, b = seconds_left(first), seconds_left(second)
        self.assertTrue(a and b and 0 < a <= 60 and 1 <= a - b <= 4, "no live countdown: %r then %r" % (first, second))
        self.assertTrue(self.step(report, "wait")["unlocked"], report)
        # The password's success ended the wait (reset_on_success, through the helper's own password check).
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_the_wrong_drawing_that_starts_a_wait_counts_it_down(self):
        formats.write_state(self.sandbox.state_dir, self.USER, 4, int(time.time()) - 5)
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "caption", "until": "Too many", "timeout": 10},
                {"op": "sleep", "seconds": 2.2},
                {"op": "caption"},
            ]
        )
        self.assertWoke(report)
        first, second = self.step(report, "caption", 0)["text"], self.step(report, "caption", 1)["text"]
        self.assertIn("Wrong pattern. Too many wrong patterns: try again in", first)
        a, b = seconds_left(first), seconds_left(second)
        self.assertTrue(a and b and 1 <= a - b <= 4, "no live countdown: %r then %r" % (first, second))
        self.assertEqual(self.sandbox.failures(self.USER), 5)

    def test_backspace_and_ctrl_u_edit_the_field(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "type", "text": "garbage"},
                {"op": "key", "name": "ctrl+u"},
                {"op": "type", "text": self.PASSWORD + "xy"},
                {"op": "key", "name": "BackSpace"},
                {"op": "key", "name": "BackSpace"},
                {"op": "key", "name": "Return"},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertWoke(report)
        # The password typed at the pattern prompt skipped it (not counted) and went to pam_unix.
        self.assertTrue(self.step(report, "wait")["unlocked"], report)
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_wrong_password_is_told_and_the_pattern_not_counted(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "type", "text": "not-the-password"},
                {"op": "key", "name": "Return"},
                {"op": "caption", "until": "Wrong password.", "timeout": 10},
            ]
        )
        self.assertWoke(report)
        self.assertIn("Wrong password.", self.step(report, "caption")["text"])
        self.assertTrue(report["locked_at_end"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_escape_cancels_without_counting(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "type", "text": WRONG_PATTERN},
                {"op": "key", "name": "Escape"},
                {"op": "pad_gone", "timeout": 10},
                {"op": "wait", "timeout": 1},
            ]
        )
        self.assertWoke(report)
        self.assertTrue(self.step(report, "pad_gone")["gone"], report)
        self.assertFalse(self.step(report, "wait")["unlocked"])
        self.assertTrue(report["locked_at_end"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_escape_sends_cancel(self):
        report = self.session(
            [{"op": "wake"}, {"op": "key", "name": "Escape"}, {"op": "pad_gone", "timeout": 10}], recorder=True
        )
        self.assertWoke(report)
        self.assertTrue(self.step(report, "pad_gone")["gone"])
        self.assertEqual(self.recorded(), [("x", "")])

    def test_the_timeout_cancels_without_counting(self):
        report = self.session(
            [{"op": "wake"}, {"op": "pad_gone", "timeout": 15}, {"op": "wait", "timeout": 1}],
            env={"XSECURELOCK_AUTH_TIMEOUT": "2"},
            recorder=True,
        )
        self.assertWoke(report)
        self.assertTrue(self.step(report, "pad_gone")["gone"], report)
        self.assertFalse(self.step(report, "wait")["unlocked"])
        self.assertEqual(self.recorded(), [("x", "")])


if __name__ == "__main__":
    unittest.main()
