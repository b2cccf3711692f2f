"""The LightDM greeter's corner and header (support.lightdm): shut down, restart and sleep are liblightdm's calls,
which go to logind over the system bus (a stand-in, support/login1_stub.py, answers CanPowerOff, CanReboot and
CanSuspend and records PowerOff, Reboot and Suspend); a button shows only when logind says "yes", and a press on it
makes its call. At the top: the machine's name, the time and the date, and the keyboard layout. Root only; needs
lightdm, Xvfb and python3-gi (make deps)."""

import os
import re
import time
import unittest

from support import lightdm
from support.paths import ROOT

setUpModule = lightdm.set_up_module

STUB = os.path.join(ROOT, "Tests", "support", "login1_stub.py")
# The corner's row (the labels' baseline two text sizes above the bottom, PadRenderer.cornerPlaces), pressed every
# 10 px from the right edge to the middle: each button (all wider than that) and where a hidden one would be.
TEXT = max(14, lightdm.SPACING // 6)
ROW = lightdm.SCREEN[1] - TEXT * 2 - TEXT // 3
SWEEP = {"op": "taps", "from": [lightdm.SCREEN[0] - 4, ROW], "to": [lightdm.SCREEN[0] // 2 + 100, ROW], "every": 10}


def calls(log):
    """The power calls made, in order, a run of presses on one button counted once."""
    made = [line for line in log.splitlines() if line in ("PowerOff", "Reboot", "Suspend")]
    return [call for i, call in enumerate(made) if i == 0 or made[i - 1] != call]


class PowerTest(lightdm.LightDMCase):
    USER = "lightdm5"
    PASSWORD = "Lightdm-test-pw-46"

    def session_with_login1(self, can, steps):
        """The steps with the stand-in answering CanPowerOff, CanReboot, CanSuspend with `can`; (report, its log)."""
        log = os.path.join(self.sandbox.root, "login1.log")
        open(log, "w").close()
        report = self.session(steps, services=[["/usr/bin/python3", STUB, log, *can]])
        self.assertEqual(report.get("services"), ["ready"], report["log"][-2000:])
        with open(log) as f:
            return report, f.read()

    def test_each_button_calls_logind(self):
        report, log = self.session_with_login1(
            ("yes", "yes", "yes"),
            [self.select_user(), {"op": "caption", "until": ["Shut Down", "Restart", "Sleep"]}, SWEEP],
        )
        caption = report["steps"][1]["text"] or ""
        for label in ("Shut Down", "Restart", "Sleep"):
            self.assertIn("\n" + label, caption, report["greeter_log"][-2000:])
        for asked in ("CanPowerOff", "CanReboot", "CanSuspend"):
            self.assertIn(asked, log.splitlines())
        # Right to left: shut down, restart, sleep.
        self.assertEqual(calls(log), ["PowerOff", "Reboot", "Suspend"], log)

    def test_a_button_logind_says_no_to_is_hidden_and_calls_nothing(self):
        report, log = self.session_with_login1(
            ("yes", "no", "no"),
            [self.select_user(), {"op": "caption", "until": "Shut Down"}, {"op": "shot", "name": "corner.xwd"}, SWEEP],
        )
        caption = report["steps"][1]["text"] or ""
        self.assertIn("\nShut Down", caption, report["greeter_log"][-2000:])
        self.assertNotIn("Restart", caption)
        self.assertNotIn("Sleep", caption)
        self.assertEqual(calls(log), ["PowerOff"], log)
        # Drawn: one label in the corner's row, nothing left of it but the background.
        image = self.shot("corner.xwd")
        background = image.pixel(lightdm.SCREEN[0] // 2 + 100, ROW)
        drawn = [
            x
            for x in range(lightdm.SCREEN[0] // 2 + 100, lightdm.SCREEN[0])
            if any(image.pixel(x, y) != background for y in range(ROW - TEXT, ROW + TEXT // 2))
        ]
        self.assertTrue(drawn, "no button drawn")
        # "Shut Down" alone: its text spans less than a third of the row the three would take.
        self.assertGreater(min(drawn), lightdm.SCREEN[0] - 12 * TEXT, "more than one button drawn")


class HeaderTest(lightdm.LightDMCase):
    USER = "lightdm6"
    PASSWORD = "Lightdm-test-pw-47"

    def test_the_machine_the_time_the_date_and_the_layout_are_drawn_at_the_top(self):
        report = self.session(
            [self.select_user(), {"op": "caption", "until": lightdm.HOSTNAME}, {"op": "shot", "name": "top.xwd"}]
        )
        seen = time.time()
        caption = report["steps"][1]["text"] or ""
        header = [line for line in caption.split("\n") if line.startswith(lightdm.HOSTNAME)]
        self.assertEqual(len(header), 1, caption)
        # The greeter's locale is C.UTF-8 here: "%R   %A %x" (pattern_pad_clock), then the layout X reports.
        found = re.fullmatch(re.escape(lightdm.HOSTNAME) + r"   (\d\d:\d\d)   (\w+) (\S+)   (\S+)", header[0])
        self.assertIsNotNone(found, header[0])
        shown = [time.strftime("%H:%M %A %x", time.localtime(seen - back)) for back in range(0, 120, 30)]
        self.assertIn("%s %s %s" % found.group(1, 2, 3), shown)
        # Xvfb's layout is us, whose short description (what liblightdm gives) is "en".
        self.assertEqual(found.group(4), "en")
        # Drawn: the header's line across the top, centred.
        image = self.shot("top.xwd")
        background = image.pixel(4, 4)
        drawn = [
            x
            for x in range(lightdm.SCREEN[0])
            if any(image.pixel(x, y) != background for y in range(TEXT, TEXT * 2 + TEXT // 3))
        ]
        self.assertTrue(drawn, "nothing drawn at the top")
        self.assertLess(abs((min(drawn) + max(drawn)) // 2 - lightdm.SCREEN[0] // 2), TEXT, "not centred")
        self.assertGreater(max(drawn) - min(drawn), len(header[0]) * TEXT // 3, "the line is too short for its words")


if __name__ == "__main__":
    unittest.main()
