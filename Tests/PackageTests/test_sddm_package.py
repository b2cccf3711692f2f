"""pam-pattern-sddm, the SDDM login screen's own package (`make deb` builds it beside pam-pattern and
pam-pattern-kde): its files are packaging/install-sddm.list's, byte for byte; it is Architecture: all, depends on
pam-pattern of its own version, on sddm and on the QML modules the theme imports, for Qt 5 (SDDM 0.19's greeter:
each the package that holds it here) and Qt 6 (0.21's), provides sddm-theme (what sddm recommends), and depends on nothing of Plasma, which an SDDM
without Plasma (LXQt) does not have; pam-pattern depends on nothing of SDDM. lintian reports nothing; installed
with apt beside pam-pattern (test_package's Namespace: overlays, nothing real written) dpkg lists exactly those
files, nothing is turned on (no /etc/sddm.conf.d), and purging it and pam-pattern leaves nothing. Tests/SDDMTests
run the real SDDM on the files of this package. Root only.
"""

import os
import shutil
import stat
import subprocess
import tempfile
import unittest

from test_kde_package import field, owner, relations
from test_package import Namespace, leftovers, sha256

from support import debs, sddm

DOC = "/usr/share/doc/" + debs.SDDM
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
class SddmPackageTests(unittest.TestCase):
    NAMESPACE = Namespace

    @classmethod
    def setUpClass(cls):
        for tool in ("dpkg-deb", "lintian", "apt-get", "nsenter", "unshare"):
            if not shutil.which(tool):
                raise unittest.SkipTest("%s is not installed (make deps)" % tool)
        built = debs.built()
        cls.deb, cls.base = built[debs.SDDM], built[debs.BASE]
        cls.rows, cls.directories = debs.install_rows(debs.SDDM)

    def expected_files(self):
        return sorted({dst for _, dst, _ in self.rows} | {DOC + "/changelog.gz", DOC + "/copyright"})

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        d = tempfile.mkdtemp(prefix="pp-sddm-deb.")
        self.addCleanup(shutil.rmtree, d, ignore_errors=True)
        subprocess.run(["dpkg-deb", "-x", self.deb, d], check=True)
        subprocess.run(["dpkg-deb", "-e", self.deb, os.path.join(d, "DEBIAN")], check=True)
        found = sorted(
            "/" + os.path.relpath(os.path.join(p, f), d)
            for p, _, fs in os.walk(d)
            if not p.startswith(os.path.join(d, "DEBIAN"))
            for f in fs
        )
        self.assertEqual(found, self.expected_files())
        for name in ("Main.qml", "metadata.desktop", "PatternGrid.qml", "pam-pattern.conf"):
            self.assertIn(THEME + "/" + name, found)
        for src, dst, mode in self.rows:
            with self.subTest(dst):
                self.assertEqual(sha256(d + dst), sha256(src), "%s is not the bytes of %s" % (dst, src))
                self.assertEqual(stat.S_IMODE(os.stat(d + dst).st_mode), mode, dst)
        members = subprocess.run(["dpkg-deb", "-c", self.deb], capture_output=True, text=True, check=True).stdout
        for line in members.splitlines():
            self.assertEqual(line.split()[1], "root/root", line)
            self.assertTrue(line.split()[0] in ("drwxr-xr-x", "-rw-r--r--"), line)
        # No configuration and nothing run at install: the administrator turns it on.
        self.assertEqual(sorted(os.listdir(os.path.join(d, "DEBIAN"))), ["control", "md5sums"])

    def test_depends_on_its_pam_pattern_sddm_and_the_qml_it_imports_and_nothing_of_plasma(self):
        self.assertEqual(field(self.deb, "Architecture"), "all")
        version = field(self.base, "Version")
        self.assertEqual(field(self.deb, "Version"), version)
        self.assertEqual(field(self.deb, "Provides"), "sddm-theme")
        depends = relations(self.deb, "Depends")
        self.assertIn([(debs.BASE, "= " + version)], depends, "the words it reads back are that version's")
        self.assertIn([(owner("/usr/bin/sddm-greeter"), "")], depends)
        for module, (path, qt6) in IMPORTS.items():
            self.assertIn([(owner(path), "")], depends, "%s (%s)" % (module, path))
            self.assertIn([(qt6, "")], depends, "%s for Qt 6" % module)
        self.assertEqual(len(depends), 2 + 2 * len(IMPORTS), depends)
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

    def test_lintian_reports_nothing(self):
        copy = tempfile.mkdtemp(prefix="pp-lintian.")
        self.addCleanup(shutil.rmtree, copy, ignore_errors=True)
        shutil.copy(self.deb, copy)
        os.chmod(copy, 0o755)
        r = subprocess.run(
            ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "env", "HOME=" + copy]
            + ["lintian", "--fail-on", "error,warning,info", "--info", os.path.join(copy, os.path.basename(self.deb))],
            capture_output=True,
            text=True,
            timeout=300,
        )
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotRegex(r.stdout, r"(?m)^[EWI]: ", r.stdout)

    def test_installed_beside_pam_pattern_turns_nothing_on_and_purged_leaves_nothing(self):
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(os.path.dirname(self.deb))
        r = ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.base, self.deb], timeout=300)
        self.assertIn("Setting up %s" % debs.SDDM, r.stdout)
        listed = ns.run(["dpkg", "-L", debs.SDDM]).stdout.split()
        files = sorted(p for p in listed if os.path.isfile(ns.path(p)))
        self.assertEqual(files, self.expected_files(), "dpkg -L and packaging/install-sddm.list disagree")
        for src, dst, mode in self.rows:
            st = os.stat(ns.path(dst))
            self.assertEqual((stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid), (mode, 0, 0), dst)
            self.assertEqual(sha256(ns.path(dst)), sha256(src), dst)
        self.assertFalse(os.path.lexists(ns.path(sddm.DROP_IN)), "installing turned the theme on")
        # pam-pattern cannot go alone: the theme's words and the profile are its.
        refused = ns.run(["dpkg", "-r", debs.BASE], check=False)
        self.assertNotEqual(refused.returncode, 0, refused.stdout)
        self.assertIn(debs.SDDM, refused.stderr)

        ns.run(["dpkg", "-P", debs.SDDM])
        self.assertFalse(os.path.lexists(ns.path(THEME)), "the theme's directory stayed")
        ns.run(["dpkg", "-P", debs.BASE])
        self.assertEqual(leftovers(ns), [])


if __name__ == "__main__":
    unittest.main()
