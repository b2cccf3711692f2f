"""pattern-lock while pam_pattern holds the pattern back (a wait after wrong guesses), at a real headless sway: the
countdown is live (its seconds go down on screen), the right drawing is not taken, and the password still unlocks;
on both paths (support.wayland). Root only (make deps)."""

import re
import time
import unittest

from support import pad, wayland
from support.helper import PATTERN


setUpModule = wayland.set_up_module


def seconds_left(text):
    """The countdown's seconds ("try again in 1 minute", "... in 59 seconds")."""
    found = re.search(r"try again in (\d+) (minute|second)", text)
    return int(found.group(1)) * (60 if found.group(2) == "minute" else 1) if found else None


class Lockout:
    def test_while_locked_the_countdown_runs_a_drawing_is_not_taken_and_the_password_unlocks(self):
        # deny=5: five failures just now hold the pattern back for 60 s; the module asks for the password alone.
        self.write_state(5, int(time.time()))
        report = self.session(
            [
                {"op": "ready", "until": ["Too many", "Password: "]},
                {"op": "sleep", "seconds": 2.2},
                {"op": "screen"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "screen"},
                {"op": "wait", "timeout": 2},
                {"op": "type", "text": self.PASSWORD},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertReady(report)
        before = self.step(report, "ready")["screen"]
        later, after = self.step(report, "screen", 0)["text"], self.step(report, "screen", 1)["text"]
        self.assertNotIn("Draw your pattern", before)
        first, second = seconds_left(before), seconds_left(later)
        self.assertIsNotNone(first, before)
        self.assertIsNotNone(second, later)
        self.assertLess(second, first, "the countdown did not run: %r then %r" % (before, later))
        # Released, the drawing was not taken: no "Checking…", the countdown still there.
        self.assertIn("Too many wrong patterns: try again in", after)
        self.assertNotIn("Checking", after)
        self.assertFalse(self.step(report, "wait", 0)["unlocked"], "the right drawing unlocked while held back")
        self.assertTrue(self.step(report, "wait", 1)["unlocked"], report["lock_log"])
        log = "\n".join(report["log"])
        self.assertIn("pattern locked for user " + self.USER, log)  # the capture works, so the absences count
        self.assertNotIn("pattern accepted for user", log)
        self.assertSwayUnlocked(report)


class LockoutTest(Lockout, wayland.WaylandCase):
    USER = "wayland3"


class LockoutDebian13Test(Lockout, wayland.Debian13Case):
    USER = "wayland3"


if __name__ == "__main__":
    unittest.main()
