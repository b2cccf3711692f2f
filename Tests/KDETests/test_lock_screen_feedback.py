"""What the KDE Plasma 5.27 lock screen shows is always what PAM answered, at the real greeter
(kscreenlocker_greet --testing) under Xvfb, run by an unprivileged user through the setuid helper: a wrong
password after a wrong drawing says "Unlocking failed" in place of the old words (and the next drawing is taken); a person without a pattern is
shown no grid and no drawing is taken; a locked pattern is dimmed with its countdown from the first frame the grid
is shown in, and no drawing lights up; the grid stays where it is when a message comes; a drawing of 1-3 dots
shakes red and clears. Root only; needs the greeter and Xvfb (make deps)."""

import time

from support import formats, kde, pad, screen
from support.helper import PATTERN, WRONG_PATTERN

setUpModule = kde.set_up_module


def drawing_then_password(password):
    """A screenshot at once (first.xwd), the right drawing (drawing.xwd before its release), then the password
    typed: it unlocks."""
    return [
        {"op": "shot", "name": "first.xwd"},
        {"op": "drag", "path": pad.dots(PATTERN), "shots_before_release": ["drawing.xwd"]},
        {"op": "sleep", "seconds": 1},
        {"op": "type", "text": password},
        {"op": "key", "name": "Return"},
        {"op": "until", "text": "unlocked"},
    ]


class WrongPasswordAfterWrongDrawingTest(kde.KdeCase):
    USER = "kdefb1"
    PASSWORD = "Kde-fb-pw-41"

    def test_it_says_unlocking_failed_in_place_of_the_wrong_drawing(self):
        report = self.session(
            [
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "until", "text": "wrong pattern"},
                {"op": "sleep", "seconds": 1.5},
                {"op": "shot", "name": "wrong-drawing.xwd"},
                {"op": "type", "text": "not-the-password"},
                {"op": "key", "name": "Return"},
                {"op": "until", "text": "wrong password", "timeout": 30},
                {"op": "sleep", "seconds": 1},
                {"op": "shot", "name": "wrong-password.xwd"},
                # and the next run is open: the right drawing unlocks
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "until", "text": "unlocked"},
            ]
        )
        self.assertTrue(report["steps"][6]["found"], report["log"])
        self.assertTrue(report["steps"][-1]["found"], report["log"])
        messages = self.logged(report, "message ")
        # PAM counted the drawing (the module's words), then the password failed.
        self.assertTrue(messages[0].startswith("message Wrong pattern. 4 tries left before a wait."), messages)
        self.assertEqual(messages[-1], "message Unlocking failed", messages)
        # On the screen: the message's place changed from the wrong drawing's words to the failure's.
        place, _ = kde.box(report["log"], "message")
        before = self.shot("wrong-drawing.xwd").crop(*place)
        after = self.shot("wrong-password.xwd").crop(*place)
        reddish = lambda r, g, b: r > 200 and 90 < g < 170 and 90 < b < 170  # noqa: E731  the message's #ff8080
        self.assertGreater(after.count(reddish), 30, "no failure shown")
        self.assertNotEqual(before.rows, after.rows, "the wrong drawing's words stayed")


class NoPatternTest(kde.KdeCase):
    """A person without a pattern: no grid, a drawing where it would be is nothing, the password unlocks."""

    USER = "kdefb2"
    PASSWORD = "Kde-fb-pw-42"
    ENROL = False

    def test_no_grid_is_shown_and_no_drawing_is_taken(self):
        report = self.session(drawing_then_password(self.PASSWORD))
        self.assertTrue(report["steps"][-1]["found"], report["log"])
        self.assertEqual(self.logged(report, "pattern sent"), [])
        self.assertEqual(self.logged(report, "wrong pattern"), [])
        centres = pad.grid_centres(self.logged(report, "grid")[-1])
        spacing = centres[1][0] - centres[0][0]
        for name in ("first.xwd", "drawing.xwd"):
            image = self.shot(name)
            shown = [kde.dot_stands_out(image, c, spacing) for c in centres]
            self.assertLess(max(shown), 40, "%s shows dots: %r" % (name, shown))
        self.assertEqual(self.logged(report, "no pattern"), ["no pattern"], report["log"])


class LockedAtStartTest(kde.KdeCase):
    """The pattern held back when the greeter starts (5 failures a moment ago): the grid appears dimmed, the
    countdown already there; a drawing on it lights nothing and is not sent."""

    USER = "kdefb3"
    PASSWORD = "Kde-fb-pw-43"

    def test_the_first_frame_is_dimmed_with_its_countdown(self):
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.session(drawing_then_password(self.PASSWORD))
        self.assertTrue(report["steps"][-1]["found"], report["log"])
        said = [line for line in kde.logged(report["log"], "") if line.startswith(("grid", "locked for"))]
        self.assertTrue(
            said and said[0].startswith("locked for"), "the grid was shown before the wait was known: %r" % said
        )
        self.assertEqual(self.logged(report, "pattern sent"), [])
        self.assertEqual(self.logged(report, "wrong pattern"), [])
        message = kde.box(report["log"], "message")[1]
        self.assertIn("Too many wrong patterns: try again in ", message)
        centres = pad.grid_centres(self.logged(report, "grid")[0])
        spacing = centres[1][0] - centres[0][0]
        for name in ("first.xwd", "drawing.xwd"):
            image = self.shot(name)
            shown = [kde.dot_stands_out(image, c, spacing) for c in centres]
            self.assertTrue(all(0 < s < 70 for s in shown), "%s: the grid is not dimmed: %r" % (name, shown))


class MessageMovesNothingTest(kde.KdeCase):
    """The grid stays where it was when the module's message comes, the longest one too (its lines are kept,
    empty or not): the fifth wrong drawing, after which the pattern is held back."""

    USER = "kdefb4"
    PASSWORD = "Kde-fb-pw-44"

    def test_the_grid_stays_under_the_pointer(self):
        formats.write_state(self.sandbox.state_dir, self.USER, 4, int(time.time()) - 5)
        report = self.session(
            [
                {"op": "shot", "name": "before.xwd"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "until", "text": "locked for"},
                {"op": "sleep", "seconds": 1.5},
                {"op": "shot", "name": "after.xwd"},
            ]
        )
        self.assertTrue(report["steps"][2]["found"], report["log"])
        self.assertTrue(self.logged(report, "message Wrong pattern. Too many wrong patterns"), report["log"])
        grids = self.logged(report, "grid")
        self.assertEqual(len(set(grids)), 1, "the grid moved: %r" % grids)
        centres = pad.grid_centres(grids[0])
        spacing = centres[1][0] - centres[0][0]
        shown = [kde.dot_stands_out(self.shot("before.xwd"), c, spacing) for c in centres]
        self.assertGreater(min(shown), 40, "before: a dot is not where the grid is: %r" % shown)
        dimmed = [kde.dot_stands_out(self.shot("after.xwd"), c, spacing) for c in centres]
        self.assertGreater(min(dimmed), 5, "after: a dot is not where the grid was: %r" % dimmed)


class TooShortTest(kde.KdeCase):
    """A drawing of 3 dots is shown red, shaken, then cleared; nothing is sent."""

    USER = "kdefb5"
    PASSWORD = "Kde-fb-pw-45"

    def test_it_shakes_and_clears(self):
        report = self.session(
            [
                {"op": "drag", "path": [1, 2, 3]},
                {"op": "shots", "name": "short", "count": 8, "every": 0.03},
                {"op": "sleep", "seconds": 1.5},
                {"op": "shot", "name": "after.xwd"},
            ]
        )
        self.assertEqual(self.logged(report, "shaken off"), ["shaken off 3"])
        self.assertEqual(self.logged(report, "pattern sent"), [])
        centres = pad.grid_centres(self.logged(report, "grid")[-1])
        spacing = centres[1][0] - centres[0][0]
        row = (
            centres[0][0] - spacing,
            centres[0][1] - spacing // 4,
            centres[2][0] + spacing,
            centres[0][1] + spacing // 4,
        )
        frames = [self.shot("short-%d.xwd" % i) for i in range(8)]

        def red_middle(image):
            xs = [
                x
                for y in range(row[1], row[3])
                for x in range(row[0], row[2])
                if screen.is_wrong_colour(image.pixel(x, y))
            ]
            return sum(xs) / len(xs) if len(xs) > 20 else None

        reds = [m for m in (red_middle(f) for f in frames) if m is not None]
        self.assertTrue(reds, "the short drawing is never shown red")
        self.assertGreater(max(reds) - min(reds), 3, "the red drawing does not shake: %r" % reds)
        after = self.shot("after.xwd")
        self.assertIsNone(red_middle(after), "still red")
        shown = [kde.dot_stands_out(after, c, spacing) for c in centres[:3]]
        lit = [kde.dot_stands_out(after, c, spacing) for c in centres[6:]]
        self.assertLess(max(shown), max(lit) + 15, "the drawing stays lit: %r vs %r" % (shown, lit))
