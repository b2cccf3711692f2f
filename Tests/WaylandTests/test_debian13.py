"""pattern-lock killed on Debian 13's sway 1.10 (ext-session-lock-v1; support.wayland.Debian13Case, the installed
packages): a SIGKILL of the locker leaves the session locked (sway's log, and grim's screenshot shows its red
locked screen, not the desktop). The protocol's guarantee; Debian 12's wlr-input-inhibitor has none, so the host's
path has no such test. The other tests run on this path too, beside the host's (test_unlock, test_states,
test_drawing, test_outputs, test_touch). Root only; needs debootstrap (make deps)."""

import unittest

from support import screen, wayland


setUpModule = wayland.set_up_module


class KilledTest(wayland.Debian13Case):
    USER = "wayland6"

    def test_a_killed_locker_leaves_the_session_locked(self):
        report = self.session(
            [
                {"op": "ready"},
                {"op": "kill"},
                {"op": "sleep", "seconds": 1},
                {"op": "shot", "name": "killed.png"},
            ]
        )
        self.assertReady(report)
        self.assertEqual(report["sway_lock"], ["session locked", "session lock abandoned"], report["sway_log"][-2000:])
        self.assertTrue(self.step(report, "shot")["taken"], report["sway_log"][-2000:])
        image = self.shot("killed.png")
        # sway fills a locked output whose locker died with red; the desktop (#336699) never shows.
        centre = image.pixel(wayland.SCREEN[0] // 2, wayland.SCREEN[1] // 2)
        self.assertTrue(screen.is_red(*centre), "the screen is not sway's locked red: %r" % (centre,))
        self.assertNotIn((0x33, 0x66, 0x99), [image.pixel(x, y) for x, y in ((5, 5), (400, 300), (795, 595))])


if __name__ == "__main__":
    unittest.main()
