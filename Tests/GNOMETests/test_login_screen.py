"""GDM's login screen with the pam_pattern extension: the real gnome-shell 43 in GDM's greeter mode
(`--mode=gdm`, as GDM starts it) under Xvfb, GDM's daemon stood in for (support/gdm_standin.py: no session to
reauthenticate, so the greeter opens one, and the REAL gdm-password PAM stack judges). The person types their
name (no AccountsService here: no user list), then a wrong drawing is refused, counted once and red, and the
right one drawn next is verified by the module. Without the extension the greeter shows no grid. Root only;
needs gnome-shell and Xvfb (make deps)."""

import os

from support import gnome, pad
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import ROOT

setUpModule = gnome.set_up_module

SHOTS = {"drawing": ROOT + "/docs/gnome-gdm-login.png", "wrong": ROOT + "/docs/gnome-gdm-login-wrong.png"}


class LoginScreenTest(gnome.GnomeCase):
    USER = "gnomegdm1"
    PASSWORD = "Gnome-gdm-pw-41"

    def login(self, steps, extension=True):
        return self.session(
            steps,
            extension=extension,
            greeter=True,
            steps_to_prompt=[{"op": "type", "text": self.USER}, {"op": "key", "name": "Return"}],
        )

    def test_a_wrong_drawing_is_counted_once_then_the_right_one_logs_in(self):
        report = self.login(
            [
                {"op": "shot", "name": "before.xwd"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "shots", "name": "wrong", "count": 6, "every": 0.1},
                {"op": "until", "text": "wrong pattern"},
                {"op": "sleep", "seconds": 1.5},
                {"op": "shot", "name": "after.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN), "shots_before_release": ["drawing.xwd"]},
                {"op": "until", "text": "unlocked"},
            ]
        )
        self.assertTrue(report["steps"][3]["found"], report["log"])
        self.assertEqual(len(self.logged(report, "message Wrong pattern. 4 tries left before a wait.")), 1)
        centres = pad.grid_centres(self.logged(report, "grid")[-1])
        red = pad.wrong_drawing_red_a_while(self, centres, self.shot, WRONG_PATTERN)
        # The message's lines are kept for it: the grid is where it was before the drawing.
        gnome.grid_stayed(self, gnome.grid_when_drawn(report), self.shot("before.xwd"), self.shot("after.xwd"))
        self.assertTrue(report["steps"][-1]["found"], report["log"])
        self.assertEqual(self.logged(report, "pattern sent"), ["pattern sent"] * 2)
        # The greeter's own session (no reauthentication), judged by the module: 1 failure, then the success.
        self.assertIn("session", report["standin"])
        self.assertIn("pam gdm-password %s 0" % self.USER, report["standin"])
        self.assertTrue(self.logged(report, "message 1 failed pattern attempt since your last success"), report["log"])
        # docs/reference.md's screenshots of the greeter, made anew on request.
        if os.environ.get("PAM_PATTERN_UPDATE_SCREENSHOT") == "1":
            pad.keep(SHOTS["drawing"], self.shot("drawing.xwd"))
            pad.keep(SHOTS["wrong"], red)

    def test_without_the_extension_there_is_no_grid(self):
        report = self.login([{"op": "sleep", "seconds": 1}], extension=False)
        self.assertEqual(self.logged(report, ""), [])
        self.assertIn("asked Pattern or password: ", report["standin"])
