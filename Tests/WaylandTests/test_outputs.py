"""pattern-lock on two outputs side by side, the second at scale 2 (HiDPI), on both paths (support.wayland): each
output has its lock surface (grim's screenshot of each shows the grid, never the desktop), the second's grid is
drawn in its own pixels (the dots twice as far apart as the logical spacing, their edges not a 1x buffer blown
up), and a drawing on the second output unlocks. Root only (make deps)."""

import unittest

from support import pad, wayland
from support.helper import PATTERN


setUpModule = wayland.set_up_module
DESKTOP = (0x33, 0x66, 0x99)


def plain_dot(r, g, b):
    """A dot not taken (PadRenderer.dot, 0x80868B)."""
    return abs(r - 0x80) < 16 and abs(g - 0x86) < 16 and abs(b - 0x8B) < 16


def blown_up(image, y, x0, x1):
    """Whether the row y from x0 to x1 is a buffer of half the pixels scaled up (every even pixel's right
    neighbour the same): a grid drawn at scale 1 on a scale-2 output."""
    return all(image.pixel(x, y) == image.pixel(x + 1, y) for x in range(x0 - x0 % 2, x1, 2))


class Outputs:
    def test_each_output_is_locked_the_scaled_one_sharp_and_a_drawing_on_it_unlocks(self):
        report = self.session(
            [
                {"op": "ready"},
                {"op": "shot", "name": "first.png", "output": 0},
                {"op": "shot", "name": "second.png", "output": 1},
                {"op": "drag", "path": pad.dots(PATTERN), "output": 1},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertReady(report)
        for name, scale in (("first.png", 1), ("second.png", 2)):
            image = self.shot(name)
            self.assertEqual((image.width, image.height), wayland.SCREEN)
            corners = [image.pixel(x, y) for x in (2, wayland.SCREEN[0] - 3) for y in (2, wayland.SCREEN[1] - 3)]
            self.assertNotIn(DESKTOP, corners, "%s shows the desktop: not locked" % name)
            for dot in range(1, 10):
                x, y = wayland.dot_centre(dot, scale=scale)
                self.assertTrue(plain_dot(*image.pixel(x, y)), "%s: no dot %d at %r" % (name, dot, (x, y)))
        second = self.shot("second.png")
        x, y = wayland.dot_centre(5, scale=2)
        # Between two dots of the scaled grid, where a scale-1 grid would have put one: the background.
        self.assertFalse(plain_dot(*second.pixel(x + wayland.SPACING, y)), "a dot at the unscaled spacing")
        self.assertFalse(blown_up(second, y, x - wayland.SPACING // 2, x + wayland.SPACING // 2), "a blurred grid")
        self.assertTrue(self.step(report, "wait")["unlocked"], report["lock_log"])
        self.assertSwayUnlocked(report)


class OutputsTest(Outputs, wayland.WaylandCase):
    USER = "wayland5"
    SCALES = (1, 2)


class OutputsDebian13Test(Outputs, wayland.Debian13Case):
    USER = "wayland5"
    SCALES = (1, 2)


if __name__ == "__main__":
    unittest.main()
