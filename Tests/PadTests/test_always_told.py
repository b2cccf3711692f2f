"""Whatever the pad shows is true, at the real xsecurelock with the shipped profile: a person without a pattern gets
no grid (nothing to draw, nothing dropped) and the password; a held-back pattern is dimmed under its countdown
from the first frame that shows a grid; a too-short drawing shakes and clears; a wrong password right after a
wrong drawing is told; the way out of a forgotten pattern is the password, never a command. Root only (make
deps)."""

import time
import unittest

from support import formats, pad, screen
from support.helper import WRONG_PATTERN


setUpModule = pad.set_up_module

# A stack that takes 2 s before it says anything (pam_exec running sleep, then common-auth with the profile): the
# frames before PAM's first word are on screen long enough to be seen.
SLOW = "padslow"
SLOW_SERVICE = {
    SLOW: ["auth optional pam_exec.so quiet /bin/sleep 2", "@include common-auth", "@include common-account"]
}


def near(expected):
    """A predicate for a colour within 12 of `expected` (0xRRGGBB) in each channel."""
    want = ((expected >> 16) & 255, (expected >> 8) & 255, expected & 255)
    return lambda r, g, b: all(abs(a - w) < 12 for a, w in zip((r, g, b), want))


# PadRenderer's plain dot (0x80868B) and the dimmed one of a held-back pattern (0x3C4043).
plain = near(0x80868B)
dimmed = near(0x3C4043)


def grid_pixels(image):
    """Pixels in the grid's box drawn as a dot would be: plain, dimmed or lit."""
    box = pad.grid_box()
    return sum(image.count(p, box) for p in (plain, dimmed, screen.is_accent))


def accent_centre_x(image):
    """The mean x of the lit pixels in the grid's box (None when none is lit)."""
    x0, y0, x1, y1 = pad.grid_box()
    xs = [x for y in range(y0, y1) for x in range(x0, x1) if screen.is_accent(*image.pixel(x, y))]
    return sum(xs) / len(xs) if xs else None


class NoPatternTest(pad.PadCase):
    USER = "padfb1"
    ENROL = False
    SERVICES = SLOW_SERVICE

    def test_a_person_without_a_pattern_gets_no_grid_and_the_password_unlocks(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "shot", "name": "early.xwd"},
                {"op": "caption"},
                {"op": "caption", "until": "Password", "timeout": 10},
                {"op": "drag", "path": pad.dots("12369"), "shots_before_release": ["drawn.xwd"]},
                {"op": "sleep", "seconds": 0.5},
                {"op": "caption"},
                {"op": "type", "text": self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "wait", "timeout": 20},
            ],
            env={"XSECURELOCK_PAM_SERVICE": SLOW},
        )
        self.assertWoke(report)
        early, asked, released = (self.step(report, "caption", i)["text"] for i in range(3))
        for caption in (early, asked, released):
            self.assertNotIn("Draw your pattern", caption)
            self.assertNotIn("Checking", caption)
        self.assertIn("Type your password and press Enter.", asked)
        self.assertIn("Type your password and press Enter.", released)
        for name in ("early.xwd", "drawn.xwd"):
            self.assertEqual(grid_pixels(self.shot(name)), 0, "%s shows a grid to draw on" % name)
        self.assertTrue(self.step(report, "wait")["unlocked"], report)


class LockedFromTheFirstFrameTest(pad.PadCase):
    USER = "padfb2"
    SERVICES = SLOW_SERVICE

    def test_a_held_back_pattern_is_never_offered_and_is_dimmed_under_its_countdown(self):
        # deny=5: five failures just now hold the pattern back for 60 s.
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.session(
            [
                {"op": "wake"},
                {"op": "shot", "name": "early.xwd"},
                {"op": "caption"},
                {"op": "caption", "until": "Too many", "timeout": 10},
                {"op": "shot", "name": "told.xwd"},
            ],
            env={"XSECURELOCK_PAM_SERVICE": SLOW},
        )
        self.assertWoke(report)
        early, told = self.step(report, "caption", 0)["text"], self.step(report, "caption", 1)["text"]
        self.assertNotIn("Draw your pattern", early)
        self.assertEqual(self.shot("early.xwd").count(plain, pad.grid_box()), 0, "a grid offered before PAM spoke")
        self.assertIn("Too many wrong patterns: try again in", told)
        image = self.shot("told.xwd")
        self.assertEqual(image.count(plain, pad.grid_box()), 0, "an undimmed dot under the countdown")
        self.assertGreater(image.count(dimmed, pad.grid_box()), 9 * 20, "the dimmed grid is not shown")


class TooShortTest(pad.PadCase):
    USER = "padfb3"

    def test_a_too_short_drawing_shakes_and_clears(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": [1, 2, 3]},
                {"op": "shots", "name": "short", "count": 6, "every": 0.02},
                {"op": "sleep", "seconds": 0.6},
                {"op": "shot", "name": "cleared.xwd"},
                {"op": "caption"},
            ]
        )
        self.assertWoke(report)
        self.assertIn("Too short: connect at least 4 dots.", self.step(report, "caption")["text"])
        middle = pad.dot_centre(2)[0]
        offsets = [accent_centre_x(self.shot("short-%d.xwd" % i)) for i in range(6)]
        self.assertTrue(
            any(x is not None and abs(x - middle) >= 4 for x in offsets), "the drawing did not shake: %r" % offsets
        )
        self.assertEqual(self.shot("cleared.xwd").count(screen.is_accent, pad.grid_box()), 0, "still lit")
        self.assertEqual(self.sandbox.failures(self.USER), 0)


class WrongPasswordAfterWrongDrawingTest(pad.PadCase):
    USER = "padfb4"

    def test_a_wrong_password_after_a_wrong_drawing_is_told(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "caption", "until": "Wrong pattern", "timeout": 10},
                {"op": "type", "text": "not-the-password"},
                {"op": "key", "name": "Return"},
                {"op": "caption", "until": "Wrong password.", "timeout": 10},
            ]
        )
        self.assertWoke(report)
        self.assertIn("Wrong pattern", self.step(report, "caption", 0)["text"])
        self.assertIn("Wrong password.", self.step(report, "caption", 1)["text"])
        self.assertTrue(report["locked_at_end"])
        self.assertEqual(self.sandbox.failures(self.USER), 1)


class ScreenRouteTest(pad.PadCase):
    USER = "padfb5"

    def test_a_forgotten_pattern_is_answered_with_the_password_not_a_command(self):
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.session([{"op": "wake"}, {"op": "caption", "until": "Too many", "timeout": 10}])
        self.assertWoke(report)
        caption = self.step(report, "caption")["text"]
        self.assertIn("Forgot your pattern? Use your password.", caption)
        self.assertNotIn("patternctl", caption)

    def test_a_disabled_pattern_names_no_command(self):
        # lock_after=20: twenty failures disable the pattern until an administrator resets it.
        formats.write_state(self.sandbox.state_dir, self.USER, 20, int(time.time()))
        report = self.session([{"op": "wake"}, {"op": "caption", "until": "disabled", "timeout": 10}])
        self.assertWoke(report)
        caption = self.step(report, "caption")["text"]
        self.assertIn(
            "Your pattern is disabled after too many wrong tries; an administrator can re-enable it.", caption
        )
        self.assertNotIn("patternctl", caption)


if __name__ == "__main__":
    unittest.main()
