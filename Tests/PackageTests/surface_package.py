"""What the drawing surfaces' own packages (pam-pattern-kde, pam-pattern-sddm) are held to alike, as built and as
installed: their files are their install list's, byte for byte, root's, no configuration, and no maintainer script
but the ones the package's test names (MAINTAINER_FILES); lintian reports nothing; installed with apt beside pam-pattern, dpkg lists exactly those files, and pam-pattern cannot be
removed from under them. Each package's test adds what is its own (its Depends, what it turns on, what it leaves).
"""

import gzip
import hashlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest

from test_package import Namespace, packaged_path, sha256

from support import debs


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


class SurfacePackage:
    """Mixed into a unittest.TestCase (so it is not run on its own). PACKAGE: debs.KDE or debs.SDDM."""

    PACKAGE = None
    # What the control archive holds: no maintainer script unless the package's test says which and why.
    MAINTAINER_FILES = ["control", "md5sums"]
    # Where the packages are installed: the host's overlays here, Debian 13 in test_debian13.
    NAMESPACE = Namespace

    @classmethod
    def setUpClass(cls):
        for tool in ("dpkg-deb", "lintian", "apt-get", "nsenter", "unshare"):
            if not shutil.which(tool):
                raise unittest.SkipTest("%s is not installed (make deps)" % tool)
        built = debs.built()
        cls.deb, cls.base = built[cls.PACKAGE], built[debs.BASE]
        cls.rows, cls.directories = debs.install_rows(cls.PACKAGE)

    def expected_files(self):
        doc = "/usr/share/doc/" + self.PACKAGE
        return sorted({packaged_path(dst) for _, dst, _ in self.rows} | {doc + "/changelog.gz", doc + "/copyright"})

    def shipped_files(self):
        """The package's files, checked against the build and its list (bytes, modes, owner; the control archive
        holds MAINTAINER_FILES: it is turned on by a person or the administrator, never at install)."""
        d = tempfile.mkdtemp(prefix="pp-surface-deb.")
        self.addCleanup(shutil.rmtree, d, ignore_errors=True)
        subprocess.run(["dpkg-deb", "-x", self.deb, d], check=True)
        subprocess.run(["dpkg-deb", "-e", self.deb, os.path.join(d, "DEBIAN")], check=True)
        found = debs.unpacked_files(d)
        self.assertEqual(found, self.expected_files())
        for src, dst, mode in self.rows:
            with self.subTest(dst):
                path = d + packaged_path(dst)
                self.assertEqual(self.content(path), self.content(src, gzipped=False), "%s is not %s" % (dst, src))
                self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), mode, dst)
        members = subprocess.run(["dpkg-deb", "-c", self.deb], capture_output=True, text=True, check=True).stdout
        for line in members.splitlines():
            self.assertEqual(line.split()[1], "root/root", line)
            self.assertTrue(line.split()[0] in ("drwxr-xr-x", "-rw-r--r--", "-rwxr-xr-x"), line)
        self.assertEqual(sorted(os.listdir(os.path.join(d, "DEBIAN"))), sorted(self.MAINTAINER_FILES))
        return found

    @staticmethod
    def content(path, gzipped=None):
        """A file's bytes' digest; a man page (gzipped in the package) ungzipped first."""
        if gzipped or (gzipped is None and path.endswith(".gz")):
            with gzip.open(path) as f:
                return hashlib.sha256(f.read()).hexdigest()
        return sha256(path)

    def test_lintian_reports_nothing(self):
        debs.assert_lintian_clean(self, self.deb, "error,warning,info")

    def install_beside_pam_pattern(self):
        """A namespace with pam-pattern and this package installed by apt, its files as listed (bytes, modes,
        root's), and pam-pattern held by it (dpkg refuses to remove pam-pattern alone)."""
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(os.path.dirname(self.deb))
        r = ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.base, self.deb], timeout=300)
        self.assertIn("Setting up %s" % self.PACKAGE, r.stdout)
        listed = ns.run(["dpkg", "-L", self.PACKAGE]).stdout.split()
        files = sorted(p for p in listed if os.path.isfile(ns.path(p)))
        self.assertEqual(files, self.expected_files(), "dpkg -L and the package's install list disagree")
        for src, dst, mode in self.rows:
            path = ns.path(packaged_path(dst))
            st = os.stat(path)
            self.assertEqual((stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid), (mode, 0, 0), dst)
            self.assertEqual(self.content(path), self.content(src, gzipped=False), dst)
        refused = ns.run(["dpkg", "-r", debs.BASE], check=False)
        self.assertNotEqual(refused.returncode, 0, refused.stdout)
        self.assertIn(self.PACKAGE, refused.stderr)
        return ns
