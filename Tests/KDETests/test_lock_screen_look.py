"""The KDE Plasma 5.27 lock screen looks like Plasma's own (Breeze) with the grid added, at the real greeter
(kscreenlocker_greet --testing) under Xvfb: the lock-screen wallpaper the person configured in kscreenlockerrc
(a test image of two colours, found in the screenshot's pixels), Breeze's clock and date (the live time and
today's date in the person's locale, drawn where the lock screen says they are, the seconds moving), the avatar
with the person's name. `make screenshots` remakes docs/kde-lock-screen-5.27.png beside the stock Breeze lock
screen, docs/kde-breeze-5.27.png, both from the real greeter with the same settings. Root only; needs the greeter
and Xvfb (make deps)."""

import os
import time

from support import kde, pad, screen
from support.helper import PATTERN
from support.paths import ROOT, run

setUpModule = kde.set_up_module

SIZE = (1024, 768)


class WallpaperClockDateTest(kde.KdeCase):
    USER = "kdelook1"
    PASSWORD = "Kde-look-pw-1"

    def test_the_configured_wallpaper_the_clock_and_the_date(self):
        home = "/home/" + self.USER
        kde.configure_lock_wallpaper(home, home, self.user.uid)
        started = time.time()
        report = self.session(
            [
                {"op": "sleep", "seconds": 2},
                {"op": "shot", "name": "one.xwd"},
                {"op": "sleep", "seconds": 2.2},
                {"op": "shot", "name": "two.xwd"},
            ]
        )
        kde.assert_looks_like_breeze(
            self, report["log"], self.shot("one.xwd"), self.shot("two.xwd"), started, self.USER
        )


class ScreenshotsTest(kde.KdeCase):
    """docs/kde-lock-screen-5.27.png (a drawing in progress) and docs/kde-breeze-5.27.png (the stock lock screen,
    woken by a key), same user, same settings. Made anew by `make screenshots` (PAM_PATTERN_UPDATE_SCREENSHOT=1)
    or when missing; otherwise the committed ones must be whole screenshots of the greeter's size."""

    USER = "kdelook2"
    PASSWORD = "Kde-look-pw-2"
    OURS = os.path.join(ROOT, "docs", "kde-lock-screen-5.27.png")
    STOCK = os.path.join(ROOT, "docs", "kde-breeze-5.27.png")

    def test_ours_beside_the_stock_one(self):
        remake = os.environ.get("PAM_PATTERN_UPDATE_SCREENSHOT") == "1"
        if remake or not (os.path.exists(self.OURS) and os.path.exists(self.STOCK)):
            done = run(["chfn", "-f", "Alex Doe", self.USER])
            self.assertEqual(done.returncode, 0, done.stderr)
            self.session(
                [
                    {"op": "sleep", "seconds": 1.5},
                    {"op": "drag", "path": pad.dots(PATTERN)[:5], "shots_before_release": ["ours.xwd"]},
                ]
            )
            pad.keep(self.OURS, self.shot("ours.xwd"))
            self.session(
                [{"op": "key", "name": "shift"}, {"op": "sleep", "seconds": 2.5}, {"op": "shot", "name": "stock.xwd"}],
                configured=True,
                ready_after=6,
            )
            pad.keep(self.STOCK, self.shot("stock.xwd"))
        for path in (self.OURS, self.STOCK):
            image = screen.read_png(path)
            self.assertEqual((image.width, image.height), SIZE, path)
