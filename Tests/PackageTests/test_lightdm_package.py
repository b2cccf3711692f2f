"""pam-pattern-lightdm, the LightDM greeter's own package (`make deb` builds it beside the others): its files are
Sources/Surfaces/lightdm/package.list's, byte for byte; it depends on what the greeter links (dpkg-shlibdeps:
liblightdm-gobject among them), on pam-pattern of its own version and on lightdm, and provides lightdm-greeter
(what lightdm depends on one of); pam-pattern depends on nothing of LightDM. lintian reports nothing; installed
with apt beside pam-pattern (test_package's Namespace: overlays, nothing real written) dpkg lists exactly those
files, nothing is turned on (no drop-in in /etc/lightdm/lightdm.conf.d), and purging it and pam-pattern leaves
nothing. Tests/LightDMTests run the real LightDM with the greeter at the path this package installs it. Root only.
"""

import os
import unittest

from surface_package import SurfacePackage, field, owner, relations
from test_package import leftovers

from support import debs, lightdm


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the packages (in a private mount namespace)")
class LightDMPackageTests(SurfacePackage, unittest.TestCase):
    PACKAGE = debs.LIGHTDM

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        found = self.shipped_files()
        self.assertIn(lightdm.INSTALLED, found)
        self.assertIn("/usr/share/xgreeters/pam-pattern-greeter.desktop", found)

    def test_depends_on_what_it_links_its_pam_pattern_and_lightdm(self):
        self.assertEqual(field(self.deb, "Architecture"), field(self.base, "Architecture"))
        version = field(self.base, "Version")
        self.assertEqual(field(self.deb, "Version"), version)
        self.assertEqual(field(self.deb, "Provides"), "lightdm-greeter")
        depends = [entry[0][0] for entry in relations(self.deb, "Depends")]
        self.assertIn([(debs.BASE, "= " + version)], relations(self.deb, "Depends"))
        self.assertIn(owner("/usr/sbin/lightdm"), depends)
        self.assertIn("liblightdm-gobject-1-0", depends)
        self.assertNotIn("libpam-runtime", depends, "pam-auth-update is pam-pattern's")
        for name in ("Depends", "Recommends", "Suggests", "Pre-Depends"):
            for entry in relations(self.base, name):
                for package, _ in entry:
                    self.assertNotRegex(package, r"lightdm", "pam-pattern %s %s" % (name, package))

    def test_installed_beside_pam_pattern_turns_nothing_on_and_purged_leaves_nothing(self):
        ns = self.install_beside_pam_pattern()
        self.assertFalse(os.path.lexists(ns.path(lightdm.DROP_IN)), "installing turned the greeter on")
        ns.run(["dpkg", "-P", debs.LIGHTDM])
        self.assertFalse(os.path.lexists(ns.path(lightdm.INSTALLED)), "the greeter stayed")
        ns.run(["dpkg", "-P", debs.BASE])
        self.assertEqual(leftovers(ns), [])


if __name__ == "__main__":
    unittest.main()
