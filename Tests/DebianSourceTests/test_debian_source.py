"""The Debian source package (debian/) built by Debian's own Swift on unstable, as a Debian maintainer would:
in the cached sid system (support.sid), `apt-get build-dep` (Build-Depends from Debian only) and
`dpkg-buildpackage -us -uc`, whose dh_auto_test runs the core vectors (Tests/CoreVectorsTests) on the Embedded
core sid's swiftlang compiled; then sid's lintian on the source and every binary, and autopkgtest with the built
packages (debian/tests: a first pattern, su and sudo by pattern, a wrong one counted, purge), each in an overlay
of that system. Each step is a test of its own and prints its time; the first run builds the cache.

Root only; nothing of the host's is touched (private mount namespaces, support.debian13).
"""

import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from support import debian_source, sid
from support.paths import BUILD, ROOT

OUT = os.path.join(BUILD, "debian-source")
SOURCE = os.path.join(OUT, "pam-pattern")
STARTED = time.monotonic()
TIMINGS = debian_source.Timings()
BUILT = {}
ENROLLED, OTHER = "debsrc-enrolled", "debsrc-other"
PATTERN, WRONG = "2946138", "24678"
# What an upgrade must keep: the patterns, the throttle state and attempt records, the settings, PAM's stack.
# pam-pattern-gnome's Depends pin gnome-shell to the versions its extension was tested on (43 and 48, each
# metadata.json's), which unstable, a later GNOME, need not have: its gnome-shell relations are checked to be those
# pins and resolved there unversioned, the rest as every package's.
GNOME = "pam-pattern-gnome_"
GNOME_PINS = ["gnome-shell (>= 43)", "gnome-shell (<< 44) | gnome-shell (>= 48)", "gnome-shell (<< 49)"]
KEPT = ("/etc/security/pam_pattern", "/var/lib/pam_pattern", "/etc/security/pam_pattern.conf", "/etc/pam.d")


def snapshot(system, paths):
    """{path: (mode, uid, gid, sha256 or link target or None)} of each of `paths` and everything under it."""

    def entry(path):
        st = os.lstat(path)
        if os.path.islink(path):
            return (st.st_mode, st.st_uid, st.st_gid, os.readlink(path))
        if os.path.isfile(path):
            with open(path, "rb") as f:
                return (st.st_mode, st.st_uid, st.st_gid, hashlib.sha256(f.read()).hexdigest())
        return (st.st_mode, st.st_uid, st.st_gid, None)

    found = {}
    for top in paths:
        outside = system.path(top)
        if not os.path.lexists(outside):
            continue
        found[top] = entry(outside)
        for folder, dirs, files in os.walk(outside):
            for name in dirs + files:
                path = os.path.join(folder, name)
                found[top + path[len(outside) :]] = entry(path)
    return found


def setUpModule():
    if os.geteuid() != 0:
        raise unittest.SkipTest("needs root: debootstrap, chroot, mount namespaces")
    for tool in ("debootstrap", "unshare", "nsenter", "chroot", "git"):
        if shutil.which(tool) is None:
            raise unittest.SkipTest("%s is not installed (make deps)" % tool)
    TIMINGS.run("the sid system (cached in %s)" % sid.CACHE, sid.cached_root)
    debian_source.fresh_directory(OUT)
    debian_source.export_tree(SOURCE)
    with sid.Sid() as system:
        system.share(OUT)
        try:
            BUILT["log"] = debian_source.build(system, SOURCE, TIMINGS)
        except AssertionError as failed:
            BUILT["failure"] = str(failed)[-6000:]


def tearDownModule():
    sys.stderr.write("Debian source package suite: %.0f s\n" % (time.monotonic() - STARTED))


class DebianSourcePackage(unittest.TestCase):
    def setUp(self):
        if "failure" in BUILT:
            self.fail("the source package did not build in sid:\n" + BUILT["failure"])
        self.results = debian_source.results(OUT)

    def system(self):
        system = sid.Sid()
        self.addCleanup(system.close)
        system.share(OUT, read_only=True)
        return system

    def test_builds_every_binary_package_of_debian_control(self):
        with open(os.path.join(ROOT, "debian", "control")) as f:
            packages = [line.split()[1] for line in f if line.startswith("Package: ")]
        built = sorted(os.path.basename(deb).split("_")[0] for deb in self.results["deb"])
        self.assertEqual(built, sorted(packages))
        self.assertIn("dsc", self.results)

    def test_the_build_ran_the_core_vectors_on_the_embedded_core_of_sids_swift(self):
        """dh_auto_test: the same inputs through the Embedded and the normal build of Tools/core-vectors."""
        self.assertRegex(BUILT["log"], r"(?m)^Ran [1-9][0-9]* tests? in ")
        self.assertRegex(BUILT["log"], r"(?m)^OK$")
        self.assertIn("x86_64-unknown-linux-gnu", BUILT["log"], "the Embedded chain was not built for its triple")

    def test_nocheck_skips_the_build_time_tests(self):
        def planned(options):
            r = subprocess.run(
                ["make", "-n", "-s", "-f", "debian/rules", "override_dh_auto_test"],
                cwd=SOURCE,
                capture_output=True,
                text=True,
                env=dict(os.environ, DEB_BUILD_OPTIONS=options),
                check=True,
            )
            return r.stdout

        self.assertIn("CoreVectorsTests", planned(""))
        self.assertNotIn("CoreVectorsTests", planned("nocheck"))

    def test_hardening_flags_reach_the_c(self):
        """dpkg-buildflags' CPPFLAGS and CFLAGS (hardening=+all) on the C targets: with _FORTIFY_SOURCE the C's libc
        calls of known sizes go through glibc's checking variants (__*_chk besides the stack protector's)."""
        deb = next(d for d in self.results["deb"] if os.path.basename(d).startswith("pam-pattern_"))
        unpacked = tempfile.mkdtemp(prefix="pp-debsrc.")
        self.addCleanup(shutil.rmtree, unpacked, ignore_errors=True)
        subprocess.run(["dpkg-deb", "-x", deb, unpacked], check=True)
        for program in glob.glob(unpacked + "/usr/lib/*/security/pam_pattern.so") + [
            unpacked + "/usr/sbin/pam_pattern_helper",
            unpacked + "/usr/bin/patternctl",
        ]:
            with self.subTest(os.path.basename(program)):
                symbols = subprocess.run(
                    ["readelf", "--dyn-syms", "-W", program], capture_output=True, text=True, check=True
                ).stdout
                self.assertRegex(symbols, r"__(?!stack_)[a-z_]+_chk\b", "no fortified libc call")
                self.assertIn("__stack_chk_fail", symbols)

    def test_lintian_of_unstable_on_source_and_binaries_reports_no_error_or_warning(self):
        system = self.system()
        changes = self.results["changes"]
        r = TIMINGS.run(
            "lintian (source and binaries)",
            lambda: system.run(
                ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "env", "HOME=/tmp"]
                + ["lintian", "--fail-on", "error,warning", "--display-info", "--pedantic", changes],
                check=False,
                timeout=900,
            ),
        )
        sys.stderr.write("lintian of unstable (pedantic and info reported, not failed on):\n%s" % r.stdout)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotRegex(r.stdout, r"(?m)^[EW]: ", r.stdout)

    def test_autopkgtest_runs_the_installed_flows(self):
        """autopkgtest with the built packages, on the sid overlay itself (the null virtualisation server). The
        test breaks its testbed (users, purge), which null cannot revert; the overlay is thrown away after it, so
        the restriction is waived."""
        system = self.system()
        debs = [deb for deb in self.results["deb"] if "-dbgsym_" not in deb]
        r = TIMINGS.run(
            "autopkgtest",
            lambda: system.run(
                [
                    "autopkgtest",
                    "--no-built-binaries",
                    "--ignore-restrictions=breaks-testbed",
                    *debs,
                    SOURCE + "/",
                    "--",
                    "null",
                ],
                check=False,
                timeout=1800,
            ),
        )
        self.assertEqual(r.returncode, 0, r.stdout[-6000:] + r.stderr[-6000:])
        self.assertRegex(r.stdout, r"(?m)^installed-flows\s+PASS", r.stdout[-3000:])
        self.assertIn("all flows held", r.stdout + r.stderr)

    def test_every_binary_packages_relations_resolve_on_unstable(self):
        """Depends and Recommends of each package (the surfaces' Qt, Plasma, SDDM and GNOME packages too) name
        packages unstable has, all installable together; pam-pattern itself is left out (it is the one built here),
        and pam-pattern-gnome's pins of gnome-shell to the versions it was tested on (43, 48) are checked to be
        exactly those, gnome-shell itself resolved unversioned."""
        relations = []
        for deb in self.results["deb"]:
            for name in ("Depends", "Recommends"):
                field = subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True).stdout
                entries = [
                    e.strip() for e in field.split(",") if e.strip() and not e.strip().startswith("pam-pattern ")
                ]
                if os.path.basename(deb).startswith(GNOME) and name == "Depends":
                    pins = [e for e in entries if e.startswith("gnome-shell")]
                    self.assertEqual(pins, GNOME_PINS, "pam-pattern-gnome's pins of the shells it was tested on")
                    entries = [e for e in entries if e not in pins] + ["gnome-shell"]
                relations += entries
        self.assertIn("plasma-workspace", relations)
        r = self.system().run(["apt-get", "satisfy", "-s", ", ".join(relations)], check=False, timeout=600)
        self.assertEqual(r.returncode, 0, "%s\n%s" % (relations, r.stdout[-1000:] + r.stderr[-2000:]))

    def test_upgrade_from_the_previous_release_keeps_everything_and_purge_after_it_is_exact(self):
        """The previous release's package (its tag's own `make deb`, the swift.org route) installed in sid, used
        (the profile enabled, a pattern set, a wrong one counted, a setting changed), then this source package's
        build installed over it as apt upgrades: every pattern, the throttle state and attempt records, the
        settings and PAM's stack are the same bytes and modes, the count goes on, the pattern still works; then
        purge leaves nothing of it."""
        tag = debian_source.previous_release()
        if tag is None:
            self.skipTest("no earlier release tag in this clone")
        previous = debian_source.previous_release_debs(tag, TIMINGS)["pam-pattern"]
        new = next(deb for deb in self.results["deb"] if os.path.basename(deb).startswith("pam-pattern_"))
        system = self.system()
        system.share(os.path.dirname(previous), read_only=True)
        apt = ["apt-get", "install", "-y", "--no-install-recommends", "-o", "Dpkg::Options::=--force-confold"]
        system.run(apt + [previous], timeout=300)
        for name in (ENROLLED, OTHER):
            system.run(["useradd", "-M", "-d", "/nonexistent", "-s", "/bin/sh", name])
            system.run(["chpasswd"], input="%s:Pw-%s-4711\n" % (name, name))
        system.run(["pam-auth-update", "--enable", "pattern"])
        system.run(["patternctl", "set", ENROLLED], input="%s\n%s\n" % (PATTERN, PATTERN))
        self.assertFalse(self.su(system, WRONG).returncode == 0, "su took a wrong pattern")
        self.assertEqual(self.failures(system), 1)
        system.sh("echo 'minlen = 5' >> /etc/security/pam_pattern.conf")
        before = snapshot(system, KEPT)
        self.assertTrue(any(path.startswith("/var/lib/pam_pattern/") for path in before), "no throttle state")

        system.run(apt + [new], timeout=300)
        installed = system.run(["dpkg-query", "-W", "-f", "${Version}", "pam-pattern"]).stdout
        self.assertEqual(installed, os.path.basename(new).split("_")[1])
        self.assertTrue(
            subprocess.run(["dpkg", "--compare-versions", installed, "gt", tag[1:]]).returncode == 0,
            "%s is no upgrade of %s" % (installed, tag),
        )
        after = snapshot(system, KEPT)
        # PAM's stack is the same but for the profile's own line, which pam-auth-update writes again from the new
        # release's profile (its options may change between releases): still enabled, now the new one's.
        stack = "/etc/pam.d/common-auth"
        self.assertEqual(
            {p: e for p, e in after.items() if p != stack}, {p: e for p, e in before.items() if p != stack}
        )
        self.assertEqual(after[stack][:3], before[stack][:3])
        with open(os.path.join(ROOT, "pam-configs", "pattern")) as f:
            shipped = [line.split("\t")[-1] for line in f.read().splitlines() if "pam_pattern.so" in line][0]
        with open(system.path(stack)) as f:
            self.assertIn(shipped, f.read(), "the upgrade did not keep the profile enabled with its new line")
        self.assertEqual(self.failures(system), 1, "the upgrade lost the count")
        right = self.su(system, PATTERN)
        # su ran `id -un` as ENROLLED, after the module's word on the failed attempt the upgrade kept
        self.assertEqual((right.returncode, right.stdout.split()[-1:]), (0, [ENROLLED]), right.stderr)
        self.assertIn("1 failed pattern attempt", right.stdout)

        system.run(["apt-get", "purge", "-y", "pam-pattern"], timeout=300)
        for path in ("/etc/security/pam_pattern", "/var/lib/pam_pattern", "/etc/security/pam_pattern.conf"):
            self.assertFalse(os.path.lexists(system.path(path)), "%s is left after purge" % path)
        left = system.sh("grep -rl pam_pattern /etc/pam.d || true").stdout.split()
        self.assertEqual(left, [], "PAM files still name pam_pattern after purge")

    @staticmethod
    def su(system, typed):
        """OTHER asks su for ENROLLED (the module runs in su, as root) with `typed` at the prompt."""
        return system.run(
            ["su", "-s", "/bin/sh", OTHER, "-c", "su -c 'id -un' %s" % ENROLLED], input=typed + "\n", check=False
        )

    @staticmethod
    def failures(system):
        return json.loads(system.run(["patternctl", "status", "--json", ENROLLED]).stdout)["failures"]


if __name__ == "__main__":
    unittest.main()
