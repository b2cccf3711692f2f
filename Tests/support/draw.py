"""The drawing window of `patternctl set --draw` (pattern-draw) under Xvfb: the built patternctl run by a
throwaway user in support.pad's namespace (the setuid helper, the store and pattern-draw at their installed
paths, the shipped /etc/pam.d/patternctl for the account password), driven by xdotool like the pad.

A session (DrawCase.session) is one JSON job for DRIVER, run in the namespace as root: Xvfb -displayfd, then
per step `start` (patternctl set --draw as the user), `drag` (a path of dots or [x, y] points), `down`, `glide`
and `up` (a drag in parts: what the window shows while the button is held), `click` (a point), `type`, `key`,
`caption` (the window's words: it names its drawing area with them, as the pad does), `shot` (xwd), `failures`
(the user's throttle state) and `wait` (patternctl's exit status).
"""

import os
import shutil

from support import pad, surfaces
from support.formats import state_file
from support.paths import PATTERNCTL, ROOT, require_built
from support.system import setpriv_argv

# DrawLoop's window (no window manager: it sits at the root's top left) and PadLayout's grid inside it, with
# DrawLoop's spacing (its dots are taken within 3/10 of it: HIT_RADIUS).
WINDOW = (520, 740)
SPACING = 100
HIT_RADIUS = SPACING * 3 // 10
CENTRE = (WINDOW[0] // 2, WINDOW[1] // 2 - SPACING // 3)


def dot_centre(dot):
    return CENTRE[0] + ((dot - 1) % 3 - 1) * SPACING, CENTRE[1] + ((dot - 1) // 3 - 1) * SPACING


def password_button_centre():
    """Where "Use password instead" is (DrawRenderer.passwordButton: its text size is a sixth of the spacing)."""
    text = max(14, SPACING // 6)
    height = text * 5 // 2
    return WINDOW[0] // 2, WINDOW[1] - text - height + height // 2


def set_up_module():
    require_built(pad.DRAW, PATTERNCTL)
    pad.set_up_module()


# The surface's test driver (Sources/Surfaces/draw/driver.py), one script with the shared parts in place.
DRIVER = surfaces.driver("draw")


class DrawCase(pad.PadCase):
    """A throwaway USER with PASSWORD (enrolled with helper.PATTERN unless ENROL is False) in support.pad's
    namespace with /etc/pam.d/patternctl as shipped; `session` runs the window's steps."""

    SERVICES = {"patternctl": open(os.path.join(ROOT, "pam.d", "patternctl")).read().splitlines()}

    def setUp(self):
        super().setUp()
        # The build directory need not be the user's to read: patternctl is copied beside the drivers.
        self.patternctl = os.path.join(self.sandbox.root, "patternctl")
        shutil.copyfile(PATTERNCTL, self.patternctl)
        os.chmod(self.patternctl, 0o755)

    def session(self, steps, env=None, timeout=240):
        job = {
            "root": self.sandbox.root,
            "screen": list(pad.SCREEN),
            "spacing": SPACING,
            "centre": list(CENTRE),
            "user": self.user.name,
            "home": "/home/" + self.user.name,
            "setpriv": setpriv_argv(self.user),
            "patternctl": self.patternctl,
            "steps": steps,
            "env": env or {},
            "state_file": state_file("/var/lib/pam_pattern", self.user.name),
        }
        report = self.run_driver("draw", DRIVER, job, timeout)
        report["patternctl_log"] = self.read("patternctl.log").decode(errors="replace")
        return report

    def window_shot(self, name):
        """The window's part of a screenshot."""
        return self.shot(name).crop(0, 0, WINDOW[0], WINDOW[1])
