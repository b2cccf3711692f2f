"""pam-pattern-sddm, the SDDM login screen's own package (`make deb` builds it beside pam-pattern and
pam-pattern-kde): its files are Sources/Surfaces/sddm/package.list's, byte for byte; it is Architecture: all, depends on
pam-pattern of its own version, on sddm and on the QML modules the theme imports, for Qt 5 (SDDM 0.19's greeter:
each the package that holds it here) and Qt 6 (0.21's), provides sddm-theme (what sddm recommends), and depends on nothing of Plasma, which an SDDM
without Plasma (LXQt) does not have; pam-pattern depends on nothing of SDDM. lintian reports nothing; installed
with apt beside pam-pattern (test_package's Namespace: overlays, nothing real written) dpkg lists exactly those
files, nothing is turned on (no /etc/sddm.conf.d), and purging it and pam-pattern leaves nothing. Tests/SDDMTests
run the real SDDM on the files of this package. Root only.
"""

import os
import unittest

from surface_package import SurfacePackage, field, owner, relations
from test_package import leftovers

from support import debs, sddm

THEME = sddm.THEMES + "/" + sddm.THEME_ID
# The QML modules Main.qml and PatternGrid.qml import, by a file of each in Qt 5 (SDDM 0.19's greeter, Debian 12),
# and the package that has them for Qt 6 (SDDM 0.21's sddm-greeter-qt6, which Debian 13 runs: metadata.desktop's
# QtVersion=6; test_debian13 installs and runs them there).
QML = "/usr/lib/x86_64-linux-gnu/qt5/qml/"
IMPORTS = {
    "QtQuick 2.15": (QML + "QtQuick.2/qmldir", "qml6-module-qtquick"),
    "QtQuick.Window 2.15": (QML + "QtQuick/Window.2/qmldir", "qml6-module-qtquick-window"),
    "QtQuick.Controls 2.15": (QML + "QtQuick/Controls.2/qmldir", "qml6-module-qtquick-controls"),
    "QtQml.Models 2.15": (QML + "QtQml/Models.2/qmldir", "qml6-module-qtqml-models"),
}


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the packages (in a private mount namespace)")
class SddmPackageTests(SurfacePackage, unittest.TestCase):
    PACKAGE = debs.SDDM

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        found = self.shipped_files()
        for name in ("Main.qml", "metadata.desktop", "PatternGrid.qml", "pam-pattern.conf"):
            self.assertIn(THEME + "/" + name, found)

    def test_depends_on_its_pam_pattern_sddm_and_the_qml_it_imports_and_nothing_of_plasma(self):
        self.assertEqual(field(self.deb, "Architecture"), "all")
        version = field(self.base, "Version")
        self.assertEqual(field(self.deb, "Version"), version)
        self.assertEqual(field(self.deb, "Provides"), "sddm-theme")
        depends = relations(self.deb, "Depends")
        # The words it reads back are that version's: pam-pattern of this source version, binNMUs of it included
        # (an arch: all package cannot depend on an arch: any one by "=").
        self.assertIn([(debs.BASE, ">= " + version)], depends)
        self.assertIn([(debs.BASE, "<< " + version + ".1~")], depends)
        self.assertIn([(owner("/usr/bin/sddm-greeter"), "")], depends)
        for module, (path, qt6) in IMPORTS.items():
            self.assertIn([(owner(path), "")], depends, "%s (%s)" % (module, path))
            self.assertIn([(qt6, "")], depends, "%s for Qt 6" % module)
        self.assertEqual(len(depends), 3 + 2 * len(IMPORTS), depends)
        # What it imports is all there is: every import of the theme's QML is one of IMPORTS or its own file.
        sources = [os.path.join(sddm.THEME, "Main.qml"), os.path.join(sddm.THEME, "PatternGrid.qml")]
        imports = set()
        for source in sources:
            with open(source) as f:
                imports |= {line[7:].strip() for line in f if line.startswith("import ") and '"' not in line}
        self.assertEqual(imports, set(IMPORTS))
        for entry in depends:
            for package, _ in entry:
                self.assertNotRegex(package, r"kde|plasma|kscreenlocker", "an SDDM without Plasma must suffice")
        for name in ("Depends", "Recommends", "Suggests", "Pre-Depends"):
            for entry in relations(self.base, name):
                for package, _ in entry:
                    self.assertNotRegex(package, r"sddm|qml", "pam-pattern %s %s" % (name, package))

    def test_installed_beside_pam_pattern_turns_nothing_on_and_purged_leaves_nothing(self):
        ns = self.install_beside_pam_pattern()
        self.assertFalse(os.path.lexists(ns.path(sddm.DROP_IN)), "installing turned the theme on")

        ns.run(["dpkg", "-P", debs.SDDM])
        self.assertFalse(os.path.lexists(ns.path(THEME)), "the theme's directory stayed")
        ns.run(["dpkg", "-P", debs.BASE])
        self.assertEqual(leftovers(ns), [])


if __name__ == "__main__":
    unittest.main()
