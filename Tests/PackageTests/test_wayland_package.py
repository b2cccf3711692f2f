"""pam-pattern-wayland, the Wayland lock screen's own package (`make deb` builds it beside the others): its files
are Sources/Surfaces/wayland/package.list's, byte for byte (the locker on PATH, its PAM child, its man page, and its
PAM service /etc/pam.d/pattern-lock, the one conffile); it depends on pam-pattern of its own version and on the
libraries the locker links (libwayland-client, cairo, xkbcommon), while pam-pattern depends on none of them;
lintian reports nothing; installed with apt beside pam-pattern, dpkg lists exactly those files. Tests/WaylandTests
run the locker itself. Root only.
"""

import os
import unittest

from surface_package import SurfacePackage, relations

from support import debs


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the packages (in a private mount namespace)")
class WaylandPackageTests(SurfacePackage, unittest.TestCase):
    PACKAGE = debs.WAYLAND
    # /etc/pam.d/pattern-lock is configuration: dpkg keeps an administrator's change to it.
    MAINTAINER_FILES = ["conffiles", "control", "md5sums"]

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # The man page ships gzipped (build-deb.sh, Debian policy): held by its name, not its bytes.
        cls.man = [dst for _, dst, _ in cls.rows if dst.startswith("/usr/share/man/")]
        cls.rows = [row for row in cls.rows if row[1] not in cls.man]

    def expected_files(self):
        return sorted(SurfacePackage.expected_files(self) + [page + ".gz" for page in self.man])

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        found = self.shipped_files()
        for path in (
            "/usr/bin/pattern-lock",
            "/usr/libexec/pam-pattern/pattern-lock-pam",
            "/etc/pam.d/pattern-lock",
            "/usr/share/man/man1/pattern-lock.1.gz",
        ):
            self.assertIn(path, found)

    def test_it_depends_on_pam_pattern_and_the_wayland_libraries_and_pam_pattern_on_none(self):
        depends = [name for entry in relations(self.deb, "Depends") for name, _ in entry]
        self.assertIn("pam-pattern", depends)
        for library in ("libwayland-client0", "libcairo2", "libxkbcommon0"):
            self.assertIn(library, depends)
        base = [name for entry in relations(self.base, "Depends") for name, _ in entry]
        for library in ("libwayland-client0", "libcairo2", "libxkbcommon0"):
            self.assertNotIn(library, base)

    def test_installed_beside_pam_pattern_it_holds_it(self):
        self.install_beside_pam_pattern()


if __name__ == "__main__":
    unittest.main()
