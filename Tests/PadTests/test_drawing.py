"""What the pad draws at the real xsecurelock, read from screenshots (xwd): lit dots and the trail while
drawing, nothing of the drawing with the trail hidden, the red second after a wrong pattern (counted once) and
the clean grid after it, and the README's screenshot, made here so it stays true. Root only (make deps)."""

import os
import unittest

from support import pad, screen
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import ROOT

README_SHOT = os.path.join(ROOT, "docs", "lock-screen-pad.png")
# The region of the screen the README shows: the name, the grid and the lines under it.
README_BOX = (pad.CENTRE[0] - 320, pad.CENTRE[1] - 260, pad.CENTRE[0] + 320, pad.CENTRE[1] + 260)


setUpModule = pad.set_up_module


def midpoint(a, b):
    (x0, y0), (x1, y1) = pad.dot_centre(a), pad.dot_centre(b)
    return (x0 + x1) // 2, (y0 + y1) // 2


def near(image, point, predicate, radius=3):
    """Whether any pixel within radius of point satisfies predicate."""
    x, y = point
    return image.count(predicate, (x - radius, y - radius, x + radius + 1, y + radius + 1)) > 0


def grey(r, g, b):
    return abs(r - 0x80) < 24 and abs(g - 0x86) < 24 and abs(b - 0x8B) < 24


def white(r, g, b):
    return r > 0xD0 and g > 0xD0 and b > 0xD0


def lit(image, dot):
    # Beside the centre: the pad's own pointer may sit on it; a lit dot is wider than a plain one.
    x, y = pad.dot_centre(dot)
    return screen.is_accent(*image.pixel(x, y - pad.SPACING // 10))


def plain(image, dot):
    x, y = pad.dot_centre(dot)
    return grey(*image.pixel(x, y)) and not screen.is_accent(*image.pixel(x, y - pad.SPACING // 10))


class DrawingTest(pad.PadCase):
    USER = "pphpad2"
    # The README's screenshot shows a neutral name: the pad shows the account's full name when it has one.
    FULL_NAME = "Alex Morgan"

    def drawing_session(self, env=None):
        # The right pattern, held down on its last dot while the screenshot is taken, then released.
        path = pad.dots(PATTERN)
        report = self.session(
            [
                {"op": "wake"},
                {"op": "caption"},
                {"op": "drag", "path": path, "shots_before_release": ["drawing.xwd"]},
                {"op": "wait", "timeout": 20},
            ],
            env=env,
        )
        self.assertWoke(report)
        self.assertEqual(self.step(report, "caption")["text"].splitlines()[0], self.FULL_NAME)
        self.assertTrue(self.step(report, "wait")["unlocked"], report)
        return self.shot("drawing.xwd")

    def test_while_drawing_the_dots_light_and_the_trail_follows(self):
        image = self.drawing_session()
        # PATTERN 2946138 takes 5 on the way from 4 to 6; dot 7 is never touched.
        for dot in (2, 9, 4, 5, 6, 1, 3, 8):
            self.assertTrue(lit(image, dot), "dot %d not lit" % dot)
        self.assertTrue(plain(image, 7), "dot 7 lit")
        # The line between two taken dots that are not neighbours of anything else there: 9 -> 4 (a knight move).
        self.assertTrue(near(image, midpoint(9, 4), screen.is_accent), "no trail between 9 and 4")
        self.assertFalse(near(image, midpoint(7, 8), screen.is_accent), "a trail where none was drawn")
        # The pad's own pointer (xsecurelock hides the real one) on the last dot: a light ring around it.
        x, y = pad.dot_centre(8)
        self.assertGreater(image.count(white, (x - 9, y - 9, x + 10, y + 10)), 12, "no pointer drawn")
        self.keep_readme_shot(image)

    def test_with_the_trail_hidden_nothing_of_the_drawing_shows(self):
        image = self.drawing_session(env={"XSECURELOCK_PATTERN_TRAIL": "0"})
        self.assertEqual(image.count(screen.is_accent, pad.grid_box()), 0, "lit dots or a trail with the trail hidden")
        for dot in range(1, 8):  # the pointer is on 8
            self.assertTrue(plain(image, dot), "dot %d is not plain" % dot)

    def test_a_wrong_drawing_stays_locked_counts_once_and_shows_red_for_a_second(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "shots", "name": "error", "count": 8, "every": 0.1},
                {"op": "sleep", "seconds": 2.5},
                {"op": "shots", "name": "after", "count": 1},
                {"op": "wait", "timeout": 2},
            ]
        )
        self.assertWoke(report)
        self.assertFalse(self.step(report, "wait")["unlocked"], report)
        self.assertTrue(report["locked_at_end"])
        self.assertEqual(self.sandbox.failures(self.USER), 1)
        reds = [self.shot("error-%d.xwd" % i).count(screen.is_red, pad.grid_box()) for i in range(8)]
        self.assertGreater(max(reds), 500, "no red drawing within the error second: %r" % reds)
        after = self.shot("after-0.xwd")
        self.assertEqual(after.count(screen.is_red, pad.grid_box()), 0, "still red seconds later")
        self.assertEqual(after.count(screen.is_accent, pad.grid_box()), 0, "the drawing is still shown")
        for dot in (1, 2, 3, 4, 5, 6, 7, 9):  # the pointer is on 8
            self.assertTrue(plain(after, dot), "dot %d is not clean" % dot)

    def keep_readme_shot(self, image):
        """The README's screenshot is this drawing (pad.committed_shot_differs)."""
        self.assertIsNone(pad.committed_shot_differs(README_SHOT, image.crop(*README_BOX)))


if __name__ == "__main__":
    unittest.main()
