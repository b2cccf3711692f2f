"""The SDDM login screen with the pattern grid, at the real SDDM daemon run headless (support.sddm): the theme
installed by its package pam-pattern-sddm and turned on with the README's command, a throwaway user with a pattern, a
throwaway X session that writes a marker, and `quiet_services = sddm` set with the reference's command for SDDM
0.19 (each run is made once: a login SDDM 0.19 loses fails). The right drawing starts the session; a wrong one
does not, is counted once and shows red at the end of its attempt, and no word of the module reaches SDDM; the
password typed in the field starts the session (counting no pattern guess); a 3-dot drag is not sent. Each run
also turns the theme off again with the README's command and finds /etc as it was.
Root only; needs sddm and Xvfb (make deps)."""

import os
import unittest

from support import pad, sddm
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import ROOT

README_SHOT = os.path.join(ROOT, "docs", "sddm-login.png")

setUpModule = sddm.set_up_module

# What the daemon logs when the greeter asks it to log someone in.
LOGIN = "Message received from greeter: Login"


def light(pixel):
    return min(pixel) > 120


def red_words(image, centres):
    """How many pixels of the message's red words (#ff8080) are in the three lines above the grid."""
    spacing = centres[1][0] - centres[0][0]
    top = centres[0][1] - spacing // 2
    return sum(
        1
        for y in range(top - 75, top - 4)
        for x in range(centres[0][0] - 2 * spacing, centres[2][0] + 2 * spacing)
        if image.pixel(x, y)[0] > 170 and image.pixel(x, y)[0] - image.pixel(x, y)[1] > 50
    )


class LoginScreenTest(sddm.SddmCase):
    USER = "pphsddm1"
    PASSWORD = "Sddm-test-pw-42"
    FULL_NAME = "Alex Doe"

    def assertOnAndOff(self, report):
        """The on command wrote the one drop-in; the off command left /etc's files as they were."""
        self.assertEqual(report["on"][0], 0, report["on"][1])
        self.assertEqual(report["off"][0], 0, report["off"][1])
        self.assertEqual(report["etc_before"], {})
        self.assertEqual(list(report["etc_on"]), ["sddm.conf.d/pam-pattern.conf"])
        self.assertIn("\n[Theme]\nCurrent=pam-pattern\n", report["etc_on"]["sddm.conf.d/pam-pattern.conf"])
        self.assertEqual(report["etc_after"], report["etc_before"])

    def logins(self, report):
        """How many logins the daemon was asked for (its own log)."""
        return sum(1 for who, message in report["journal"] if who == "sddm" and message == LOGIN)

    def test_the_right_drawing_starts_the_session(self):
        report = self.session(
            [
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "until", "text": "logged in"},
                {"op": "marker"},
            ]
        )
        self.assertTrue(report["steps"][1]["found"], report["log"])
        self.assertEqual(len(report["steps"][2]["lines"]), 1, report["log"])
        self.assertTrue(report["steps"][2]["lines"][0].startswith(self.USER + " :"), report["steps"][2]["lines"])
        self.assertEqual(self.logged(report, "pattern sent"), ["pattern sent"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)
        self.assertOnAndOff(report)

    def test_a_wrong_drawing_is_counted_once_shows_red_and_starts_nothing(self):
        report = self.session(
            [
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "until", "text": "wrong pattern"},
                {"op": "shots", "name": "wrong", "count": 6, "every": 0.1},
                {"op": "until", "text": "attempt over", "timeout": 15},
                {"op": "sleep", "seconds": 1},
                {"op": "shot", "name": "after.xwd"},
            ]
        )
        self.assertTrue(report["steps"][1]["found"], report["log"])
        self.assertTrue(report["steps"][3]["found"], report["log"])
        self.assertEqual(self.logged(report, "no answer"), [])
        self.assertEqual(self.logged(report, "logged in"), [])
        self.assertEqual(report["marker"], [])
        self.assertEqual(self.sandbox.failures(self.USER), 1)
        self.assertEqual(self.logged(report, "wrong pattern"), ["wrong pattern"])
        self.assertEqual(self.logins(report), 1, report["log"])
        self.assertEqual(self.said_by_pam(report), [], "quiet_services = sddm: the module says nothing")
        centres, red_shot = self.assertWrongDrawingRedAWhile(report, WRONG_PATTERN)
        # The README's screenshot: the wrong drawing in red, the screen around it (a neutral name, no clock).
        spacing = centres[1][0] - centres[0][0]
        box = (
            centres[0][0] - 2 * spacing,
            centres[0][1] - 2 * spacing,
            centres[2][0] + 2 * spacing,
            centres[8][1] + spacing + 24,
        )
        self.assertIsNone(pad.committed_shot_differs(README_SHOT, red_shot.crop(*box)))
        self.assertOnAndOff(report)

    def test_the_typed_password_starts_the_session_and_counts_no_pattern_guess(self):
        report = self.session(
            [
                {"op": "type", "text": self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "until", "text": "logged in"},
                {"op": "marker"},
            ]
        )
        self.assertTrue(report["steps"][2]["found"], report["log"])
        self.assertEqual(len(report["steps"][3]["lines"]), 1, report["log"])
        self.assertTrue(report["steps"][3]["lines"][0].startswith(self.USER + " :"), report["steps"][3]["lines"])
        self.assertEqual(self.logged(report, "pattern sent"), [])
        self.assertEqual(self.sandbox.failures(self.USER), 0)
        # pam_pattern refused the password as a pattern without a word ("Not a pattern" would come first).
        self.assertEqual(self.said_by_pam(report), [], report["log"])

    def test_a_three_dot_drag_is_not_sent(self):
        report = self.session(
            [{"op": "drag", "path": [1, 2, 3]}, {"op": "until", "text": "shaken off"}, {"op": "sleep", "seconds": 2}]
        )
        self.assertEqual(self.logged(report, "shaken off"), ["shaken off 3"])
        self.assertEqual(self.logged(report, "pattern sent"), [])
        self.assertEqual(report["marker"], [])
        self.assertEqual(self.sandbox.failures(self.USER), 0)
        self.assertEqual(self.logins(report), 0, report["log"])

    def test_a_drawing_made_while_the_last_attempt_ends_is_sent_when_it_has(self):
        """SDDM ignores a login while one runs (after a wrong pattern pam_unix still takes its 2 s, without a word
        under quiet_services): the theme keeps a drawing made then and sends it once the attempt is over, not into
        the void, and does not paint the end of the wrong one red over it."""
        report = self.session(
            [
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                # Drawn quickly, and let go once the daemon has answered pam_unix's prompt: the wrong drawing's
                # attempt is then in pam_unix's delay (at least 1 s: libpam varies the 2 s by up to half).
                {"op": "drag", "path": pad.dots(PATTERN), "steps": 2, "pause": 0.02, "dwell": 0.05, "release": False},
                {"op": "until", "who": "sddm-helper", "text": "[PAM] Conversation with 1 messages", "count": 2},
                {"op": "release"},
                {"op": "until", "text": "logged in", "timeout": 30},
                {"op": "marker"},
            ]
        )
        self.assertTrue(report["steps"][2]["found"], report["log"])
        self.assertTrue(report["steps"][4]["found"], report["log"])
        self.assertEqual(self.logged(report, "pattern queued"), ["pattern queued"], report["log"])
        self.assertEqual(
            self.logged(report, "wrong pattern"), ["wrong pattern, not shown over a newer drawing"], report["log"]
        )
        self.assertEqual(self.logged(report, "no answer"), [])
        self.assertEqual(self.logged(report, "sent again"), [], report["log"])
        self.assertEqual(self.logins(report), 2, report["log"])
        self.assertEqual(len(report["steps"][5]["lines"]), 1, report["log"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)  # a success ends the run of failures


class FeedbackTest(sddm.SddmCase):
    """What the person sees after each answer, at the same screen."""

    USER = "sddmfeed1"
    PASSWORD = "Sddm-feed-pw-42"
    FULL_NAME = "Alex Doe"

    def test_a_three_dot_drag_shakes_the_grid_and_clears(self):
        report = self.session(
            [
                {"op": "drag", "path": [1, 2, 3]},
                {"op": "shots", "name": "shake", "count": 8, "every": 0.02},
                {"op": "sleep", "seconds": 1},
                {"op": "shot", "name": "after.xwd"},
            ]
        )
        centres = pad.grid_centres(self.logged(report, "grid")[-1])
        after = self.shot("after.xwd")
        # Every dot back at its place and plain (a lit dot is wider: read 1/10 of the spacing above its centre).
        spacing = centres[1][0] - centres[0][0]
        for x, y in centres:
            self.assertTrue(light(after.pixel(x, y)), "dot at %d,%d not drawn" % (x, y))
            self.assertFalse(light(after.pixel(x, y - spacing // 10)), "dot at %d,%d still lit" % (x, y))
        # Meanwhile the grid moved sideways: a dot outside the drag, dot 7, off its centre in some screenshot.
        x, y = centres[6]
        moved = [i for i in range(8) if not light(self.shot("shake-%d.xwd" % i).pixel(x, y))]
        self.assertTrue(moved, "the grid never shook")
        self.assertEqual(self.logged(report, "shaken off"), ["shaken off 3"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_wrong_password_after_a_wrong_drawing_says_so(self):
        """The wrong drawing's answer is shown; the typed password clears it, and its own answer is shown again in
        the same place (no old words standing for a new answer). PAM counted the drawing, not the password."""
        report = self.session(
            [
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "until", "text": "attempt over", "timeout": 15},
                {"op": "sleep", "seconds": 0.5},
                {"op": "shot", "name": "drawing.xwd"},
                {"op": "type", "text": "not-" + self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "until", "text": "password sent"},
                # A frame later (pam_unix takes 2 s to answer).
                {"op": "sleep", "seconds": 0.3},
                {"op": "shot", "name": "sent.xwd"},
                {"op": "until", "text": "wrong password", "timeout": 15},
                {"op": "sleep", "seconds": 0.5},
                {"op": "shot", "name": "password.xwd"},
            ]
        )
        self.assertTrue(self.step(report, "until", 2)["found"], report["log"])
        centres = pad.grid_centres(self.logged(report, "grid")[-1])
        said = [red_words(self.shot(name + ".xwd"), centres) for name in ("drawing", "sent", "password")]
        self.assertGreater(said[0], 20, "the wrong drawing's answer is not shown")
        self.assertEqual(said[1], 0, "the old answer stays while the password is checked")
        self.assertGreater(said[2], 20, "the wrong password's answer is not shown")
        self.assertEqual(self.logged(report, "wrong password"), ["wrong password"])
        # The grid stayed where it was from the first frame on, answers coming and going (the theme logs its place
        # again whenever it moves).
        self.assertEqual(len(set(self.logged(report, "grid"))), 1, self.logged(report, "grid"))
        self.assertEqual(report["marker"], [])
        self.assertEqual(self.sandbox.failures(self.USER), 1)


class NoPatternTest(sddm.SddmCase):
    """A user without a pattern: SDDM gives a theme no account state, so the grid is shown; a drawing is then not
    dropped without a word: it goes to pam_unix as a password and the screen says it failed."""

    USER = "sddmfeed2"
    PASSWORD = "Sddm-feed-pw-43"
    FULL_NAME = "Alex Doe"
    ENROL = False

    def test_a_drawing_says_it_failed(self):
        report = self.session(
            [
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "until", "text": "attempt over", "timeout": 15},
                {"op": "sleep", "seconds": 0.5},
                {"op": "shot", "name": "after.xwd"},
            ]
        )
        self.assertTrue(self.step(report, "until")["found"], report["log"])
        centres = pad.grid_centres(self.logged(report, "grid")[-1])
        self.assertGreater(red_words(self.shot("after.xwd"), centres), 20, "nothing said")
        self.assertEqual(self.logged(report, "logged in"), [])
        self.assertEqual(report["marker"], [])


class CommandsTest(unittest.TestCase):
    def test_the_reference_gives_the_commands_the_runs_use(self):
        with open(os.path.join(ROOT, "docs", "reference.md")) as f:
            reference = f.read()
        for command in (sddm.QUIET_ON_DOC, sddm.QUIET_OFF_DOC, "sudo " + sddm.ON, "sudo " + sddm.OFF):
            self.assertIn(command, reference)
