"""What the pad sends for a drawing, seen by a recording stand-in for authproto_pam at the real xsecurelock: a
fast diagonal swipe takes the dot it crosses, a drawing shorter than minlen is shaken off and never sent (and,
with the real PAM stack, never counted). Root only (make deps)."""

import unittest

from support import pad
from support.helper import PATTERN


setUpModule = pad.set_up_module


class HitRulesTest(pad.PadCase):
    USER = "pphpad3"

    def test_a_fast_diagonal_swipe_takes_the_middle_dot(self):
        # 1 -> 9 in one pointer jump (no sample near dot 5), then 6 and 3.
        report = self.session(
            [{"op": "wake"}, {"op": "drag", "path": [1, 9, 6, 3], "steps": 1}, {"op": "sleep", "seconds": 1}],
            recorder=True,
        )
        self.assertWoke(report)
        self.assertEqual(self.recorded(), [("p", "15963")])
        self.assertTrue(report["locked_at_end"], "unlocked although authproto did not exit 0")

    def test_a_press_from_before_the_pad_started_is_not_a_drawing(self):
        # The button is already down when the pad comes up (the press woke the locker): dragging on through
        # five dots is ignored until a fresh press.
        report = self.session(
            [
                {"op": "press"},
                {"op": "wake", "in_place": True},
                {"op": "drag", "path": [1, 2, 3, 6, 9], "press": False},
                {"op": "sleep", "seconds": 1},
                {"op": "drag", "path": [7, 8, 9, 6]},
                {"op": "sleep", "seconds": 1},
            ],
            recorder=True,
        )
        self.assertWoke(report)
        self.assertEqual(self.recorded(), [("p", "7896")])

    def test_a_three_dot_drawing_is_not_sent(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": [1, 2, 3]},
                {"op": "caption", "until": "Too short", "timeout": 2},
                {"op": "sleep", "seconds": 1.5},
                {"op": "drag", "path": [7, 8, 9, 6]},
                {"op": "sleep", "seconds": 1},
            ],
            recorder=True,
        )
        self.assertWoke(report)
        self.assertIn("Too short: connect at least 4 dots.", self.step(report, "caption")["text"])
        # Only the second drawing reached the prompt that was waiting all along.
        self.assertEqual(self.recorded(), [("p", "7896")])

    def test_a_three_dot_drawing_is_not_counted(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": [1, 2, 3]},
                {"op": "wait", "timeout": 2},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertWoke(report)
        self.assertFalse(self.step(report, "wait", 0)["unlocked"])
        self.assertTrue(self.step(report, "wait", 1)["unlocked"], report)
        self.assertNotIn("wrong pattern", " ".join(report["log"]))


if __name__ == "__main__":
    unittest.main()
