"""pattern-lock drawn on by a finger (wl_touch), on both paths (support.wayland): sway runs nested in the tests'
touch host (build/wayland-touch-host, a minimal compositor whose seat is a touch screen; wlroots' wayland backend
makes it sway's touch device), so the touch reaches the locker through sway's own touch handling. A wrong drawing
by touch is refused and counted once, then the right one by touch unlocks. Root only (make deps)."""

import unittest

from support import wayland


setUpModule = wayland.set_up_module


class Touch:
    def test_a_wrong_drawing_by_touch_is_refused_then_the_right_one_unlocks(self):
        report = self.assertWrongCountedOnceThenRightUnlocks("touch")
        self.assertTrue(all(step["synced"] for step in report["steps"] if step["op"] == "touch"))


class TouchTest(Touch, wayland.WaylandCase):
    USER = "wayland7"
    TOUCH = True


class TouchDebian13Test(Touch, wayland.Debian13Case):
    USER = "wayland7"
    TOUCH = True


if __name__ == "__main__":
    unittest.main()
