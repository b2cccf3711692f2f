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
# The test wallpaper: red on the left half, blue on the right.
LEFT = (200, 40, 40)
RIGHT = (40, 40, 200)


def two_colour_image():
    half = SIZE[0] // 2
    row = bytearray(bytes(LEFT) * half + bytes(RIGHT) * (SIZE[0] - half))
    return screen.Image(SIZE[0], SIZE[1], [row] * SIZE[1])


def configure_wallpaper(user, home):
    """kscreenlockerrc's lock-screen wallpaper, as System Settings writes it, on an image in the person's home."""
    image = os.path.join(home, "lock-wallpaper.png")
    with open(image, "wb") as f:
        f.write(two_colour_image().png())
    config = os.path.join(home, ".config")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "kscreenlockerrc"), "w") as f:
        f.write("[Greeter]\nWallpaperPlugin=org.kde.image\n\n")
        f.write("[Greeter][Wallpaper][org.kde.image][General]\nImage=file://%s\n" % image)
    for path in (image, config, os.path.join(config, "kscreenlockerrc")):
        os.chown(path, user.uid, -1)


def wallpaper_share(image):
    """Of the screen's points (every 16 px, but for a band down the middle), the share showing the test
    wallpaper's colour of their half (darkened and blurred as Breeze does: which of red and blue leads)."""
    shown = total = 0
    for y in range(0, image.height, 16):
        for x in range(0, image.width, 16):
            if abs(x - image.width // 2) < 96:
                continue
            r, g, b = image.pixel(x, y)
            total += 1
            shown += (r > b + 20) if x < image.width // 2 else (b > r + 20)
    return shown / total


class WallpaperClockDateTest(kde.KdeCase):
    USER = "kdelook1"
    PASSWORD = "Kde-look-pw-1"

    def test_the_configured_wallpaper_the_clock_and_the_date(self):
        configure_wallpaper(self.user, "/home/" + self.USER)
        started = time.time()
        report = self.session(
            [
                {"op": "sleep", "seconds": 2},
                {"op": "shot", "name": "one.xwd"},
                {"op": "sleep", "seconds": 2.2},
                {"op": "shot", "name": "two.xwd"},
            ]
        )
        one, two = self.shot("one.xwd"), self.shot("two.xwd")
        share = wallpaper_share(one)
        self.assertGreater(share, 0.8, "the configured wallpaper is on %d %% of the screen" % (share * 100))

        found = kde.box(report["log"], "clock")
        self.assertIsNotNone(found, "no clock:\n%s" % report["log"])
        place, texts = found
        clock, _, date = texts.partition(" | ")
        # The C locale's forms, as Qt writes them (hh:mm:ss; dddd, d MMMM yyyy).
        minutes = {time.strftime("%H:%M", time.localtime(t)) for t in (started - 60, started, started + 60)}
        self.assertIn(clock[:5], minutes, texts)
        self.assertEqual(date, time.strftime("%A, %-d %B %Y", time.localtime(started)).strip(), texts)
        light = lambda r, g, b: min(r, g, b) > 200  # noqa: E731  the clock's white text
        self.assertGreater(one.crop(*place).count(light), 300, "the clock and date are not drawn where logged")
        self.assertGreater(place[1], 0)
        self.assertNotEqual(one.crop(*place).rows, two.crop(*place).rows, "the clock does not move")

        avatar = kde.box(report["log"], "avatar")
        self.assertIsNotNone(avatar, "no avatar")
        self.assertIn(self.USER, avatar[1])


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
