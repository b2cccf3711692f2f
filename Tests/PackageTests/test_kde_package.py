"""pam-pattern-kde, the KDE lock screen's own package (`make deb` builds it beside pam-pattern): its files are
packaging/install-kde.list's, byte for byte; it is Architecture: all and depends on pam-pattern of its own version,
on the package that holds the greeter here and on plasma-workspace (Plasma's look-and-feel package structure),
while pam-pattern depends on, recommends and suggests nothing of KDE; lintian reports nothing; installed with apt
beside pam-pattern (test_package's Namespace: overlays, nothing real written) dpkg lists exactly those files, and
removing it leaves pam-pattern working and, with pam-pattern purged, nothing behind. test_debian13 runs the
installed part and lintian in Debian 13 too; Tests/KDETests run the greeter on the files of this package.
Root only; about 40 s.
"""

import os
import unittest

from surface_package import SurfacePackage, field, owner, relations
from test_package import leftovers

from support import debs, kde


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the packages (in a private mount namespace)")
class KdePackageTests(SurfacePackage, unittest.TestCase):
    PACKAGE = debs.KDE

    # -- the package as built -------------------------------------------------

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        found = self.shipped_files()
        self.assertIn(kde.INSTALLED_THEME + "/contents/lockscreen/LockScreen.qml", found)
        self.assertIn(kde.INSTALLED_SHELL + "/contents/lockscreen/LockScreen.qml", found)
        self.assertIn(kde.INSTALLED_SHELL + "/metadata.json", found)

    def test_depends_on_its_pam_pattern_the_greeter_and_plasma_workspace_and_the_base_on_nothing_of_kde(self):
        self.assertEqual(field(self.deb, "Architecture"), "all")
        version = field(self.base, "Version")
        self.assertEqual(field(self.deb, "Version"), version)
        depends = relations(self.deb, "Depends")
        self.assertIn([(debs.BASE, "= " + version)], depends, "the words it reads back are that version's")
        greeter = next(entry for entry in depends if any(p == owner(kde.GREETER) for p, _ in entry))
        self.assertIn("libkscreenlocker6", [p for p, _ in greeter], "Debian 13's greeter package (Plasma 6)")
        self.assertIn([("plasma-workspace", "")], depends)
        self.assertEqual(len(depends), 3, depends)
        kde_packages = {p for entry in depends for p, _ in entry} - {debs.BASE}
        for name in ("Depends", "Recommends", "Suggests", "Pre-Depends"):
            for entry in relations(self.base, name):
                for package, _ in entry:
                    self.assertNotIn(package, kde_packages, "pam-pattern %s %s" % (name, package))
                    self.assertNotRegex(package, r"kde|plasma|kscreenlocker|qml|^libqt|^qt", name)

    # -- installed on a system ------------------------------------------------

    def test_installed_beside_pam_pattern_then_removed_leaves_nothing(self):
        ns = self.install_beside_pam_pattern()
        # The greeter there is one of the alternatives it depends on (Plasma 5's or 6's).
        holder = ns.run(["dpkg", "-S", kde.GREETER]).stdout.split(":")[0]
        depended = [p for entry in relations(self.deb, "Depends") for p, _ in entry]
        self.assertIn(holder, depended, "the package holding %s here" % kde.GREETER)

        ns.run(["dpkg", "-P", debs.KDE])
        self.assertFalse(os.path.lexists(ns.path(kde.INSTALLED_THEME)), "the lock screen's directory stayed")
        version = ns.run(["patternctl", "--version"])
        self.assertIn(field(self.base, "Version"), version.stdout, "pam-pattern broke when the lock screen went")
        ns.run(["dpkg", "-P", debs.BASE])
        self.assertEqual(leftovers(ns), [])


if __name__ == "__main__":
    unittest.main()
