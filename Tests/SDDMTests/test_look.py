"""What the SDDM login screen shows around the grid, at the real SDDM 0.19 daemon and greeter (support.sddm): the
clock, the date and the machine's name; shut down, restart and sleep, which reach the daemon (it runs its
HaltCommand and RebootCommand, and asks UPower, a stand-in on the private bus, to suspend: power.log); Qt's
on-screen keyboard in the theme's own window where Qt's virtual keyboard plugin is installed (the greeter runs with
QT_IM_MODULE=qtvirtualkeyboard, SDDM's default; the plugin unpacked in the test's namespace): the grid stays in
sight, the keyboard comes up behind its button, and the password typed on its keys logs in. Root only; needs sddm,
Xvfb, qml-module-qtquick-virtualkeyboard (make deps)."""

import calendar
import datetime
import os
import unittest

from support import pad, sddm
from support.paths import ROOT

setUpModule = sddm.set_up_module

BACKGROUND = (0x1B, 0x1E, 0x20)


def drawn(image, box):
    """How many pixels in box (x0, y0, x1, y1) are not the theme's background."""
    x0, y0, x1, y1 = box
    return sum(
        1
        for y in range(y0, y1, 2)
        for x in range(x0, x1, 2)
        if max(abs(a - b) for a, b in zip(image.pixel(x, y), BACKGROUND)) > 40
    )


def background_share(image, box):
    """The share of box (x0, y0, x1, y1) in the theme's background colour."""
    x0, y0, x1, y1 = box
    points = [(x, y) for y in range(y0, y1, 3) for x in range(x0, x1, 3)]
    return sum(1 for x, y in points if max(abs(a - b) for a, b in zip(image.pixel(x, y), BACKGROUND)) <= 8) / len(
        points
    )


class LookTest(sddm.SddmCase):
    USER = "sddmlook1"
    PASSWORD = "Sddm-look-pw-42"
    FULL_NAME = "Alex Doe"

    def test_the_header_shows_the_clock_the_date_and_the_hostname(self):
        report = self.session([{"op": "sleep", "seconds": 1}, {"op": "shot", "name": "start.xwd"}])
        header = self.logged(report, "header ")[-1][len("header ") :].split(" | ")
        clock, date, host = header
        self.assertEqual(host, sddm.HOSTNAME)
        today = datetime.date.today()
        # The greeter's locale here is C: the long date names the weekday and the month in English.
        for part in (str(today.year), calendar.month_name[today.month], calendar.day_name[today.weekday()]):
            self.assertIn(part, date)
        shown = datetime.datetime.strptime(clock[:5], "%H:%M")
        now = datetime.datetime.now()
        self.assertLess(abs((now.hour * 60 + now.minute) - (shown.hour * 60 + shown.minute)) % (24 * 60 - 2), 3)
        # Drawn at the top of the screen, above the grid.
        image = self.shot("start.xwd")
        top = sddm_grid_top(self, report)
        self.assertGreater(drawn(image, (312, 10, 712, top - 150)), 100, "nothing drawn where the clock is")

    def test_the_power_buttons_reach_the_daemon(self):
        report = self.session(
            [
                {"op": "click", "control": "suspend"},
                {"op": "sleep", "seconds": 2},
                {"op": "click", "control": "reboot"},
                {"op": "sleep", "seconds": 2},
                {"op": "click", "control": "powerOff"},
                {"op": "sleep", "seconds": 2},
            ]
        )
        self.assertEqual(report["services"], ["ready"], report["log"])
        self.assertEqual([step["found"] for step in report["steps"] if step["op"] == "click"], [True] * 3)
        self.assertEqual(self.power_calls(), ["Suspend", "Reboot", "PowerOff"], report["log"])


# Where Qt 5.15's on-screen keyboard puts the keys of its top row (q ... p) and Enter on a 1024-wide screen (its
# English layout, the keys' centres as the screenshot shows them).
TOP_ROW = dict(zip("qwertyuiop", (88, 172, 257, 342, 427, 511, 596, 681, 766, 851)))
TOP_ROW_Y = 488
ENTER = (906, 558)


class VirtualKeyboardTest(sddm.SddmCase):
    USER = "sddmlook2"
    # Typed on the keys of the top row only.
    PASSWORD = "typewriter"
    VIRTUAL_KEYBOARD = True
    FULL_NAME = "Alex Doe"

    def test_with_qt_virtual_keyboard_the_grid_stays_and_the_keyboard_comes_on_demand(self):
        report = self.session(
            [
                {"op": "sleep", "seconds": 1},
                {"op": "shot", "name": "start.xwd"},
                {"op": "click", "control": "virtualKeyboardButton"},
                {"op": "until", "text": "keyboard shown"},
                {"op": "sleep", "seconds": 1},
                {"op": "shot", "name": "keyboard.xwd"},
            ]
            # A touch-only machine: the password typed on the keys, Enter pressed on them.
            + [{"op": "click_at", "point": [TOP_ROW[key], TOP_ROW_Y]} for key in self.PASSWORD]
            + [{"op": "click_at", "point": list(ENTER)}, {"op": "until", "text": "logged in"}, {"op": "marker"}]
        )
        before = []
        for _, message in report["journal"]:
            if message == "pam_pattern: keyboard shown":
                break
            if message.startswith("pam_pattern: grid "):
                before.append(message)
        centres = [tuple(int(v) for v in p.split(",")) for p in before[-1].split()[2:]]
        start = self.shot("start.xwd")
        for x, y in centres:
            self.assertGreater(min(start.pixel(x, y)), 120, "dot at %d,%d not drawn: %r" % (x, y, start.pixel(x, y)))
        self.assertTrue(self.logged(report, "keyboard shown"), report["log"])
        keyboard = self.shot("keyboard.xwd")
        # The keys across the lower part of the screen, and the password field just above them.
        self.assertGreater(background_share(start, (0, 460, 1024, 740)), 0.6)
        self.assertLess(background_share(keyboard, (0, 460, 1024, 740)), 0.3)
        field = self.logged(report, "password field ")[-1].split()[-1].split(",")
        self.assertLess(int(field[1]), 768 - 250, "the password field is under the keyboard")
        self.assertGreater(background_share(keyboard, (0, int(field[1]) - 30, 1024, int(field[1]) - 25)), 0.5)
        self.assertTrue(self.step(report, "until", 1)["found"], report["log"])
        self.assertEqual(len(self.step(report, "marker")["lines"]), 1, report["log"])
        self.assertEqual(self.logged(report, "password sent"), ["password sent"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)


SHOT = os.path.join(ROOT, "docs", "sddm-login-screen.png")
BREEZE_SHOT = os.path.join(ROOT, "docs", "sddm-breeze.png")
BREEZE = "/usr/share/sddm/themes/breeze"


class ScreenshotsTest(sddm.SddmCase):
    """The reference's two screenshots, from the real daemon and greeter with the same user: the theme, and SDDM's
    Breeze beside it. `make screenshots-sddm` remakes them (PAM_PATTERN_UPDATE_SCREENSHOT=1); otherwise the committed
    ones must still show what is drawn (the clock's digits aside)."""

    USER = "sddmshot1"
    PASSWORD = "Sddm-shot-pw-42"
    FULL_NAME = "Alex Doe"

    def test_the_theme(self):
        self.session([{"op": "sleep", "seconds": 1}, {"op": "shot", "name": "theme.xwd"}])
        self.assertIsNone(pad.committed_shot_differs(SHOT, self.shot("theme.xwd")))

    def test_breeze_beside_it(self):
        if not os.path.isdir(BREEZE):
            raise AssertionError("SDDM's Breeze theme is missing (make deps: sddm-theme-breeze)")
        report = self.session([{"op": "shot", "name": "breeze.xwd"}], theme="breeze")
        self.assertTrue(report["ready"], report["log"])
        image = self.shot("breeze.xwd")
        # Breeze drew its screen (not SDDM's black fallback after a theme error).
        self.assertLess(background_share(image, (0, 0, 1024, 768)), 0.9)
        self.assertIsNone(pad.committed_shot_differs(BREEZE_SHOT, image))


def sddm_grid_top(test, report):
    """The top row's y of the first grid the theme logged."""
    return int(test.logged(report, "grid ")[0].split()[1].split(",")[1])


if __name__ == "__main__":
    unittest.main()
