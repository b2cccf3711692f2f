"""GNOME Shell 43's lock screen with the pam_pattern extension, at the real shell (gnome-shell --x11 --replace)
under Xvfb, run by an unprivileged user, locked over D-Bus; GDM and logind stood in for, the REAL gdm-password
PAM stack run as root by the stand-in as GDM's worker does, so what is judged is judged by the module. A wrong
drawing is refused, counted once and shows red, and the right one drawn next unlocks (GetActive false); a 3-dot
drag is shaken off and not sent, and the typed password still unlocks, counting nothing; a pattern held back
shows its countdown on a dimmed grid that takes no drawing, and the password unlocks. The stock lock screen
(the extension installed but not enabled) takes no drawing at all: each check here fails without the extension.
Root only; needs gnome-shell and Xvfb (make deps)."""

import time

from support import formats, gnome, pad
from support.helper import PATTERN, WRONG_PATTERN

setUpModule = gnome.set_up_module


class LockScreenTest(gnome.GnomeCase):
    USER = "gnomels1"
    PASSWORD = "Gnome-test-pw-41"

    def test_a_wrong_drawing_is_counted_once_then_the_right_one_unlocks(self):
        report = self.session(
            [
                {"op": "shot", "name": "before.xwd"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "shots", "name": "wrong", "count": 6, "every": 0.1},
                {"op": "until", "text": "wrong pattern"},
                {"op": "active"},
                {"op": "sleep", "seconds": 1.5},
                {"op": "shot", "name": "after.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "until_unlocked"},
            ]
        )
        self.assertTrue(self.step(report, "until")["found"], report["log"])
        self.assertTrue(self.step(report, "active")["active"], "unlocked by a wrong drawing")
        messages = self.logged(report, "message Wrong pattern. 4 tries left before a wait.")
        self.assertEqual(len(messages), 1, self.logged(report, "message"))
        # Judged by the module, once: a failed run, then the run the right drawing unlocked.
        self.assertIn("problem Wrong pattern. 4 tries left before a wait.", " | ".join(report["standin"]))
        # Where the grid was once the module's message had come (the dialog, centred, grows by its lines).
        said = self.logged(report, "")
        before_right = len(said) - said[::-1].index("pattern sent") - 1
        centres = pad.grid_centres([line for line in said[:before_right] if line.startswith("grid ")][-1])
        pad.wrong_drawing_red_a_while(self, centres, self.shot, WRONG_PATTERN)
        # The message's lines are kept for it: the grid is where it was before the drawing.
        gnome.grid_stayed(self, gnome.grid_when_drawn(report), self.shot("before.xwd"), self.shot("after.xwd"))
        self.assertTrue(self.step(report, "until_unlocked")["unlocked"], report["log"])
        self.assertEqual(self.logged(report, "pattern sent"), ["pattern sent"] * 2)
        self.assertIn("pam gdm-password %s 0" % self.USER, report["standin"])
        # The count the wrong drawing left (1) was cleared by the success, which the module said it saw.
        self.assertTrue(self.logged(report, "message 1 failed pattern attempt since your last success"), report["log"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_short_drag_is_not_sent_and_the_password_unlocks(self):
        report = self.session(
            [
                {"op": "drag", "path": [1, 2, 3]},
                {"op": "until", "text": "shaken off"},
                {"op": "sleep", "seconds": 1},
                {"op": "type", "text": self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "until_unlocked"},
            ]
        )
        self.assertEqual(self.logged(report, "shaken off"), ["shaken off 3"])
        self.assertEqual(self.logged(report, "pattern sent"), [])
        self.assertTrue(self.step(report, "until_unlocked")["unlocked"], report["log"])
        # The profile's one prompt (forward_non_pattern) takes the typed password: handed on to pam_unix, typed once.
        self.assertEqual([l for l in report["standin"] if l.startswith("asked")], ["asked Pattern or password: "])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def step(self, report, op):
        found = [s for s in report["steps"] if s["op"] == op]
        self.assertTrue(found, "no %s step in %r" % (op, report["steps"]))
        return found[0]


class HeldBackTest(gnome.GnomeCase):
    """The pattern held back (5 failures a moment ago): the grid dimmed, its countdown in the module's words,
    live; a drawing on it is not sent; the password unlocks."""

    USER = "gnomels2"
    PASSWORD = "Gnome-test-pw-42"

    def test_the_countdown_runs_on_a_dimmed_grid_and_the_password_unlocks(self):
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.session(
            [
                {"op": "until", "text": "countdown", "count": 2},
                {"op": "shot", "name": "locked.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "sleep", "seconds": 1},
                {"op": "type", "text": self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "until_unlocked"},
            ]
        )
        self.assertTrue(report["steps"][0]["found"], report["log"])
        self.assertTrue(self.logged(report, "locked for "), report["log"])
        counts = [int(line.split()[1]) for line in self.logged(report, "countdown")]
        self.assertEqual(counts[:2], [counts[0], counts[0] - 1], counts)
        self.assertEqual(self.logged(report, "pattern sent"), [])
        self.assertTrue(report["steps"][-1]["unlocked"], report["log"])
        centres = pad.grid_centres(self.logged(report, "grid")[-1])
        image = self.shot("locked.xwd")
        # Dimmed: each dot is there, but faint against the dialog's background.
        lightness = [sum(image.pixel(*c)) // 3 for c in centres]
        background = sum(image.pixel(centres[0][0] + 30, centres[0][1])) // 3
        self.assertTrue(all(background < v < background + 80 for v in lightness), (lightness, background))


class StockLockScreenTest(gnome.GnomeCase):
    """Without the extension: no grid, and the same drawing at the same place unlocks nothing."""

    USER = "gnomels3"
    PASSWORD = "Gnome-test-pw-43"

    def test_a_drawing_unlocks_nothing(self):
        centres = [(431 + 80 * ((d - 1) % 3), 493 + 80 * ((d - 1) // 3)) for d in pad.dots(PATTERN)]
        report = self.session(
            [{"op": "drag_at", "path": centres}, {"op": "until_unlocked", "timeout": 5}], extension=False
        )
        self.assertFalse(report["steps"][-1]["unlocked"])
        self.assertEqual(self.logged(report, ""), [])
        self.assertNotIn("pam gdm-password %s 0" % self.USER, report["standin"])
