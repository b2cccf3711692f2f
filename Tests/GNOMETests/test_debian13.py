"""GNOME Shell 48 (Debian 13) with the pam_pattern extension, in the Debian 13 chroot (support.debian13) with
pam-pattern and pam-pattern-gnome installed from this tree's packages by apt: the real gnome-shell 48 (`--x11
--replace`, which 48 still has) under Xvfb, run by an unprivileged user, GDM and logind stood in for
(support/gdm_standin.py, run by Debian 13's python3 as root: the REAL gdm-password PAM stack, the installed
pam_pattern in it), driven by xdotool, as Tests/GNOMETests do on 43. The shell loads the package's 48 directory
(an ES module made from the shared files) and not 43's. At the lock screen a wrong drawing is refused and counted
once, the right one unlocks; the held-back pattern's countdown runs on a grid that takes no drawing and the password
unlocks; at GDM's greeter (--mode=gdm) a wrong drawing is refused and the right one logs in. With the extension
not enabled the same drawing unlocks nothing. GNOME 48's default session, Wayland, in Shell48WaylandTest: the shell
as a headless Wayland compositor, its pointer driven through mutter's remote desktop D-Bus API
(support/gnome_remote.py). Root only; needs debootstrap (make deps). The suite prints its time.
"""

import json
import os
import sys
import time
import unittest

from support import debian13, debs, formats, gnome, pad, screen
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import ROOT

TESTS = os.path.join(ROOT, "Tests")
STANDIN = os.path.join(TESTS, "support", "gdm_standin.py")
STATE_DIR = "/var/lib/pam_pattern"
# One user per test: a test's failures and waits are its own.
USERS = {"wrong": "gnome48wr", "held": "gnome48hb", "greeter": "gnome48gd", "stock": "gnome48st"}
PASSWORD = "Gnome-48-pw-42"
SHOT = os.path.join(ROOT, "docs", "gnome-48-lock-screen-wrong.png")
STARTED = time.monotonic()


setUpModule = debian13.set_up_module


def tearDownModule():
    sys.stderr.write("GNOME Shell 48 (Debian 13) suite: %.0f s\n" % (time.monotonic() - STARTED))


class Debian13Shell(unittest.TestCase):
    """The chroot with the packages installed and a user per test (the class's USERS) with the password and pattern;
    session() runs the shell as one of them."""

    USERS = {}
    WAYLAND = False

    @classmethod
    def setUpClass(cls):
        built = debs.built()
        ns = cls.ns = debian13.Debian13()
        try:
            deb = built[debs.GNOME]
            ns.share(os.path.dirname(deb), read_only=True)
            ns.share(TESTS, read_only=True)
            ns.run(["apt-get", "install", "-y", "--no-install-recommends", built[debs.BASE], deb], timeout=300)
            ns.sh("printf '%%s\\n' %s > /etc/pam.d/gdm-password" % " ".join("'%s'" % l for l in gnome.GDM_PASSWORD))
            ns.run(["pam-auth-update", "--enable", "pattern"])
            # The shell locks only on a systemd system (misc/loginManager.js: /run/systemd/seats), as the host's
            # image has it; the chroot's /run is a fresh tmpfs.
            ns.run(["mkdir", "-p", "/run/systemd/seats"])
            for name in cls.USERS.values():
                ns.run(["useradd", "-m", "-s", "/bin/sh", name])
                ns.run(["chpasswd"], input="%s:%s\n" % (name, PASSWORD))
                ns.run(["patternctl", "set", name], input="%s\n%s\n" % (PATTERN, PATTERN))
        except BaseException:
            ns.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.ns.close()

    def session(self, user, steps, extension=True, greeter=False, steps_to_prompt=()):
        uid = int(self.ns.run(["id", "-u", user]).stdout)
        work = "/tmp/gnome48-" + user
        self.ns.run(["install", "-d", "-m", "0755", work])
        setpriv = ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups"]
        uuid = gnome.UUID_48 if extension else None
        job = gnome.shell_job(
            work, user, uid, setpriv, STANDIN, uuid, steps, greeter, steps_to_prompt, wayland=self.WAYLAND
        )
        done = self.ns.run(["python3", "-c", gnome.DRIVER, json.dumps(job)], check=False, timeout=240)
        self.assertEqual(done.returncode, 0, done.stderr[-3000:])
        report = json.loads(done.stdout)
        self.work = work
        self.assertTrue(report["locked"], "the shell did not lock:\n%s\n%s" % (report["log"], report["standin"]))
        self.assertTrue(report["ready"], "no prompt came:\n%s\n%s" % (report["log"][-4000:], report["standin"]))
        return report

    def shot(self, name):
        with open(self.ns.path(os.path.join(self.work, name)), "rb") as f:
            return screen.parse_xwd(f.read())

    def step(self, report, op, index=0):
        found = [s for s in report["steps"] if s["op"] == op]
        self.assertGreater(len(found), index, "no %s step in %r" % (op, report["steps"]))
        return found[index]

    def failures(self, user):
        return formats.failures(self.ns.path(STATE_DIR), user)


class Shell48Test(Debian13Shell):
    USERS = USERS

    def test_a_wrong_drawing_is_counted_once_then_the_right_one_unlocks(self):
        user = USERS["wrong"]
        report = self.session(
            user,
            [
                {"op": "shot", "name": "before.xwd"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "shots", "name": "wrong", "count": 6, "every": 0.1},
                {"op": "until", "text": "wrong pattern"},
                {"op": "active"},
                {"op": "sleep", "seconds": 1.5},
                {"op": "shot", "name": "after.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN), "shots_before_release": ["drawing.xwd"]},
                {"op": "until_unlocked"},
            ],
        )
        self.assertTrue(self.step(report, "until")["found"], report["log"][-4000:])
        self.assertTrue(self.step(report, "active")["active"], "unlocked by a wrong drawing")
        self.assertEqual(len(gnome.logged(report, "message Wrong pattern. 4 tries left before a wait.")), 1)
        self.assertIn("problem Wrong pattern. 4 tries left before a wait.", " | ".join(report["standin"]))
        # Where the grid was before the right drawing was sent (the dialog leaves once unlocked).
        said = gnome.logged(report, "")
        before_right = len(said) - said[::-1].index("pattern sent") - 1
        centres = pad.grid_centres([line for line in said[:before_right] if line.startswith("grid ")][-1])
        red = pad.wrong_drawing_red_a_while(self, centres, self.shot, WRONG_PATTERN)
        # The message's lines are kept for it: the grid is where it was before the drawing.
        gnome.grid_stayed(self, gnome.grid_when_drawn(report), self.shot("before.xwd"), self.shot("after.xwd"))
        self.assertTrue(self.step(report, "until_unlocked")["unlocked"], report["log"][-4000:])
        self.assertEqual(gnome.logged(report, "pattern sent"), ["pattern sent"] * 2)
        self.assertIn("pam gdm-password %s 0" % user, report["standin"])
        self.assertEqual(self.failures(user), 0)
        # docs/reference.md's screenshot of 48's lock screen, made anew on request.
        if os.environ.get("PAM_PATTERN_UPDATE_SCREENSHOT") == "1":
            pad.keep(SHOT, red)

    def test_the_countdown_runs_on_a_grid_that_takes_no_drawing_and_the_password_unlocks(self):
        user = USERS["held"]
        formats.write_state(self.ns.path(STATE_DIR), user, 5, int(time.time()))
        report = self.session(
            user,
            [
                {"op": "until", "text": "countdown", "count": 2},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "sleep", "seconds": 1},
                {"op": "type", "text": PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "until_unlocked"},
            ],
        )
        self.assertTrue(report["steps"][0]["found"], report["log"][-4000:])
        counts = [int(line.split()[1]) for line in gnome.logged(report, "countdown")]
        self.assertEqual(counts[:2], [counts[0], counts[0] - 1], counts)
        self.assertEqual(gnome.logged(report, "pattern sent"), [])
        self.assertTrue(report["steps"][-1]["unlocked"], report["log"][-4000:])
        self.assertIn("pam gdm-password %s 0" % user, report["standin"])
        self.assertEqual(self.failures(user), 5, "the drawing on the held-back grid was counted")

    def test_at_gdms_greeter_a_wrong_drawing_is_refused_then_the_right_one_logs_in(self):
        user = USERS["greeter"]
        report = self.session(
            user,
            [
                {"op": "shot", "name": "before.xwd"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "until", "text": "wrong pattern"},
                {"op": "sleep", "seconds": 1.5},
                {"op": "shot", "name": "after.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "until", "text": "unlocked"},
            ],
            greeter=True,
            steps_to_prompt=[{"op": "type", "text": user}, {"op": "key", "name": "Return"}],
        )
        self.assertTrue(report["steps"][2]["found"], report["log"][-4000:])
        self.assertEqual(len(gnome.logged(report, "message Wrong pattern. 4 tries left before a wait.")), 1)
        # The message's lines are kept for it: the grid is where it was before the drawing.
        gnome.grid_stayed(self, gnome.grid_when_drawn(report), self.shot("before.xwd"), self.shot("after.xwd"))
        self.assertTrue(report["steps"][-1]["found"], report["log"][-4000:])
        self.assertIn("session", report["standin"])
        self.assertIn("pam gdm-password %s 0" % user, report["standin"])
        self.assertEqual(self.failures(user), 0)

    def test_without_the_extension_a_drawing_unlocks_nothing(self):
        user = USERS["stock"]
        centres = [(431 + 80 * ((d - 1) % 3), 493 + 80 * ((d - 1) // 3)) for d in pad.dots(PATTERN)]
        report = self.session(
            user, [{"op": "drag_at", "path": centres}, {"op": "until_unlocked", "timeout": 5}], extension=False
        )
        self.assertFalse(report["steps"][-1]["unlocked"])
        self.assertEqual(gnome.logged(report, ""), [])
        self.assertNotIn("pam gdm-password %s 0" % user, report["standin"])


class Shell48WaylandTest(Debian13Shell):
    """GNOME 48's default session: the shell as a headless Wayland compositor (no X server), the pointer moved and
    pressed through mutter's own remote desktop D-Bus API, the screenshots the shell's own (PNG)."""

    USERS = {"wrong": "gnome48wl"}
    WAYLAND = True

    def shot(self, name):
        return screen.read_png(self.ns.path(os.path.join(self.work, "runtime", os.path.splitext(name)[0] + ".png")))

    def test_on_wayland_a_wrong_drawing_is_counted_once_then_the_right_one_unlocks(self):
        user = self.USERS["wrong"]
        report = self.session(
            user,
            [
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "shots", "name": "wrong", "count": 6, "every": 0.1},
                {"op": "until", "text": "wrong pattern"},
                {"op": "active"},
                {"op": "sleep", "seconds": 1.5},
                {"op": "shot", "name": "after.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "until_unlocked"},
            ],
        )
        self.assertIn("as a Wayland display server", report["log"])
        pad.wrong_drawing_red_a_while(self, gnome.grid_when_drawn(report), self.shot, WRONG_PATTERN)
        self.assertTrue(self.step(report, "until")["found"], report["log"][-4000:])
        self.assertTrue(self.step(report, "active")["active"], "unlocked by a wrong drawing")
        self.assertEqual(len(gnome.logged(report, "message Wrong pattern. 4 tries left before a wait.")), 1)
        self.assertTrue(self.step(report, "until_unlocked")["unlocked"], report["log"][-4000:])
        self.assertEqual(gnome.logged(report, "pattern sent"), ["pattern sent"] * 2)
        self.assertIn("pam gdm-password %s 0" % user, report["standin"])
        self.assertEqual(self.failures(user), 0)


if __name__ == "__main__":
    unittest.main()
