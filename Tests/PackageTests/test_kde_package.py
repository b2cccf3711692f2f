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
import re
import shutil
import stat
import subprocess
import tempfile
import unittest

from test_package import Namespace, leftovers, sha256

from support import debs, kde

DOC = "/usr/share/doc/" + debs.KDE


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True, check=True).stdout.strip()


def relations(deb, name):
    """A relationship field as [[(package, version constraint or "")], ...]: alternatives within each entry."""
    entries = []
    for entry in field(deb, name).split(","):
        if entry.strip():
            alternatives = []
            for alternative in entry.split("|"):
                found = re.fullmatch(r"\s*([a-z0-9.+-]+)(?:\s*\(([^)]*)\))?\s*", alternative)
                if not found:
                    raise AssertionError("cannot read %r of %s" % (alternative, name))
                alternatives.append((found.group(1), found.group(2) or ""))
            entries.append(alternatives)
    return entries


def owner(path):
    """The package that holds path on this machine."""
    done = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError("no package holds %s (make deps)" % path)
    return done.stdout.split(":")[0]


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the packages (in a private mount namespace)")
class KdePackageTests(unittest.TestCase):
    # Where the packages are installed: the host's overlays here, Debian 13 in test_debian13.
    NAMESPACE = Namespace

    @classmethod
    def setUpClass(cls):
        for tool in ("dpkg-deb", "lintian", "apt-get", "nsenter", "unshare"):
            if not shutil.which(tool):
                raise unittest.SkipTest("%s is not installed (make deps)" % tool)
        built = debs.built()
        cls.deb, cls.base = built[debs.KDE], built[debs.BASE]
        cls.rows, cls.directories = debs.install_rows(debs.KDE)

    def expected_files(self):
        return sorted({dst for _, dst, _ in self.rows} | {DOC + "/changelog.gz", DOC + "/copyright"})

    # -- the package as built -------------------------------------------------

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        d = tempfile.mkdtemp(prefix="pp-kde-deb.")
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
        self.assertIn(kde.INSTALLED_THEME + "/contents/lockscreen/LockScreen.qml", found)
        self.assertIn(kde.INSTALLED_SHELL + "/contents/lockscreen/LockScreen.qml", found)
        self.assertIn(kde.INSTALLED_SHELL + "/metadata.json", found)
        for src, dst, mode in self.rows:
            with self.subTest(dst):
                self.assertEqual(sha256(d + dst), sha256(src), "%s is not the bytes of %s" % (dst, src))
                st = os.stat(d + dst)
                self.assertEqual(stat.S_IMODE(st.st_mode), mode, dst)
        members = subprocess.run(["dpkg-deb", "-c", self.deb], capture_output=True, text=True, check=True).stdout
        for line in members.splitlines():
            self.assertEqual(line.split()[1], "root/root", line)
            self.assertTrue(line.split()[0] in ("drwxr-xr-x", "-rw-r--r--"), line)
        # No configuration and nothing run at install: it is switched on by the person or the administrator.
        self.assertEqual(sorted(os.listdir(os.path.join(d, "DEBIAN"))), ["control", "md5sums"])

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

    # -- installed on a system ------------------------------------------------

    def test_installed_beside_pam_pattern_then_removed_leaves_nothing(self):
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(os.path.dirname(self.deb))
        r = ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.base, self.deb], timeout=300)
        self.assertIn("Setting up %s" % debs.KDE, r.stdout)
        # The greeter there is one of the alternatives it depends on (Plasma 5's or 6's).
        holder = ns.run(["dpkg", "-S", kde.GREETER]).stdout.split(":")[0]
        depended = [p for entry in relations(self.deb, "Depends") for p, _ in entry]
        self.assertIn(holder, depended, "the package holding %s here" % kde.GREETER)
        listed = ns.run(["dpkg", "-L", debs.KDE]).stdout.split()
        files = sorted(p for p in listed if os.path.isfile(ns.path(p)))
        self.assertEqual(files, self.expected_files(), "dpkg -L and packaging/install-kde.list disagree")
        for src, dst, mode in self.rows:
            st = os.stat(ns.path(dst))
            self.assertEqual((stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid), (mode, 0, 0), dst)
            self.assertEqual(sha256(ns.path(dst)), sha256(src), dst)
        # pam-pattern without it cannot go alone: dpkg refuses, the lock screen would lose its module.
        refused = ns.run(["dpkg", "-r", debs.BASE], check=False)
        self.assertNotEqual(refused.returncode, 0, refused.stdout)
        self.assertIn(debs.KDE, refused.stderr)

        ns.run(["dpkg", "-P", debs.KDE])
        self.assertFalse(os.path.lexists(ns.path(kde.INSTALLED_THEME)), "the lock screen's directory stayed")
        version = ns.run(["patternctl", "--version"])
        self.assertIn(field(self.base, "Version"), version.stdout, "pam-pattern broke when the lock screen went")
        ns.run(["dpkg", "-P", debs.BASE])
        self.assertEqual(leftovers(ns), [])


if __name__ == "__main__":
    unittest.main()
