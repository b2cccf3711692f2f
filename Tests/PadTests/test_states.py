"""What the pad shows between drawings, at the real xsecurelock: while the pattern is held back (a wait) the grid is
dimmed under the live countdown and takes no drawing, and the password still unlocks; after a release the drawing
stays lit while it is checked, and a new press clears the old verdict; the right drawing turns green before the
screen opens. Root only (make deps)."""

import time
import unittest

from support import formats, pad, screen
from support.helper import PATTERN, WRONG_PATTERN


setUpModule = pad.set_up_module


def dimmed(r, g, b):
    """The grid's colour while the pattern is held back (PadRenderer.dimmedDot, 0x3C4043)."""
    return abs(r - 0x3C) < 12 and abs(g - 0x40) < 12 and abs(b - 0x43) < 12


def success(r, g, b):
    """The right drawing's colour (PadRenderer.success, 0x81C995)."""
    return 100 < r < 160 and g > 180 and 120 < b < 180


def at_dot(image, dot, predicate):
    # Close to the centre: a plain (dimmed) dot is small.
    return pad.dot_shows(image, dot, predicate, above=pad.SPACING // 20)


class LockoutTest(pad.PadCase):
    USER = "pphpad9"

    def test_while_locked_a_drawing_is_not_taken_the_grid_is_dimmed_and_the_password_unlocks(self):
        # deny=5: five failures just now hold the pattern back for 60 s; the module asks for the password alone.
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.session(
            [
                {"op": "wake"},
                {"op": "caption", "until": ["Too many", "Password: "], "timeout": 10},
                # The right pattern, whole: held on its last dot for the screenshot, then released.
                {"op": "drag", "path": pad.dots(PATTERN), "shots_before_release": ["locked.xwd"]},
                {"op": "caption"},
                {"op": "wait", "timeout": 2},
                {"op": "type", "text": self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertWoke(report)
        before, after = self.step(report, "caption", 0)["text"], self.step(report, "caption", 1)["text"]
        self.assertIn("Too many wrong patterns: try again in", before)
        self.assertIn("Type your password and press Enter.", before)
        self.assertNotIn("Draw your pattern", before)
        # Released, the drawing was not taken: no "Checking…", the countdown still there.
        self.assertIn("Too many wrong patterns: try again in", after)
        self.assertNotIn("Checking", after)
        image = self.shot("locked.xwd")
        self.assertEqual(image.count(screen.is_accent, pad.grid_box()), 0, "a drawing shows on the held-back grid")
        for dot in (1, 2, 3, 4, 5, 6, 7, 9):  # the pointer is on 8
            self.assertTrue(
                at_dot(image, dot, dimmed), "dot %d is not dimmed: %r" % (dot, image.pixel(*pad.dot_centre(dot)))
            )
        self.assertFalse(self.step(report, "wait", 0)["unlocked"], "the right drawing unlocked while held back")
        self.assertTrue(self.step(report, "wait", 1)["unlocked"], report)
        # The password's success ended the wait (the shipped profiles' reset_on_success line): the helper checked
        # the password itself and cleared the five failures.
        self.assertEqual(self.sandbox.failures(self.USER), 0)
        log = "\n".join(report["log"])
        self.assertIn("pattern failures (5) cleared after the password of user " + self.USER, log)
        self.assertIn("pattern locked for user " + self.USER, log)  # the capture works, so the absences count
        self.assertNotIn("pattern accepted for user", log)
        self.assertNotIn("wrong pattern for user", log)


class CheckingAndSuccessTest(pad.PadCase):
    USER = "pphpad10"

    def test_a_released_drawing_stays_lit_while_checked_and_a_new_press_clears_the_verdict(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "caption", "until": "Checking…", "timeout": 3},
                {"op": "shots", "name": "checking", "count": 1},
                {"op": "caption", "until": "Wrong pattern.", "timeout": 10},
                {"op": "drag", "path": pad.dots("1235"), "shot_after_press": {"name": "new.xwd", "delay": 0.2}},
                {"op": "key", "name": "Escape"},
                {"op": "pad_gone", "timeout": 10},
            ],
            recorder=True,
            env={"PAD_RECORDER_DELAY": "3"},
        )
        self.assertWoke(report)
        checking, verdict = self.step(report, "caption", 0)["text"], self.step(report, "caption", 1)["text"]
        self.assertIn("Checking…", checking)
        self.assertIn("Wrong pattern.", verdict)
        image = self.shot("checking-0.xwd")
        for dot in pad.dots(WRONG_PATTERN)[:-1]:  # the pointer is on the last
            self.assertTrue(at_dot(image, dot, screen.is_accent), "dot %d is not lit while checked" % dot)
        self.assertEqual(image.count(screen.is_red), 0)
        new = self.step(report, "drag", 1)
        self.assertNotIn("Wrong pattern", new["shot_caption"])
        self.assertIn(self.USER, new["shot_caption"])
        self.assertEqual(self.shot("new.xwd").count(screen.is_red), 0)
        self.assertTrue(at_dot(self.shot("new.xwd"), 1, screen.is_accent))

    def test_the_right_drawing_turns_green_before_the_screen_opens(self):
        # xsecurelock is held (SIGSTOP) so the last frame can be read after the pad has ended, as it is shown
        # between the pad's exit and the locker taking its window down.
        report = self.session(
            [
                {"op": "wake"},
                {"op": "locker_signal", "name": "SIGSTOP"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "pad_gone", "timeout": 10},
                {"op": "shots", "name": "success", "count": 1},
                {"op": "locker_signal", "name": "SIGCONT"},
                {"op": "wait", "timeout": 10},
            ],
            recorder=True,
            env={"PAD_RECORDER_ACCEPT": "1"},
        )
        self.assertWoke(report)
        self.assertTrue(self.step(report, "pad_gone")["gone"], report)
        self.assertTrue(self.step(report, "wait")["unlocked"], report)
        image = self.shot("success-0.xwd")
        for dot in (2, 9, 4, 5, 6, 1, 3):  # the pointer is on 8
            self.assertTrue(
                at_dot(image, dot, success), "dot %d is not green: %r" % (dot, image.pixel(*pad.dot_centre(dot)))
            )
        self.assertEqual(image.count(screen.is_accent, pad.grid_box()), 0)
        self.assertEqual(image.count(screen.is_red), 0)


if __name__ == "__main__":
    unittest.main()
