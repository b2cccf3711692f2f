"""Debian 13 (trixie): the .deb `make deb` built here, installed in a trixie system (support.debian13: debootstrap
from the Debian mirror apt uses, cached under the build directory, an overlay of it per test in a private mount
namespace), and the installed-package tests run there: PackageTests' whole life (apt install, pam-auth-update,
sudo, reinstall, upgrade, remove, purge), FreshInstallTests' first pattern, and what only this suite does: Debian
13's lintian on the package, su, the pad at Debian 13's xsecurelock, i3lock, TPM mode on swtpm through the
installed helper, and no mount left behind (also after a failure).

The first run builds the cache (about 2.5 min, mostly downloads); the suite prints its time. Root only; no lock:
nothing of the host's is touched (swtpm runs on the host in a private temporary directory).
"""

import json
import os
import shutil
import subprocess
import sys
import time
import unittest
from collections import namedtuple

import test_fresh_install
import test_kde_package
import test_package
import test_sddm_package

from support import debian13, i3lock, kde, pad, sddm

PATTERN, WRONG = test_package.PATTERN, test_package.WRONG
ENROLLED, OTHER = test_package.ENROLLED, test_package.OTHER
PASSWORDS = test_package.PASSWORDS
User = namedtuple("User", "name uid")
STARTED = time.monotonic()


def setUpModule():
    if os.geteuid() != 0:
        raise unittest.SkipTest("needs root: debootstrap, chroot, mount namespaces")
    for tool in ("debootstrap", "unshare", "nsenter", "chroot"):
        if shutil.which(tool) is None:
            raise unittest.SkipTest("%s is not installed (make deps)" % tool)
    began = time.monotonic()
    fresh = not os.path.exists(debian13.STAMP)
    debian13.cached_root()
    if fresh:
        sys.stderr.write("Debian 13 root built and cached in %.0f s\n" % (time.monotonic() - began))


def tearDownModule():
    sys.stderr.write("Debian 13 suite: %.0f s\n" % (time.monotonic() - STARTED))


class Debian13Package(test_package.PackageTests):
    NAMESPACE = debian13.Debian13

    def installed(self):
        """A trixie overlay with the package installed, the profile enabled, ENROLLED holding PATTERN and OTHER
        without a pattern (both with passwords)."""
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(os.path.dirname(self.deb))
        ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.deb], timeout=300)
        for name, password in PASSWORDS.items():
            ns.run(["useradd", "-M", "-d", "/nonexistent", "-s", "/bin/sh", name])
            ns.run(["chpasswd"], input="%s:%s\n" % (name, password))
        ns.run(["pam-auth-update", "--enable", "pattern"])
        return ns

    def user(self, ns, name):
        return User(name, int(ns.run(["id", "-u", name]).stdout))

    def test_lintian_of_debian_13_reports_nothing_beyond_the_documented_overrides(self):
        """Debian 13's lintian refuses a module under /lib ("aliased-location")."""
        debian13_lintian(self, self.deb)

    def test_depends_and_recommends_resolve_on_debian_13(self):
        """The fields dpkg-shlibdeps and build-deb.sh wrote on this machine name packages Debian 13 has (its tss2
        libraries are the t64 renames, which provide the old names)."""
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        for name in ("Depends", "Recommends"):
            with self.subTest(name):
                field = self.field(name)
                r = ns.run(["apt-get", "satisfy", "-s", field], check=False)
                self.assertEqual(r.returncode, 0, "%s: %s\n%s%s" % (name, field, r.stdout, r.stderr))

    def test_su_with_the_pattern(self):
        ns = self.installed()
        ns.run(["patternctl", "set", ENROLLED], input="%s\n%s\n" % (PATTERN, PATTERN))

        def su(typed):
            # OTHER asks su for ENROLLED: su authenticates ENROLLED (the module in su, as root).
            return ns.run(
                ["su", "-s", "/bin/sh", OTHER, "-c", "su -c 'id -un' %s" % ENROLLED], input=typed, check=False
            )

        right = su(PATTERN + "\n")
        self.assertEqual((right.returncode, right.stdout.strip()), (0, ENROLLED), right.stderr)
        self.assertIn("Pattern", right.stderr)
        wrong = su(WRONG + "\n")
        self.assertNotEqual(wrong.returncode, 0, wrong.stdout)
        self.assertNotIn(ENROLLED, wrong.stdout)

    def test_i3lock_and_the_pad_at_xsecurelock_unlock_through_the_installed_helper(self):
        """Both run PAM as the user: the module asks the installed setuid helper."""
        ns = self.installed()
        ns.run(["patternctl", "set", ENROLLED], input="%s\n%s\n" % (PATTERN, PATTERN))
        user = self.user(ns, ENROLLED)

        ns.sh("mkdir -m 0755 /tmp/i3lock")
        sandbox = Sandbox(ns, "/tmp/i3lock")
        self.assertEqual(i3lock.session(sandbox, user, WRONG, PATTERN), ["step 1 locked", "step 2 unlocked rc=0"])

        ns.sh("mkdir -m 0755 /tmp/pad")
        job = {
            "root": "/tmp/pad",
            "screen": list(pad.SCREEN),
            "spacing": pad.SPACING,
            "centre": list(pad.CENTRE),
            "user": user.name,
            "home": "/nonexistent",
            "pad": pad.INSTALLED_PAD,
            "setpriv": ["setpriv", "--reuid=%d" % user.uid, "--regid=%d" % user.uid, "--clear-groups"],
            "env": {},
            "steps": [{"op": "wake"}, {"op": "drag", "path": pad.dots(PATTERN)}, {"op": "wait", "timeout": 30}],
        }
        done = ns.run(["python3", "-c", pad.DRIVER, json.dumps(job)], check=False, timeout=180)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout)
        with open(ns.path("/tmp/pad/xsecurelock.log"), "rb") as f:
            locker_log = f.read().decode(errors="replace")
        wake = next(s for s in report["steps"] if s["op"] == "wake")
        self.assertTrue(wake["pad"] and wake["ready"], "the pad did not come up: %r\n%s" % (report, locker_log))
        waited = [s for s in report["steps"] if s["op"] == "wait"]
        self.assertTrue(waited and waited[-1]["unlocked"], "%r\n%s" % (report, locker_log))

    def test_a_tpm_mode_pattern_unlocks_sudo(self):
        """The pattern PackageTests.in_tpm_mode set on swtpm (its socket shared into the system): sudo takes it
        (the module as root, the TPM through the installed helper) and refuses a wrong one."""
        tpm, ns = self.in_tpm_mode()
        ns.run(["pam-auth-update", "--enable", "pattern"])
        ns.sh(
            "printf '%%s\\n' 'Defaults:%s !lecture, passwd_tries=1' '%s ALL=(root) /usr/bin/id' > %s && chmod 0440 %s"
            % (ENROLLED, ENROLLED, test_package.SUDOERS_DROPIN, test_package.SUDOERS_DROPIN)
        )
        self.assertTrue(self.sudo(ns, ENROLLED, PATTERN).ok, "the TPM-held pattern did not unlock sudo")
        self.assertFalse(self.sudo(ns, ENROLLED, WRONG).ok)
        self.assertEqual(len(self.tpm_indexes(tpm)), 2, "the pattern's index and the session key")


class Debian13KdePackage(test_kde_package.KdePackageTests):
    """pam-pattern-kde installed beside pam-pattern in Debian 13 (its Depends resolve there: kscreenlocker, Plasma
    6's greeter, and plasma-workspace), and Debian 13's lintian on it."""

    NAMESPACE = debian13.Debian13

    def test_lintian_of_debian_13_reports_nothing(self):
        debian13_lintian(self, self.deb, fail_on="error,warning,info")

    def test_plasma_6_greeter_unlocks_with_the_right_drawing_after_counting_a_wrong_one(self):
        """Plasma 6.3's real kscreenlocker_greet --testing --shell (the shell package as installed) under Xvfb, run
        by the user, the profile enabled (the PAM service `kde`: Debian 13's libkscreenlocker6 ships
        /usr/lib/pam.d/kde, which includes common-auth): a wrong drawing is judged and counted once (the module's
        message says 4 tries are left), the right one unlocks."""
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(os.path.dirname(self.deb))
        ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.base, self.deb], timeout=300)
        ns.run(["useradd", "-m", "-s", "/bin/sh", ENROLLED])
        ns.run(["chpasswd"], input="%s:%s\n" % (ENROLLED, PASSWORDS[ENROLLED]))
        ns.run(["pam-auth-update", "--enable", "pattern"])
        ns.run(["patternctl", "set", ENROLLED], input="%s\n%s\n" % (PATTERN, PATTERN))
        # What pam_pattern(8) and the reference say of the service `kde` on Debian 13.
        self.assertFalse(os.path.exists(ns.path("/etc/pam.d/kde")))
        with open(ns.path("/usr/lib/pam.d/kde")) as f:
            self.assertRegex(f.read(), r"(?m)^@include common-auth$")
        uid = int(ns.run(["id", "-u", ENROLLED]).stdout)
        ns.sh("mkdir -m 0755 /tmp/kde")
        job = {
            "root": "/tmp/kde",
            "screen": [1024, 768],
            "user": ENROLLED,
            "uid": uid,
            "home": "/home/" + ENROLLED,
            "setpriv": ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups"],
            "greeter": kde.GREETER,
            "theme": kde.INSTALLED_SHELL,
            "theme_option": "--shell",
            "env": {},
            "steps": [
                {"op": "drag", "path": pad.dots(WRONG)},
                {"op": "until", "text": "wrong pattern", "timeout": 30},
                {"op": "sleep", "seconds": 1.2},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "until", "text": "unlocked", "timeout": 30},
            ],
        }
        done = ns.run(["python3", "-c", kde.DRIVER, json.dumps(job)], check=False, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout)
        self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
        said = [line.split("pam_pattern: ", 1)[1] for line in report["log"].splitlines() if "pam_pattern: " in line]
        self.assertTrue(report["steps"][1]["found"], report["log"])
        counted = [line for line in said if line.startswith("message Wrong pattern. 4 tries left before a wait.")]
        self.assertEqual(len(counted), 1, report["log"])
        self.assertTrue(report["steps"][4]["found"], report["log"])
        self.assertEqual([line for line in said if line.startswith("pattern sent")], ["pattern sent"] * 2)


class Debian13SddmPackage(test_sddm_package.SddmPackageTests):
    """pam-pattern-sddm installed beside pam-pattern in Debian 13 (its Depends resolve there: SDDM 0.21 and the
    QML modules), and Debian 13's lintian on it."""

    NAMESPACE = debian13.Debian13

    def test_lintian_of_debian_13_reports_nothing(self):
        debian13_lintian(self, self.deb, fail_on="error,warning,info")

    def test_the_installed_theme_loads_in_debian_13s_greeter(self):
        """SDDM 0.21's Qt 6 greeter (sddm-greeter-qt6, the one the theme's QtVersion=6 names; Debian 13 ships no
        other) loads the installed theme in test mode with nothing said about its files, and shows the grid."""
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(os.path.dirname(self.deb))
        ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.base, self.deb], timeout=300)
        ns.sh("mkdir -m 0700 /tmp/test-mode")
        script = sddm.test_mode_script(ns.path("/tmp/test-mode"), test_sddm_package.THEME, 10, inside="/tmp/test-mode")
        done = ns.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script], check=False, timeout=120)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        said = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertEqual(said["greeter"], "/usr/bin/sddm-greeter-qt6")
        self.maxDiff = None
        self.assertEqual(sddm.test_mode_problems(said, test_sddm_package.THEME), [], said)


def debian13_lintian(test, deb, fail_on="error,warning"):
    """Debian 13's lintian on `deb`, as nobody: it must report nothing at the levels of fail_on (beyond the
    package's own documented overrides)."""
    ns = test.NAMESPACE()
    test.addCleanup(ns.close)
    ns.sh("mkdir -m 0755 /tmp/lint")
    shutil.copy(deb, ns.path("/tmp/lint"))
    version = ns.run(["lintian", "--version"]).stdout.strip()
    r = ns.run(
        ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "env", "HOME=/tmp/lint"]
        + ["lintian", "--fail-on", fail_on, "--info", "/tmp/lint/" + os.path.basename(deb)],
        check=False,
        timeout=300,
    )
    test.assertEqual(r.returncode, 0, "%s:\n%s%s" % (version, r.stdout, r.stderr))
    levels = "".join(level[0].upper() for level in fail_on.split(","))
    test.assertNotRegex(r.stdout, r"(?m)^[%s]: " % levels, "%s:\n%s" % (version, r.stdout))


class Debian13FreshInstall(test_fresh_install.FreshInstallTests):
    NAMESPACE = debian13.Debian13


class Sandbox:
    """What support.i3lock wants of a sandbox: a directory (`root`, inside) and `run(script)` as root there."""

    def __init__(self, ns, root):
        self.ns, self.root = ns, root

    def run(self, script, timeout):
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"}
        return subprocess.run(self.ns.enter(["bash", "-c", script]), capture_output=True, timeout=timeout, env=env)


@unittest.skipUnless(os.geteuid() == 0, "needs root: mount namespaces")
class Debian13Mounts(unittest.TestCase):
    def test_no_mount_is_left_behind_also_after_a_failure(self):
        """The overlay, /proc and /dev exist inside (seen from the holder), never in the host's mount table, and
        are gone with the namespace even when the test inside fails."""
        before = debian13.mounts_under(debian13.CACHE, "/tmp")
        seen = {}
        with self.assertRaises(AssertionError):
            with debian13.Debian13() as system:
                namespace = system.namespace()
                with open("/proc/%d/mountinfo" % system.holder.pid) as f:
                    inside = [line.split()[4] for line in f]
                seen["inside"] = [p for p in inside if p.startswith(system.merged)]
                seen["host"] = debian13.mounts_under(system.dir, debian13.CACHE)
                system.run(["false"])  # a failing step: AssertionError leaves the with block
        for point in ("", "/proc", "/dev", "/dev/pts"):
            self.assertIn(system.merged + point, seen["inside"])
        self.assertEqual(seen["host"], [], "a mount reached the host's mount table")
        self.assertEqual(debian13.processes_in(namespace), [], "the namespace outlived the failure")
        self.assertFalse(os.path.exists(system.dir))
        self.assertEqual(debian13.mounts_under(debian13.CACHE, "/tmp"), before)


# Of PackageTests, what only an installed system shows (the package's bytes are PackageTests' on the host).
ON_DEBIAN_13 = {
    Debian13Package: [
        "test_life_install_enable_sudo_upgrade_remove_purge",
        "test_lintian_of_debian_13_reports_nothing_beyond_the_documented_overrides",
        "test_depends_and_recommends_resolve_on_debian_13",
        "test_su_with_the_pattern",
        "test_i3lock_and_the_pad_at_xsecurelock_unlock_through_the_installed_helper",
        "test_a_tpm_mode_pattern_unlocks_sudo",
        "test_purge_deletes_the_tpm_indexes_of_its_patterns",
    ],
    Debian13KdePackage: [
        "test_installed_beside_pam_pattern_then_removed_leaves_nothing",
        "test_lintian_of_debian_13_reports_nothing",
        "test_plasma_6_greeter_unlocks_with_the_right_drawing_after_counting_a_wrong_one",
    ],
    Debian13SddmPackage: [
        "test_installed_beside_pam_pattern_turns_nothing_on_and_purged_leaves_nothing",
        "test_lintian_of_debian_13_reports_nothing",
        "test_the_installed_theme_loads_in_debian_13s_greeter",
    ],
    Debian13FreshInstall: ["test_a_new_user_sets_checks_changes_and_removes_a_pattern_as_the_readme_says"],
    Debian13Mounts: ["test_no_mount_is_left_behind_also_after_a_failure"],
}


def load_tests(loader, tests, pattern):
    suite = unittest.TestSuite()
    for case, names in ON_DEBIAN_13.items():
        suite.addTests(case(name) for name in names)
    return suite


if __name__ == "__main__":
    unittest.main()
