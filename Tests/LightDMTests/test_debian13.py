"""The LightDM greeter at Debian 13's lightdm, in the Debian 13 chroot (support.debian13) with pam-pattern and
pam-pattern-lightdm installed from this tree's packages by apt, the profile enabled, the greeter turned on with the
reference's command: the real daemon (headless, the X server Xvfb through support.lightdm's wrapper) in a private
mount, pid, uts and network namespace inside the chroot, driven by the same driver as the other LightDM tests. The
greeter shows the grid for the user; a wrong drawing is refused and counted once; the right one starts the session;
on a second start the typed password starts it. Root only; needs debootstrap (make deps)."""

import json
import os
import shlex
import time
import unittest

from support import debian13, debs, lightdm, screen, surfaces
from support.helper import PATTERN, WRONG_PATTERN

USER = "lightdm13"
FULL_NAME = "Lee Trixie"
PASSWORD = "Lightdm-13-pw-42"
WORK = "/srv/pp-lightdm"  # inside the chroot (its /tmp is the daemon's own, X's lock files)
DRIVER = surfaces.driver("lightdm")


setUpModule = debian13.set_up_module


def dot_drawn(image, dot):
    x, y = lightdm.dot_centre(dot)
    return image.pixel(x, y) != image.pixel(x + lightdm.SPACING // 2, y + lightdm.SPACING // 2)


class Debian13LightDMTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.started = time.monotonic()
        built = debs.built()
        cls.base, cls.deb = built[debs.BASE], built[debs.LIGHTDM]
        ns = cls.ns = debian13.Debian13()
        try:
            ns.share(os.path.dirname(cls.deb))
            ns.run(["apt-get", "install", "-y", "--no-install-recommends", cls.base, cls.deb], timeout=300)
            ns.run(["useradd", "-m", "-s", "/bin/sh", "-c", FULL_NAME, USER])
            ns.run(["chpasswd"], input="%s:%s\n" % (USER, PASSWORD))
            ns.run(["pam-auth-update", "--enable", "pattern", "pattern-reset"])
            ns.run(["patternctl", "set", USER], input="%s\n%s\n" % (PATTERN, PATTERN))
            cls.lightdm_version = ns.run(["dpkg-query", "-W", "-f", "${Version}", "lightdm"]).stdout
            # support.lightdm's X server wrapper, marker session and settings (users listed: Debian hides them).
            os.makedirs(ns.path(WORK + "/sessions"))
            os.makedirs(ns.path(WORK + "/marker"))
            for directory, mode in ((WORK, 0o755), (WORK + "/sessions", 0o755), (WORK + "/marker", 0o777)):
                os.chmod(ns.path(directory), mode)
            for name, text in (
                ("xserver.sh", lightdm.XSERVER),
                ("session.sh", lightdm.SESSION_SCRIPT % {"marker": WORK + "/marker/marker"}),
            ):
                with open(ns.path("%s/%s" % (WORK, name)), "w") as f:
                    f.write(text)
                os.chmod(ns.path("%s/%s" % (WORK, name)), 0o755)
            with open(ns.path(WORK + "/sessions/%s.desktop" % lightdm.SESSION_KEY), "w") as f:
                f.write("[Desktop Entry]\nName=Marker desktop\nExec=%s/session.sh\nType=Application\n" % WORK)
            settings = lightdm.SETTINGS % {
                "sessions": WORK + "/sessions",
                "xserver": WORK + "/xserver.sh",
                "session": lightdm.SESSION_KEY,
                "seat": "greeter-hide-users=false\n",
            }
            with open(ns.path("/usr/share/lightdm/lightdm.conf.d/99-pp-test.conf"), "w") as f:
                f.write(settings)
        except BaseException:
            ns.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.ns.close()
        print(
            "\nLightDMTests on Debian 13 (lightdm %s): %.0f s" % (cls.lightdm_version, time.monotonic() - cls.started)
        )

    def session(self, steps):
        """Runs the driver at a fresh daemon in the chroot; its report."""
        ns = self.ns
        for name in ("logs", "run", "etc_upper"):
            ns.run(["rm", "-rf", "%s/%s" % (WORK, name)])
            ns.run(["mkdir", "-m", "0755", "%s/%s" % (WORK, name)])
        ns.run(["rm", "-f", WORK + "/marker/marker"])
        as_user = ["setpriv", "--reuid=" + USER, "--regid=" + USER, "--clear-groups"]
        job = lightdm.driver_job(steps, WORK, as_user)
        # The daemon's own /run (its sockets, the system bus's) and /tmp (X's lock files) in namespaces of its own:
        # the kernel ends every process started there when the driver ends; `hostname` names only that uts
        # namespace. Without LC_ALL=C, xprop writes the caption's words as UTF-8.
        script = (
            "mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -p /run/lock /run/dbus && "
            "mount -t tmpfs -o mode=1777 tmpfs /tmp && unset LC_ALL && exec python3 -c %s %s"
        ) % (
            shlex.quote(DRIVER),
            shlex.quote(json.dumps(job)),
        )
        argv = ["unshare", "--mount", "--pid", "--uts", "--net", "--fork", "--kill-child", "--mount-proc"]
        done = ns.run(argv + ["--propagation", "private", "sh", "-c", script], check=False, timeout=180)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout)
        self.assertEqual(report["on"][0], 0, report["on"][1])
        self.assertTrue(report["ready"], "no greeter:\n%s\n%s" % (report["log"][-3000:], report["greeter_log"][-2000:]))
        return report

    def test_the_grid_shows_a_wrong_drawing_is_counted_once_and_the_right_one_starts_the_session(self):
        report = self.session(
            [
                {"op": "select", "name": FULL_NAME},
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "shot", "name": "grid.xwd"},
                {"op": "drag", "path": [int(d) for d in WRONG_PATTERN]},
                {"op": "caption", "until": "Wrong pattern"},
                {"op": "sleep", "seconds": 1.5},
                {"op": "run", "argv": ["patternctl", "status", USER]},
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "drag", "path": [int(d) for d in PATTERN]},
                {"op": "marker"},
            ]
        )
        shown = report["steps"][1]["text"] or ""
        self.assertEqual(shown.split("\n")[0], FULL_NAME, report["greeter_log"][-2000:])
        self.assertIn("Draw your pattern", shown)
        with open(self.ns.path(WORK + "/grid.xwd"), "rb") as f:
            image = screen.parse_xwd(f.read())
        self.assertTrue(all(dot_drawn(image, dot) for dot in range(1, 10)), "the nine dots are not drawn")
        self.assertIn("Wrong pattern", report["steps"][4]["text"] or "")
        status = report["steps"][6]["stdout"]
        self.assertRegex(status, r"(?m)^failures: 1\b", status)
        self.assertEqual(report["steps"][9]["lines"], ["%s :50" % USER], report["log"][-3000:])

    def test_the_typed_password_starts_the_session(self):
        report = self.session(
            [
                {"op": "select", "name": FULL_NAME},
                {"op": "caption", "until": "Draw your pattern"},
                {"op": "type", "text": PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "marker"},
            ]
        )
        self.assertEqual(report["steps"][4]["lines"], ["%s :50" % USER], report["log"][-3000:])


if __name__ == "__main__":
    unittest.main()
