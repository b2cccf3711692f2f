"""Turning the KDE lock screen on and off for one person, and for everyone, with the README's commands
(plasma5-lock-screen on|off [--everyone], the real one of the tree, which sets kscreenlockerrc's [Greeter] Theme
with the real kwriteconfig5, the person's or /etc/xdg's): on, the greeter that reads the configuration (no --theme,
as a real lock) shows the grid and the right drawing unlocks; off, every configuration file is as it was before,
byte for byte, and a file that did not exist before is gone again. The theme is installed where the package puts
it (an overlay on /usr/share/plasma/look-and-feel)."""

import json
import os
import shlex
import tempfile
import unittest

from support import kde, pad
from support.helper import PATTERN
from support.paths import BUILD, ROOT, run
from support.system import setpriv_argv

# Plasma 6's on/off command in the tree (Sources/Surfaces/kde/package.list).
COMMAND_SOURCE = "Sources/Surfaces/kde/ui/plasma6-lock-screen"

setUpModule = kde.set_up_module


def configuration(home):
    """Every file under ~/.config: {relative path: bytes}."""
    found = {}
    for directory, _, files in os.walk(os.path.join(home, ".config")):
        for name in files:
            path = os.path.join(directory, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, home)] = f.read()
    return found


class TurnOnOffTest(kde.KdeCase):
    USER = "pphkde2"
    PASSWORD = "Kde-test-pw-43"

    def as_person(self, argv):
        env = {"PATH": "/usr/bin:/bin", "HOME": self.home, "USER": self.USER}
        done = run(setpriv_argv(self.user) + argv, env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.decode()

    def test_on_then_off_changes_only_the_lock_screen(self):
        self.home = "/home/" + self.USER
        os.makedirs(os.path.join(self.home, ".config"), exist_ok=True)
        existing = os.path.join(self.home, ".config", "kscreenlockerrc")
        with open(existing, "w") as f:
            f.write("[Daemon]\nTimeout=7\n")  # a setting of the person's own, which must survive
        os.chown(existing, self.user.uid, self.user.uid)
        os.chown(os.path.join(self.home, ".config"), self.user.uid, self.user.uid)
        before = configuration(self.home)

        self.as_person(kde.ON)
        on = configuration(self.home)
        self.assertEqual(set(on), set(before), "the on command made or removed a configuration file")
        changed = [name for name in on if on[name] != before[name]]
        self.assertEqual(changed, [".config/kscreenlockerrc"])
        read = ["kreadconfig5", "--file", "kscreenlockerrc", "--group"]
        self.assertEqual(self.as_person(read + ["Greeter", "--key", "Theme"]).strip(), kde.THEME_ID)
        self.assertEqual(self.as_person(read + ["Daemon", "--key", "Timeout"]).strip(), "7")

        report = self.session(
            [{"op": "drag", "path": pad.dots(PATTERN)}, {"op": "until", "text": "unlocked"}], configured=True
        )
        self.assertTrue(report["steps"][1]["found"], report["log"])

        self.as_person(kde.OFF)
        self.assertEqual(configuration(self.home), before)

    def test_off_removes_the_file_on_made(self):
        self.home = "/home/" + self.USER
        os.makedirs(os.path.join(self.home, ".config"), exist_ok=True)
        os.chown(os.path.join(self.home, ".config"), self.user.uid, self.user.uid)
        self.assertEqual(configuration(self.home), {})
        self.as_person(kde.ON)
        self.assertEqual(list(configuration(self.home)), [".config/kscreenlockerrc"])
        read = ["kreadconfig5", "--file", "kscreenlockerrc", "--group", "Greeter", "--key", "Theme"]
        self.assertEqual(self.as_person(read).strip(), kde.THEME_ID)
        self.as_person(kde.OFF)
        self.assertEqual(configuration(self.home), {}, "off left a file where there was none")

    def test_off_puts_back_the_theme_there_was(self):
        self.home = "/home/" + self.USER
        os.makedirs(os.path.join(self.home, ".config"), exist_ok=True)
        existing = os.path.join(self.home, ".config", "kscreenlockerrc")
        with open(existing, "w") as f:
            f.write("[Greeter]\nTheme=org.kde.breeze.desktop\n")
        os.chown(existing, self.user.uid, self.user.uid)
        os.chown(os.path.join(self.home, ".config"), self.user.uid, self.user.uid)
        before = configuration(self.home)
        self.as_person(kde.ON)
        read = ["kreadconfig5", "--file", "kscreenlockerrc", "--group", "Greeter", "--key", "Theme"]
        self.assertEqual(self.as_person(read).strip(), kde.THEME_ID)
        self.as_person(kde.OFF)
        self.assertEqual(configuration(self.home), before)


class AdministratorOnOffTest(kde.KdeCase):
    """The README's commands for everyone (kwriteconfig5 on /etc/xdg/kscreenlockerrc, as root): on, the greeter of
    a person who configured nothing (no --theme, as a real lock) shows the grid and the right drawing unlocks; off,
    every file under /etc/xdg is as before, byte for byte (a setting of the administrator's own in that file
    kept), and neither command touched the person's ~/.config."""

    USER = "pphkde5"
    PASSWORD = "Kde-test-pw-46"

    def system_configuration(self):
        """{path: sha256} of every file under /etc/xdg, as the namespace sees it."""
        done = self.sandbox.run("cd /etc/xdg && find . -type f -print0 | sort -z | xargs -0 sha256sum")
        self.assertEqual(done.returncode, 0, done.stderr)
        return {line.split()[1]: line.split()[0] for line in done.stdout.decode().splitlines()}

    def as_administrator(self, argv):
        done = self.sandbox.run("HOME=/root " + " ".join(shlex.quote(a) for a in argv))
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_on_then_off_for_everyone_changes_only_the_lock_screen(self):
        home = "/home/" + self.USER
        with open(os.path.join(self.sandbox.etc_xdg, "kscreenlockerrc"), "w") as f:
            f.write("[Daemon]\nTimeout=11\n")  # the administrator's own default, which must survive
        before, person_before = self.system_configuration(), configuration(home)

        self.as_administrator(kde.ADMIN_ON)
        on = self.system_configuration()
        self.assertEqual(sorted(name for name in on if on[name] != before.get(name)), ["./kscreenlockerrc"])
        with open(os.path.join(self.sandbox.etc_xdg, "kscreenlockerrc")) as f:
            written = f.read()
        self.assertIn("Theme=%s" % kde.THEME_ID, written)
        self.assertIn("Timeout=11", written)

        report = self.session(
            [{"op": "drag", "path": pad.dots(PATTERN)}, {"op": "until", "text": "unlocked"}], configured=True
        )
        self.assertTrue(report["steps"][1]["found"], report["log"])

        self.as_administrator(kde.ADMIN_OFF)
        self.assertEqual(self.system_configuration(), before)
        self.assertEqual(configuration(home), person_before, "the administrator's commands changed ~/.config")

    def test_off_for_everyone_removes_the_file_on_made(self):
        before = self.system_configuration()
        self.assertNotIn("./kscreenlockerrc", before)
        self.as_administrator(kde.ADMIN_ON)
        self.assertIn("./kscreenlockerrc", self.system_configuration())
        self.as_administrator(kde.ADMIN_OFF)
        self.assertEqual(self.system_configuration(), before, "off left a file where there was none")


class InstallTest(unittest.TestCase):
    """`make install-kde` puts every file of both assembled packages (build/kde/plasma5, the 5.27 look-and-feel
    package, and build/kde/plasma6, the Plasma 6 shell package) where Plasma finds them by their ids, byte for
    byte and readable by everyone, and Plasma 6's on/off command at its path, executable; `make uninstall-kde`
    takes them away, directories included."""

    def test_install_and_uninstall(self):
        with tempfile.TemporaryDirectory(prefix="pam_pattern-kde-install.") as destdir:
            make = ["make", "-s", "-C", ROOT, "BUILD=" + BUILD, "DESTDIR=" + destdir]
            done = run(make + ["install-kde"])
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            for built, installed in (("plasma5", kde.INSTALLED_THEME), ("plasma6", kde.INSTALLED_SHELL)):
                source = os.path.join(BUILD, "kde", built)
                names = [os.path.relpath(os.path.join(d, f), source) for d, _, files in os.walk(source) for f in files]
                self.assertIn("contents/lockscreen/LockScreen.qml", names)
                for name in names:
                    path = os.path.join(destdir + installed, name)
                    self.assertTrue(os.path.isfile(path), path)
                    self.assertEqual(os.stat(path).st_mode & 0o777, 0o644, path)
                    with open(path, "rb") as f, open(os.path.join(source, name), "rb") as g:
                        self.assertEqual(f.read(), g.read(), path)
            with open(destdir + kde.INSTALLED_THEME + "/metadata.desktop") as f:
                self.assertIn("X-KDE-PluginInfo-Name=%s\n" % kde.THEME_ID, f.read())
            with open(destdir + kde.INSTALLED_SHELL + "/metadata.json") as f:
                self.assertEqual(json.load(f)["KPlugin"]["Id"], kde.SHELL_ID)
            self.assertEqual(os.stat(destdir + kde.PLASMA6_COMMAND).st_mode & 0o777, 0o755)
            with open(destdir + kde.PLASMA6_COMMAND, "rb") as f, open(os.path.join(ROOT, COMMAND_SOURCE), "rb") as g:
                self.assertEqual(f.read(), g.read())
            done = run(make + ["uninstall-kde"])
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertFalse(os.path.exists(destdir + kde.INSTALLED_THEME))
            self.assertFalse(os.path.exists(destdir + kde.INSTALLED_SHELL))
            self.assertFalse(os.path.exists(destdir + kde.PLASMA6_COMMAND))
