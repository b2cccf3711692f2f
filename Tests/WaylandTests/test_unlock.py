"""pattern-lock at a real headless sway, run by an unprivileged user through the service pattern-lock and the
installed setuid helper, on both paths (support.wayland: the host's sway 1.7 with wlr-layer-shell +
wlr-input-inhibitor, Debian 13's sway 1.10 with ext-session-lock-v1): the right drawing unlocks (the locker exits
0; sway 1.10 logs "session unlocked"), a wrong one is refused and counted once (then the right one still
unlocks), the password typed on the keyboard unlocks. Root only; needs sway, grim, wtype (make deps) and, for
Debian 13, debootstrap."""

import os
import unittest

from support import pad, screen, wayland
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import ROOT


setUpModule = wayland.set_up_module
DOC_SHOT = os.path.join(ROOT, "docs", "wayland-lock.png")


class Unlock:
    def test_the_right_drawing_unlocks(self):
        report = self.session(
            [{"op": "ready"}, {"op": "drag", "path": pad.dots(PATTERN)}, {"op": "wait", "timeout": 20}]
        )
        self.assertReady(report)
        wait = self.step(report, "wait")
        self.assertTrue(wait["unlocked"], report["lock_log"])
        self.assertEqual(wait["status"], 0)
        self.assertSwayUnlocked(report)
        self.assertEqual(self.failures(), 0)
        self.assertNotIn("wrong pattern", "\n".join(report["log"]))

    def test_a_wrong_drawing_is_refused_and_counted_once_then_the_right_one_unlocks(self):
        self.assertWrongCountedOnceThenRightUnlocks("drag")

    def test_the_password_typed_unlocks(self):
        report = self.session([{"op": "ready"}, {"op": "type", "text": self.PASSWORD}, {"op": "wait", "timeout": 20}])
        self.assertReady(report)
        self.assertEqual(self.step(report, "type")["status"], 0)
        self.assertTrue(self.step(report, "wait")["unlocked"], report["lock_log"])
        self.assertSwayUnlocked(report)


class UnlockTest(Unlock, wayland.WaylandCase):
    USER = "wayland1"


class UnlockDebian13Test(Unlock, wayland.Debian13Case):
    USER = "wayland1"


class WrongOnly:
    """A wrong drawing alone: the locker stays, the count is one, the screen goes red for a while."""

    def test_a_wrong_drawing_stays_locked_counts_once_and_shows_red(self):
        report = self.session(
            [
                {"op": "ready"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "shots", "name": "red", "count": 8, "every": 0.1},
                {"op": "sleep", "seconds": 2.5},
                {"op": "shot", "name": "after.png"},
                {"op": "wait", "timeout": 1},
            ]
        )
        self.assertReady(report)
        self.assertFalse(self.step(report, "wait")["unlocked"])
        self.assertTrue(report["locked_at_end"])
        self.assertEqual(self.failures(), 1)
        first = wayland.dot_centre(int(WRONG_PATTERN[0]))
        shots = [self.shot("red-%d.png" % i) for i in range(8)]
        seen = [image.pixel(first[0], first[1] - 10) for image in shots]
        self.assertTrue(any(screen.is_red(*p) for p in seen), "the wrong drawing is never red: %r" % seen)
        red = next(image for image, p in zip(shots, seen) if screen.is_red(*p))
        if self.DOC_SHOT:
            # docs/reference.md's screenshot is this screen (grim's, the first in red).
            self.assertIsNone(pad.committed_shot_differs(DOC_SHOT, red))
        after = self.shot("after.png")
        self.assertFalse(screen.is_red(*after.pixel(first[0], first[1] - 10)), "still red later")


class WrongOnlyTest(WrongOnly, wayland.WaylandCase):
    USER = "wayland2"
    DOC_SHOT = True


class WrongOnlyDebian13Test(WrongOnly, wayland.Debian13Case):
    USER = "wayland2"
    DOC_SHOT = False  # the docs' screenshot is the host's


if __name__ == "__main__":
    unittest.main()
