"""pam-pattern-gnome, the GNOME Shell extension's own package (`make deb` builds it beside the others): its files
are Sources/Surfaces/gnome/package.list's, byte for byte, in /usr/share/gnome-shell/extensions under the
extension's uuid (what metadata.json says), one directory for GNOME Shell 43 and one for 48; it is Architecture: all,
depends on pam-pattern of its own source version (whose words it reads back) and on the gnome-shell versions the
extension was tested on, as the two metadata.json pin them; pam-pattern depends on nothing of GNOME. lintian reports nothing; installed with apt beside pam-pattern
(test_package's Namespace: overlays, nothing real written) dpkg lists exactly those files, nothing is turned on (no
dconf keyfile for GDM), and purging it and pam-pattern leaves nothing. Tests/GNOMETests run the real gnome-shell
on the files of this package's build. Root only.
"""

import json
import os
import unittest

from surface_package import SurfacePackage, field, relations
from test_package import leftovers

from support import debs, gnome

INSTALLED = "/usr/share/gnome-shell/extensions/" + gnome.UUID
INSTALLED_48 = "/usr/share/gnome-shell/extensions/" + gnome.UUID_48
GDM_KEYFILE = "/etc/dconf/db/gdm.d/90-pam-pattern"


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the packages (in a private mount namespace)")
class GnomePackageTests(SurfacePackage, unittest.TestCase):
    PACKAGE = debs.GNOME

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        found = self.shipped_files()
        for name in ("metadata.json", "extension.js", "patternTrace.js", "moduleWords.js", "gdm-login-screen"):
            self.assertIn(INSTALLED + "/" + name, found)
        for name in ("metadata.json", "extension.js", "promptHooks.js", "patternTrace.js", "moduleWords.js"):
            self.assertIn(INSTALLED_48 + "/" + name, found)
        # One directory per shell, each named by its uuid, kept in the lock screen and the greeter.
        for uuid, directory, version in (
            (gnome.UUID, gnome.EXTENSION, "43"),
            (gnome.UUID_48, gnome.EXTENSION_48, "48"),
        ):
            with open(os.path.join(directory, "metadata.json")) as f:
                metadata = json.load(f)
            self.assertEqual(metadata["uuid"], uuid)
            self.assertEqual(metadata["shell-version"], [version])
            self.assertEqual(metadata["session-modes"], ["user", "unlock-dialog", "gdm"])

    def test_depends_on_its_pam_pattern_and_the_shell_it_was_tested_on(self):
        self.assertEqual(field(self.deb, "Architecture"), "all")
        version = field(self.base, "Version")
        self.assertEqual(field(self.deb, "Version"), version)
        depends = relations(self.deb, "Depends")
        # The words it reads back are that version's: pam-pattern of this source version, binNMUs of it included
        # (an arch: all package cannot depend on an arch: any one by "=").
        self.assertIn([(debs.BASE, ">= " + version)], depends)
        self.assertIn([(debs.BASE, "<< " + version + ".1~")], depends)
        tested = []
        for directory in (gnome.EXTENSION, gnome.EXTENSION_48):
            with open(os.path.join(directory, "metadata.json")) as f:
                tested += json.load(f)["shell-version"]
        self.assertEqual(tested, ["43", "48"])
        # 43 or 48, each pinned: nothing between (44-47 never were a Debian release's) nor after.
        self.assertEqual(
            depends[2:],
            [
                [("gnome-shell", ">= 43")],
                [("gnome-shell", "<< 44"), ("gnome-shell", ">= 48")],
                [("gnome-shell", "<< 49")],
            ],
        )
        for name in ("Depends", "Recommends", "Suggests", "Pre-Depends"):
            for entry in relations(self.base, name):
                for package, _ in entry:
                    self.assertNotRegex(package, r"gnome|gdm", "pam-pattern %s %s" % (name, package))

    def test_installed_beside_pam_pattern_turns_nothing_on_and_purged_leaves_nothing(self):
        ns = self.install_beside_pam_pattern()
        self.assertFalse(os.path.lexists(ns.path(GDM_KEYFILE)), "installing turned GDM's grid on")

        ns.run(["dpkg", "-P", debs.GNOME])
        self.assertFalse(os.path.lexists(ns.path(INSTALLED)), "the extension's directory stayed")
        self.assertFalse(os.path.lexists(ns.path(INSTALLED_48)), "48's directory stayed")
        ns.run(["dpkg", "-P", debs.BASE])
        self.assertEqual(leftovers(ns), [])


if __name__ == "__main__":
    unittest.main()
