"""The LightDM greeter that draws, at the real LightDM daemon run headless (support.lightdm): the greeter
installed as its package puts it and turned on with the reference's command, a throwaway user with a pattern, a
throwaway X session that writes a marker and stays. The greeter shows the grid for the user; the right drawing
starts the session; a wrong one is refused and counted once; the typed password starts the session; a 3-dot drag
is never sent; a drag is read by Android's rules (a dot between two samples is taken). Root only; needs lightdm
and Xvfb (make deps)."""

import os
import unittest

from support import lightdm, pad, screen
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import ROOT

setUpModule = lightdm.set_up_module

# The reference's screenshots (docs/reference.md, "Logging in by drawing: LightDM"), made here from the real daemon.
LOGIN_SHOT = os.path.join(ROOT, "docs", "lightdm-login.png")
WRONG_SHOT = os.path.join(ROOT, "docs", "lightdm-wrong.png")


def dot_drawn(image, dot):
    """Dot 1..9's centre is drawn (differs from the background between dots)."""
    x, y = lightdm.dot_centre(dot)
    return image.pixel(x, y) != image.pixel(x + lightdm.SPACING // 2, y + lightdm.SPACING // 2)


class LoginScreenTest(lightdm.LightDMCase):
    USER = "lightdm1"
    PASSWORD = "Lightdm-test-pw-42"

    def test_the_grid_shows_and_the_right_drawing_starts_the_session(self):
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "shot", "name": "login.xwd"},
                {"op": "cpu", "seconds": 5},
                {"op": "drag", "path": [int(d) for d in PATTERN]},
                {"op": "marker"},
            ]
        )
        caption = report["steps"][1]["text"] or ""
        self.assertIn("Draw your pattern", caption, report["greeter_log"])
        # The machine's name at the top, the session to start at the bottom.
        self.assertIn(lightdm.HOSTNAME, caption)
        self.assertIn("Marker desktop", caption)
        image = screen.parse_xwd(self.read("login.xwd"))
        self.assertTrue(all(dot_drawn(image, dot) for dot in range(1, 10)), "the nine dots are not drawn")
        self.assertIsNone(pad.committed_shot_differs(LOGIN_SHOT, image))
        # Idle, the greeter polls the pointer ten times a second and draws nothing: well under 1 % of a core.
        idle = report["steps"][3]["share"]
        print("\nLightDM greeter idle CPU: %.2f %% of a core" % (100 * idle))
        self.assertLess(idle, 0.01)
        self.assertEqual(report["steps"][5]["lines"], ["%s :50" % self.USER], report["log"][-3000:])
        self.assertEqual(self.sandbox.failures(self.USER), 0)
        self.assertOnAndOff(report)

    def test_a_wrong_drawing_is_refused_and_counted_once(self):
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "drag", "path": [int(d) for d in WRONG_PATTERN]},
                {"op": "caption", "until": "Wrong pattern"},
                {"op": "shots", "name": "wrong", "count": 4, "every": 0.1},
                {"op": "sleep", "seconds": 2},
            ]
        )
        self.assertIn("Wrong pattern", report["steps"][3]["text"] or "", report["greeter_log"])
        first = lightdm.dot_centre(int(WRONG_PATTERN[0]))
        shots = [screen.parse_xwd(self.read("wrong-%d.xwd" % i)) for i in range(4)]
        red = [image for image in shots if screen.is_wrong_colour(image.pixel(*first))]
        self.assertTrue(red, "the wrong drawing is never red")
        self.assertIsNone(pad.committed_shot_differs(WRONG_SHOT, red[0]))
        self.assertEqual(report["marker"], [])
        self.assertEqual(self.sandbox.failures(self.USER), 1)

    def test_a_drawing_made_while_the_last_is_judged_is_judged_too(self):
        # The second drawing is released while PAM still hashes the first: it waits for the verdict (the daemon
        # judges one answer at a time), then goes to a new pattern prompt. Both are counted: none is lost.
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "drag", "path": [int(d) for d in WRONG_PATTERN], "steps": 1, "pause": 0.02},
                {"op": "drag", "path": [1, 2, 3, 6, 9], "steps": 1, "pause": 0.02},
                {"op": "sleep", "seconds": 6},
                {"op": "caption"},
            ]
        )
        self.assertEqual(self.sandbox.failures(self.USER), 2, report["steps"][5]["text"])
        self.assertEqual(report["marker"], [])

    def test_the_typed_password_starts_the_session(self):
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "type", "text": self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "marker"},
            ]
        )
        self.assertEqual(report["steps"][4]["lines"], ["%s :50" % self.USER], report["log"][-3000:])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_three_dot_drag_is_never_sent(self):
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "drag", "path": [1, 2, 3]},
                {"op": "caption", "until": "Too short"},
                {"op": "sleep", "seconds": 2},
            ]
        )
        self.assertIn("Too short", report["steps"][3]["text"] or "")
        # Sent, the daemon would have passed it to PAM (and pam_pattern counted it) or asked again.
        self.assertNotIn("Continue authentication", report["log"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)
        self.assertEqual(report["marker"], [])

    def test_a_jump_over_dots_takes_them_as_android_does(self):
        # 456378 drawn with one pointer jump per stroke (xdotool's mousemove: one motion event each), the first
        # overshooting: from 4 to a point past 6, where no dot is. Only a greeter that walks the segment between
        # two samples takes 5 and 6 (read at the samples alone it is 43578, wrong); 3 to 7 passes 5, taken already.
        self.sandbox.enrol(self.USER, "456378")
        x, y = lightdm.dot_centre(6)
        past_six = [x + lightdm.SPACING * 6 // 10, y]
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "drag", "path": [4, past_six, 3, 7, 8], "steps": 1, "pause": 0.05},
                {"op": "marker"},
            ]
        )
        self.assertEqual(report["steps"][3]["lines"], ["%s :50" % self.USER], report["log"][-3000:])
        self.assertEqual(self.sandbox.failures(self.USER), 0)


class HiddenUsersTest(lightdm.LightDMCase):
    USER = "lightdm4"
    PASSWORD = "Lightdm-test-pw-45"
    SEAT = "greeter-hide-users=true\n"

    def test_with_the_users_hidden_the_name_is_typed_then_the_pattern_drawn(self):
        report = self.session(
            [
                {"op": "caption", "until": "login:"},
                {"op": "type", "text": self.USER},
                {"op": "key", "name": "Return"},
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "drag", "path": [int(d) for d in PATTERN]},
                {"op": "marker"},
            ]
        )
        shown = report["steps"][0]["text"] or ""
        self.assertIn("login:", shown, report["greeter_log"])
        self.assertNotIn(self.FULL_NAME, shown, "a hidden user is listed")
        self.assertEqual(report["steps"][5]["lines"], ["%s :50" % self.USER], report["log"][-3000:])


class ReferenceTest(unittest.TestCase):
    def test_the_reference_gives_the_commands_the_tests_run(self):
        with open(os.path.join(ROOT, "docs", "reference.md")) as f:
            reference = f.read()
        for command in (lightdm.ON_DOC % "pam-pattern-greeter", lightdm.OFF_DOC):
            self.assertIn("    " + command + "   #", reference)


if __name__ == "__main__":
    unittest.main()
