"""pam-pattern-kde, the KDE lock screen's own package (`make deb` builds it beside pam-pattern): its files are
Sources/Surfaces/kde/package.list's, byte for byte; it is Architecture: all and depends on pam-pattern of its own version,
on the package that holds the greeter here and on plasma-workspace (Plasma's look-and-feel package structure),
while pam-pattern depends on, recommends and suggests nothing of KDE; lintian reports nothing; installed with apt
beside pam-pattern (test_package's Namespace: overlays, nothing real written) dpkg lists exactly those files, and
removing it leaves pam-pattern working and, with pam-pattern purged, nothing behind; Plasma 6's on/off command
refuses on Plasma 5.27 and names 5.27's command. test_debian13 runs the installed part, lintian and the Plasma 6
command in Debian 13 too; Tests/KDETests run the greeter on the files of this package. Root only; about 40 s.
"""

import os
import re
import unittest

from surface_package import SurfacePackage, field, owner, relations
from test_package import leftovers

from support import debs, kde


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the packages (in a private mount namespace)")
class KdePackageTests(SurfacePackage, unittest.TestCase):
    PACKAGE = debs.KDE
    # The trigger on Plasma's desktop shell and the scripts that keep plasma6-lock-screen's copy of it in step
    # (postinst: refresh on an upgrade of either; prerm: off on remove). They turn nothing on.
    MAINTAINER_FILES = ["control", "md5sums", "postinst", "prerm", "triggers"]

    # -- the package as built -------------------------------------------------

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        found = self.shipped_files()
        self.assertIn(kde.INSTALLED_THEME + "/contents/lockscreen/LockScreen.qml", found)
        self.assertIn(kde.INSTALLED_SHELL + "/contents/lockscreen/LockScreen.qml", found)
        self.assertIn(kde.INSTALLED_SHELL + "/metadata.json", found)
        self.assertIn(kde.PLASMA6_COMMAND, found)

    def test_depends_on_its_pam_pattern_the_greeter_and_plasma_workspace_and_the_base_on_nothing_of_kde(self):
        self.assertEqual(field(self.deb, "Architecture"), "all")
        version = field(self.base, "Version")
        self.assertEqual(field(self.deb, "Version"), version)
        depends = relations(self.deb, "Depends")
        # The words it reads back are that version's: pam-pattern of this source version, binNMUs of it included
        # (an arch: all package cannot depend on an arch: any one by "=").
        self.assertIn([(debs.BASE, ">= " + version)], depends)
        self.assertIn([(debs.BASE, "<< " + version + ".1~")], depends)
        greeter = next(entry for entry in depends if any(p == owner(kde.GREETER) for p, _ in entry))
        self.assertIn("libkscreenlocker6", [p for p, _ in greeter], "Debian 13's greeter package (Plasma 6)")
        self.assertIn([("plasma-workspace", "")], depends)
        self.assertEqual(len(depends), 4, depends)
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
        upstream = re.split(r"[~+]", field(self.base, "Version"))[0]  # patternctl knows no build's suffix
        self.assertIn(upstream, version.stdout, "pam-pattern broke when the lock screen went")
        ns.run(["dpkg", "-P", debs.BASE])
        self.assertEqual(leftovers(ns), [])

    def test_plasma_6_command_on_plasma_5_names_the_5_27_command_and_changes_nothing(self):
        """On Debian 12 (Plasma 5.27, whose lock screen is the look-and-feel package's) the Plasma 6 command
        refuses each way, says what it is for and names 5.27's own command; nothing is written."""
        ns = self.install_beside_pam_pattern()
        if os.path.isdir(ns.path(kde.STOCK_SHELL)):
            self.skipTest("Plasma 6's desktop shell is installed here")
        before = ns.run(["find", "/usr/local", "/etc/xdg", "-printf", "%p %m %s %T@\\n"]).stdout
        for action in ("on", "off", "status"):
            with self.subTest(action):
                r = ns.run([kde.PLASMA6_COMMAND, action], check=False)
                self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
                self.assertIn("this is for Plasma 6", r.stderr)
                self.assertIn("sudo %s on --everyone" % kde.PLASMA5_COMMAND, r.stderr)
        self.assertEqual(ns.run(["find", "/usr/local", "/etc/xdg", "-printf", "%p %m %s %T@\\n"]).stdout, before)


if __name__ == "__main__":
    unittest.main()
