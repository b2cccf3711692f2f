"""The LightDM greeter as the lock screen (support.lightdm): a session started by drawing, locked with `dm-tool
lock` (what light-locker and XFCE's lock do), shows the greeter again on a display of its own with the locked
user already chosen, and the pattern returns to that session (no second one starts); while the pattern is held
back the greeter counts the wait down and takes no drawing. Root only; needs lightdm and Xvfb (make deps)."""

import os
import re
import time
import unittest

from support import formats, lightdm, pad, screen
from support.helper import PATTERN
from support.paths import ROOT

setUpModule = lightdm.set_up_module

RETURNING = "Returning to existing user session"
# The reference's screenshot of the lock (docs/reference.md, "Logging in by drawing: LightDM").
LOCK_SHOT = os.path.join(ROOT, "docs", "lightdm-lock.png")


def wait_said(text):
    """The seconds of "try again in 1 minute", "… 59 seconds", "… 1 minute 2 seconds" (DurationWords)."""
    said = re.search(r"try again in ((?:\d+ (?:minutes?|seconds?) ?)+)", text).group(1)
    return sum(int(n) * (60 if unit.startswith("minute") else 1) for n, unit in re.findall(r"(\d+) (\w+)", said))


class LockScreenTest(lightdm.LightDMCase):
    USER = "lightdm2"
    PASSWORD = "Lightdm-test-pw-43"

    def test_the_pattern_returns_to_the_locked_session(self):
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "drag", "path": [int(d) for d in PATTERN]},
                {"op": "marker"},
                {"op": "lock"},
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "shot", "name": "lock.xwd"},
                {"op": "drag", "path": [int(d) for d in PATTERN]},
                {"op": "log", "text": RETURNING},
            ]
        )
        self.assertEqual(report["steps"][3]["lines"], ["%s :50" % self.USER], report["log"][-3000:])
        lock = report["steps"][4]
        self.assertEqual(lock["status"][0], 0, lock["status"][1])
        self.assertTrue(lock["ready"], report["log"][-3000:])
        # The locked session's user, chosen by the greeter itself (the daemon hints the lock, not the user).
        self.assertEqual(report["steps"][5]["text"].split("\n")[0], self.FULL_NAME)
        # No session to choose at a lock: the pattern returns to the running one.
        self.assertNotIn("Marker desktop", report["steps"][5]["text"])
        self.assertTrue(report["steps"][8]["found"], report["log"][-3000:])
        self.assertIsNone(pad.committed_shot_differs(LOCK_SHOT, screen.parse_xwd(self.read("lock.xwd"))))
        self.assertEqual(report["marker"], ["%s :50" % self.USER], "a second session started")
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_held_back_pattern_counts_down_and_takes_no_drawing(self):
        # deny=5: five failures just now hold the pattern back for 60 s; the module asks for the password alone.
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": ["try again in", "Password: "]},
                {"op": "sleep", "seconds": 2.2},
                {"op": "caption"},
                {"op": "drag", "path": [int(d) for d in PATTERN]},
                {"op": "caption"},
                {"op": "sleep", "seconds": 2},
            ]
        )
        before, later, after = (report["steps"][i]["text"] or "" for i in (1, 3, 5))
        self.assertIn("Too many wrong patterns: try again in", before)
        self.assertNotIn("Draw your pattern", before)
        seconds = [wait_said(text) for text in (before, later)]
        self.assertLess(seconds[1], seconds[0], "the wait is not counted down: %r" % seconds)
        self.assertIn("try again in", after)
        self.assertNotIn("Checking", after)
        self.assertEqual(report["marker"], [])
        self.assertEqual(self.sandbox.failures(self.USER), 5)


if __name__ == "__main__":
    unittest.main()
