"""The KDE Plasma 5.27 lock screen looks like Plasma's own (Breeze) with the grid added, at the real greeter
(kscreenlocker_greet --testing) under Xvfb: the lock-screen wallpaper the person configured in kscreenlockerrc
(a test image of two colours, found in the screenshot's pixels), Breeze's clock and date (the live time and
today's date in the person's locale, drawn where the lock screen says they are, the seconds moving), the avatar
with the person's name; the on-screen keyboard on demand, on which a password can be typed. `make screenshots` remakes docs/kde-lock-screen-5.27.png beside the stock Breeze lock
screen, docs/kde-breeze-5.27.png, both from the real greeter with the same settings. Root only; needs the greeter
and Xvfb (make deps)."""

import os
import time

from support import kde, pad, screen
from support.helper import PATTERN
from support.paths import ROOT, run

setUpModule = kde.set_up_module

SIZE = (1024, 768)
# Qt's virtual keyboard (qtvirtualkeyboard-plugin): where it is not installed there is no on-screen keyboard.
VIRTUAL_KEYBOARD = "/usr/lib/x86_64-linux-gnu/qt5/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so"


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


class OnScreenKeyboardTest(kde.KdeCase):
    """Where Qt's virtual keyboard is installed (qtvirtualkeyboard-plugin), the footer's "Virtual Keyboard"
    button brings it up (Breeze's InputPanel), the password field moves above it, and a password typed on its
    keys alone unlocks: a touch-only machine can type its password. Where it is not, no button is shown (as in
    Breeze)."""

    USER = "kdelook3"
    PASSWORD = "qwertyasdf"  # letters of the keyboard's first page only
    # Where the keys are at 1024x768 (Qt 5.15's default keyboard style, English): the button first (the lock
    # screen logs its place; checked below), then each letter, then Enter.
    BUTTON = (40, 749)
    KEYS = {"q": (88, 488), "w": (172, 488), "e": (257, 488), "r": (342, 488), "t": (427, 488), "y": (511, 488)}
    KEYS.update({"a": (118, 558), "s": (202, 558), "d": (287, 558), "f": (372, 558), "Enter": (906, 558)})

    def test_the_password_typed_on_the_on_screen_keyboard_unlocks(self):
        if not os.path.exists(VIRTUAL_KEYBOARD):
            # Breeze shows no button then, and neither does this screen.
            report = self.session([{"op": "sleep", "seconds": 1}])
            self.assertEqual(kde.box(report["log"], "virtualKeyboard")[1], "", "a button without a keyboard")
            return
        tap = lambda point: {"op": "drag", "path": [list(point)], "dwell": 0}  # noqa: E731
        steps = [{"op": "shot", "name": "before.xwd"}, tap(self.BUTTON), {"op": "sleep", "seconds": 1.5}]
        steps += [{"op": "shot", "name": "keyboard.xwd"}]
        steps += [tap(self.KEYS[letter]) for letter in self.PASSWORD] + [tap(self.KEYS["Enter"])]
        steps += [{"op": "until", "text": "unlocked"}]
        report = self.session(steps)
        (x0, y0, x1, y1), _ = kde.box(report["log"], "virtualKeyboard")
        self.assertTrue(
            x0 <= self.BUTTON[0] < x1 and y0 <= self.BUTTON[1] < y1, "the button moved: %r" % ((x0, y0, x1, y1),)
        )
        before, keyboard = self.shot("before.xwd"), self.shot("keyboard.xwd")
        black = lambda r, g, b: max(r, g, b) < 16  # noqa: E731  the keyboard's background
        bottom = (0, SIZE[1] * 2 // 3, SIZE[0], SIZE[1])
        self.assertLess(before.count(black, bottom), 1000, "black at the bottom before the keyboard")
        self.assertGreater(keyboard.count(black, bottom), 20000, "no keyboard at the bottom")
        top_of_keyboard = min(y for y in range(SIZE[1] // 3, SIZE[1]) if black(*keyboard.pixel(2, y)))
        field = kde.box(report["log"], "password field")[0]
        self.assertLessEqual(field[3], top_of_keyboard, "the password field is under the keyboard")
        self.assertTrue(report["steps"][-1]["found"], report["log"])
        self.assertEqual(self.logged(report, "pattern sent"), [])


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
