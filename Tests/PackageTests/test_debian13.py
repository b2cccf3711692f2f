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
import stat
import subprocess
import sys
import time
import unittest
from collections import namedtuple

import test_fresh_install
import test_gnome_package
import test_kde_package
import test_lightdm_package
import test_package
import test_sddm_package
import test_wayland_package

from support import debian13, debs, formats, i3lock, kde, pad, screen, sddm
from support.paths import ROOT

PATTERN, WRONG = test_package.PATTERN, test_package.WRONG
sha256 = test_package.sha256
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
        ns = self.plasma_6_installed()
        # What pam_pattern(8) and the reference say of the service `kde` on Debian 13.
        self.assertFalse(os.path.exists(ns.path("/etc/pam.d/kde")))
        with open(ns.path("/usr/lib/pam.d/kde")) as f:
            self.assertRegex(f.read(), r"(?m)^@include common-auth$")
        self.assert_wrong_counted_then_right_unlocks(ns, kde.INSTALLED_SHELL)

    def test_plasma_6_wrong_drawing_shows_red_then_while_locked_the_countdown_runs_no_drawing_is_taken_and_the_password_unlocks(
        self,
    ):
        """One session of Plasma 6's greeter (--shell, the installed shell package), 3 failures a moment ago: a wrong
        drawing is counted once (the module says 1 try is left) and its dots show red a while (the check of Plasma
        5.27's and the SDDM theme's tests, support.pad.wrong_drawing_red_a_while); another wrong one is judged and
        locks the pattern (the module's wait); the countdown runs (the lock screen's "countdown N", a second
        apart); the right drawing made then is neither sent nor counted; the password typed in the field unlocks,
        counting nothing."""
        ns = self.plasma_6_installed()
        formats.write_state(ns.path(test_package.STATE_DIR), ENROLLED, 3, int(time.time()))
        steps = [
            {"op": "drag", "path": pad.dots(WRONG)},
            {"op": "until", "text": "wrong pattern", "timeout": 30},
            {"op": "shots", "name": "wrong", "count": 6, "every": 0.1},
            {"op": "sleep", "seconds": 1.5},
            {"op": "shot", "name": "after.xwd"},
            {"op": "drag", "path": pad.dots(ANOTHER_WRONG)},
            {"op": "until", "text": "locked for", "timeout": 30},
            {"op": "until", "text": "countdown", "count": 2},
            {"op": "drag", "path": pad.dots(PATTERN)},
            {"op": "sleep", "seconds": 1},
            {"op": "type", "text": PASSWORDS[ENROLLED]},
            {"op": "key", "name": "Return"},
            {"op": "until", "text": "unlocked", "timeout": 30},
        ]
        report = self.greeter(ns, steps, kde.INSTALLED_SHELL)
        self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
        log = report["log"]
        self.assertTrue(report["steps"][1]["found"], log)
        self.assertEqual(len(kde.logged(log, "message Wrong pattern. 1 try left before a wait.")), 1, log)
        # The dots where they were then: the longer message of the wait moves the grid down later.
        said = kde.logged(log, "")
        centres = pad.grid_centres(
            [line for line in said[: said.index("wrong pattern")] if line.startswith("grid ")][-1]
        )
        pad.wrong_drawing_red_a_while(self, centres, lambda name: greeter_shot(ns, name), WRONG)

        self.assertTrue(report["steps"][6]["found"], log)
        self.assertEqual(len(kde.logged(log, "message Wrong pattern. Too many wrong patterns: try again in ")), 1, log)
        left = [int(line.split()[1]) for line in kde.logged(log, "countdown")]
        self.assertTrue(55 <= left[0] <= 60 and left[1] == left[0] - 1, left)
        self.assertTrue(report["steps"][-1]["found"], log)
        # The two wrong drawings; the one made while locked was not sent.
        self.assertEqual(kde.logged(log, "pattern sent"), ["pattern sent"] * 2, log)
        self.assertEqual(formats.failures(ns.path(test_package.STATE_DIR), ENROLLED), 5)

    def test_plasma_6_fast_diagonal_takes_the_middle_dot_a_3_dot_drag_is_not_sent_and_a_drawing_after_a_wrong_one_is_judged(
        self,
    ):
        """One session, the pattern 6357284: a 3-dot drag is shaken off unsent; a wrong drawing, then 0.6 s after
        its release the pattern drawn as 6, 3, 7, 2, 8, 4 with one pointer sample a segment (3 to 7 must take 5 on
        the way) unlocks: the drawing made at once after a wrong one is judged, and the fast diagonal took the
        middle dot."""
        ns = self.plasma_6_installed(DIAGONAL)
        steps = [
            {"op": "drag", "path": [1, 2, 3]},
            {"op": "until", "text": "shaken off"},
            {"op": "drag", "path": pad.dots(WRONG)},
            {"op": "sleep", "seconds": 0.6},
            {"op": "drag", "path": [6, 3, 7, 2, 8, 4], "steps": 1},
            {"op": "until", "text": "unlocked", "timeout": 30},
        ]
        report = self.greeter(ns, steps, kde.INSTALLED_SHELL)
        self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
        log = report["log"]
        self.assertEqual(kde.logged(log, "shaken off"), ["shaken off 3"], log)
        self.assertTrue(report["steps"][-1]["found"], log)
        self.assertEqual(kde.logged(log, "pattern sent"), ["pattern sent"] * 2, log)

    def test_plasma_6_tells_a_wrong_password_after_a_wrong_drawing_and_a_person_without_a_pattern_sees_no_grid(self):
        """Plasma 6's greeter on the installed shell package, the feedback KDETests check at 5.27: a wrong
        password typed after a wrong drawing is told ("Unlocking failed" in place of the drawing's words) and the
        next drawing is taken; then, the pattern removed, the grid is not shown, a drawing where it was is
        nothing, and the password unlocks."""
        ns = self.plasma_6_installed()
        steps = [
            {"op": "drag", "path": pad.dots(WRONG)},
            {"op": "until", "text": "wrong pattern", "timeout": 30},
            {"op": "sleep", "seconds": 1.2},
            {"op": "type", "text": "not-the-password"},
            {"op": "key", "name": "Return"},
            {"op": "until", "text": "wrong password", "timeout": 30},
            {"op": "sleep", "seconds": 1},
            {"op": "drag", "path": pad.dots(PATTERN)},
            {"op": "until", "text": "unlocked", "timeout": 30},
        ]
        report = self.greeter(ns, steps, kde.INSTALLED_SHELL)
        self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
        log = report["log"]
        self.assertTrue(report["steps"][5]["found"], log)
        messages = kde.logged(log, "message ")
        self.assertTrue(messages[0].startswith("message Wrong pattern. 4 tries left before a wait."), messages)
        self.assertIn("message Unlocking failed", messages, log)
        self.assertTrue(report["steps"][-1]["found"], log)

        ns.run(["patternctl", "remove", ENROLLED])
        steps = [
            {"op": "sleep", "seconds": 1.5},
            {"op": "drag", "path": pad.dots(PATTERN)},
            {"op": "sleep", "seconds": 1},
            {"op": "type", "text": PASSWORDS[ENROLLED]},
            {"op": "key", "name": "Return"},
            {"op": "until", "text": "unlocked", "timeout": 30},
        ]
        report = self.greeter(ns, steps, kde.INSTALLED_SHELL)
        self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
        log = report["log"]
        self.assertTrue(report["steps"][-1]["found"], log)
        self.assertEqual(kde.logged(log, "no pattern"), ["no pattern"], log)
        self.assertEqual(kde.logged(log, "pattern sent"), [], log)

    def test_plasma_6_looks_like_breeze_the_configured_wallpaper_the_clock_and_the_date(self):
        """Plasma 6's greeter on the installed shell package: Breeze's parts around the grid, as at 5.27
        (support.kde.assert_looks_like_breeze: the wallpaper configured in kscreenlockerrc found in the
        screenshot's pixels, the live clock and today's date drawn, the avatar)."""
        ns = self.plasma_6_installed()
        uid = int(ns.run(["id", "-u", ENROLLED]).stdout)
        kde.configure_lock_wallpaper(ns.path("/home/" + ENROLLED), "/home/" + ENROLLED, uid)
        started = time.time()
        steps = [
            {"op": "sleep", "seconds": 2},
            {"op": "shot", "name": "one.xwd"},
            {"op": "sleep", "seconds": 2.2},
            {"op": "shot", "name": "two.xwd"},
        ]
        report = self.greeter(ns, steps, kde.INSTALLED_SHELL)
        self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
        one, two = greeter_shot(ns, "one.xwd"), greeter_shot(ns, "two.xwd")
        kde.assert_looks_like_breeze(self, report["log"], one, two, started, ENROLLED)

    def test_plasma_6_screenshots_beside_the_stock_lock_screen(self):
        """docs/kde-lock-screen-6.png (a drawing in progress) and docs/kde-breeze-6.png (Plasma 6's stock lock
        screen, woken by a key), same user, same settings; made anew by `make screenshots`
        (PAM_PATTERN_UPDATE_SCREENSHOT=1) or when missing, else the committed ones must be the greeter's size."""
        ours, stock = (os.path.join(ROOT, "docs", name) for name in ("kde-lock-screen-6.png", "kde-breeze-6.png"))
        if os.environ.get("PAM_PATTERN_UPDATE_SCREENSHOT") == "1" or not (
            os.path.exists(ours) and os.path.exists(stock)
        ):
            ns = self.plasma_6_installed()
            ns.run(["chfn", "-f", "Alex Doe", ENROLLED])
            steps = [
                {"op": "sleep", "seconds": 1.5},
                {"op": "drag", "path": pad.dots(PATTERN)[:5], "shots_before_release": ["ours.xwd"]},
            ]
            report = self.greeter(ns, steps, kde.INSTALLED_SHELL)
            self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
            pad.keep(ours, greeter_shot(ns, "ours.xwd"))
            steps = [
                {"op": "key", "name": "shift"},
                {"op": "sleep", "seconds": 2.5},
                {"op": "shot", "name": "stock.xwd"},
            ]
            self.greeter(ns, steps, kde.STOCK_SHELL, ready_after=6)
            pad.keep(stock, greeter_shot(ns, "stock.xwd"))
        for path in (ours, stock):
            image = screen.read_png(path)
            self.assertEqual((image.width, image.height), (1024, 768), path)

    def test_plasma_6_on_makes_the_lock_screen_everyones_and_off_gives_the_stock_one_back_changing_nothing_else(self):
        """`plasma6-lock-screen on`, as root: the greeter's own lookup (no --shell: plasmashellrc names no shell,
        so org.kde.plasma.desktop, the first in $XDG_DATA_DIRS) shows the pattern lock screen, a wrong drawing is
        counted once and the right one unlocks; the copy is the stock shell's files with ours in contents/lockscreen
        and a stamp. Nothing else under /etc, /usr, /var/lib or the person's home changes; `off` gives the tree
        back as it was, and the greeter shows the stock lock screen again."""
        ns = self.plasma_6_installed()
        before = tree(ns)
        self.assertNotIn(kde.PLASMA6_COPY, before)
        self.assertEqual(self.plasma_6(ns, "status").stdout, "off\n")

        on = self.plasma_6(ns, "on")
        self.assertIn("on: the lock screen of Plasma 6 is the pattern's for everyone", on.stderr)
        self.assertEqual(self.plasma_6(ns, "status").stdout, "on\n")
        made = ["/usr/local/share/plasma", "/usr/local/share/plasma/shells"]
        self.assertEqual(
            [p for p in differences(before, tree(ns)) if p not in made and not p.startswith(kde.PLASMA6_COPY + "/")],
            [kde.PLASMA6_COPY],
            "on changed more than its copy",
        )
        self.assertEqual(self.copy_files(ns), self.expected_copy(ns))
        with open(ns.path(kde.PLASMA6_COPY + "/" + STAMP)) as f:
            stamp = f.read()
        self.assertRegex(stamp, r"(?m)^source-package plasma-desktop-data 4:6\.")
        stock_sum = ns.sh(
            "cd %s && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum" % kde.STOCK_SHELL
        ).stdout.split()[0]
        self.assertIn("source-sha256 " + stock_sum, stamp)
        off = self.plasma_6(ns, "off")
        self.assertIn("off: the stock lock screen again", off.stderr)
        self.assertEqual(differences(before, tree(ns)), [], "off did not give the tree back as it was")

        # At the greeter (which writes the throttle's state and the person's cache: the trees are compared above).
        self.plasma_6(ns, "on")
        report = self.assert_wrong_counted_then_right_unlocks(ns, None)
        self.assertIn("file://%s/contents/lockscreen/LockScreen.qml" % kde.PLASMA6_COPY, report["log"])
        self.plasma_6(ns, "off")
        stock = self.greeter(ns, [], None, ready_timeout=20)
        self.assertFalse(stock["ready"], "the pattern lock screen is still shown:\n%s" % stock["log"])
        self.assertIn(kde.STOCK_SHELL + "/contents/lockscreen/", stock["log"], "the stock lock screen was not loaded")

    def test_plasma_6_copy_is_made_again_whole_when_the_stock_shell_changes_and_goes_with_the_package(self):
        """A Plasma upgrade, simulated: a file of the stock shell changed and a new one, then dpkg's trigger on the
        shell's directory (dpkg-trigger, as an unpacked upgrade activates it; dpkg --triggers-only runs the
        postinst): the copy is made again from the changed shell. During 30 refreshes a reader never finds the
        copy in part (built beside, then exchanged by one rename). Removing pam-pattern-kde removes the copy."""
        ns = self.plasma_6_installed()
        before = tree(ns)
        self.plasma_6(ns, "on")
        views = kde.STOCK_SHELL + "/contents/views/Desktop.qml"
        ns.sh("echo '// upgraded' >> %s && echo upgraded > %s/contents/new-in-this-upgrade" % (views, kde.STOCK_SHELL))
        self.assertRegex(self.plasma_6(ns, "status").stdout, r"^on, but stale: ")
        ns.run(["dpkg-trigger", "--no-await", kde.STOCK_SHELL])
        self.assertIn("triggers-pending", ns.run(["dpkg-query", "-W", "-f", "${Status}", debs.KDE]).stdout)
        done = ns.run(["dpkg", "--triggers-only", "--pending"])
        self.assertIn("refreshed " + kde.PLASMA6_COPY, done.stdout + done.stderr)
        self.assertEqual(self.plasma_6(ns, "status").stdout, "on\n")
        self.assertEqual(self.copy_files(ns), self.expected_copy(ns))
        with open(ns.path(kde.PLASMA6_COPY + "/contents/views/Desktop.qml")) as f:
            self.assertTrue(f.read().endswith("// upgraded\n"))

        # Looks by path, as the greeter opens the package's files: each look finds every file of the copy, or not.
        whole = sorted(self.copy_files(ns)) + [STAMP]
        reader = (
            "import os, sys\nn = bad = 0\nwhile not os.path.exists('/tmp/stop'):\n"
            "    n += 1\n    bad += not all(os.path.isfile(%r + '/' + f) for f in %r)\nprint(n, bad)\n"
            % (kde.PLASMA6_COPY, whole)
        )
        watcher = subprocess.Popen(ns.enter(["python3", "-c", reader]), stdout=subprocess.PIPE, text=True)
        try:
            ns.sh(
                "for i in $(seq 30); do %s refresh 2>/dev/null; done; touch /tmp/stop" % kde.PLASMA6_COMMAND,
                timeout=300,
            )
            looked, partial = (int(v) for v in watcher.communicate(timeout=60)[0].split())
        finally:
            watcher.kill()
        self.assertGreater(looked, 30, "the reader hardly looked")
        self.assertEqual(partial, 0, "%d of %d looks found the copy in part or missing" % (partial, looked))

        removed = ns.run(["dpkg", "-r", debs.KDE])
        self.assertIn("off: the stock lock screen again", removed.stderr)
        self.assertEqual(tree(ns, "/usr/local"), tree_of(before, "/usr/local"), "the copy outlived the package")

    def test_plasma_6_plasmashell_takes_the_copy_as_its_desktop_shell_under_the_same_name(self):
        """With it on, plasmashell (run as the user for 25 s under Xvfb, in a D-Bus session of its own) finds the
        same copy first: its views are loaded from /usr/local/share, none from the stock shell, and the person's
        panels and widgets stay in plasma-org.kde.plasma.desktop-appletsrc, the file they were in before."""
        ns = self.plasma_6_installed()
        self.plasma_6(ns, "on")
        report = self.greeter(ns, [], None, ready_timeout=25, command=["dbus-run-session", "plasmashell"])
        self.assertIn("file://%s/contents/views/Desktop.qml" % kde.PLASMA6_COPY, report["log"])
        self.assertNotIn("file://%s/contents/" % kde.STOCK_SHELL, report["log"])
        config = os.listdir(ns.path("/home/%s/.config" % ENROLLED))
        self.assertEqual([n for n in config if n.endswith("-appletsrc")], ["plasma-org.kde.plasma.desktop-appletsrc"])

    def test_plasma_6_on_refuses_a_copy_it_did_not_make(self):
        """An org.kde.plasma.desktop in /usr/local/share that is not the command's (no stamp): on, off and the
        trigger's refresh leave it as it was, and on and off say why."""
        ns = self.plasma_6_installed()
        ns.sh("mkdir -p %s/contents && echo mine > %s/contents/own-file" % (kde.PLASMA6_COPY, kde.PLASMA6_COPY))
        before = tree(ns)
        for action in ("on", "off"):
            with self.subTest(action):
                r = self.plasma_6(ns, action, check=False)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn("was not made by plasma6-lock-screen", r.stderr)
        self.assertEqual(self.plasma_6(ns, "status").stdout, "off: %s is someone else's\n" % kde.PLASMA6_COPY)
        self.assertEqual(self.plasma_6(ns, "refresh").returncode, 0)
        ns.run(["dpkg", "-r", debs.KDE])
        self.assertEqual(tree(ns, "/usr/local"), tree_of(before, "/usr/local"))

    # -- Plasma 6 ------------------------------------------------------------

    def plasma_6_installed(self, pattern=PATTERN):
        """Debian 13 with pam-pattern and this package, ENROLLED (a home, a password and `pattern`), the profile
        enabled."""
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(os.path.dirname(self.deb))
        ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.base, self.deb], timeout=300)
        ns.run(["useradd", "-m", "-s", "/bin/sh", ENROLLED])
        ns.run(["chpasswd"], input="%s:%s\n" % (ENROLLED, PASSWORDS[ENROLLED]))
        ns.run(["pam-auth-update", "--enable", "pattern"])
        ns.run(["patternctl", "set", ENROLLED], input="%s\n%s\n" % (pattern, pattern))
        return ns

    def plasma_6(self, ns, action, check=True):
        return ns.run([kde.PLASMA6_COMMAND, action], check=check, timeout=120)

    def greeter(self, ns, steps, shell, ready_timeout=60, command=None, ready_after=None):
        """Plasma 6's greeter, kscreenlocker_greet --testing, as ENROLLED under Xvfb: on `shell` (--shell), or
        (None) on the one its own lookup finds, as a real lock does; or `command` in its place. ready_after: taken
        as up that many seconds after it started (a lock screen that does not log the grid, the stock one)."""
        uid = int(ns.run(["id", "-u", ENROLLED]).stdout)
        ns.sh("rm -rf /tmp/kde && mkdir -m 0755 /tmp/kde")
        job = {
            "root": "/tmp/kde",
            "screen": [1024, 768],
            "user": ENROLLED,
            "uid": uid,
            "home": "/home/" + ENROLLED,
            "setpriv": ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups"],
            "greeter": kde.GREETER,
            "theme": shell,
            "theme_option": "--shell",
            "ready_timeout": ready_timeout,
            "command": command,
            # The greeter's own lookup: the QML files the engine loads, by path, in the log (which lock screen it is).
            "env": {"QML_IMPORT_TRACE": "1"} if shell is None else {},
            "debug_rules": kde.DEBUG_RULES,
            "steps": steps,
            "ready_after": ready_after,
        }
        done = ns.run(["python3", "-c", kde.DRIVER, json.dumps(job)], check=False, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def assert_wrong_counted_then_right_unlocks(self, ns, shell):
        steps = [
            {"op": "drag", "path": pad.dots(WRONG)},
            {"op": "until", "text": "wrong pattern", "timeout": 30},
            {"op": "sleep", "seconds": 1.2},
            {"op": "drag", "path": pad.dots(PATTERN)},
            {"op": "until", "text": "unlocked", "timeout": 30},
        ]
        report = self.greeter(ns, steps, shell)
        self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
        self.assertTrue(report["steps"][1]["found"], report["log"])
        counted = kde.logged(report["log"], "message Wrong pattern. 4 tries left before a wait.")
        self.assertEqual(len(counted), 1, report["log"])
        self.assertTrue(report["steps"][4]["found"], report["log"])
        self.assertEqual(kde.logged(report["log"], "pattern sent"), ["pattern sent"] * 2)
        return report

    def copy_files(self, ns):
        """{path inside the copy: sha256} of its files, the stamp apart."""
        return files_of(ns, kde.PLASMA6_COPY, skip=STAMP)

    def expected_copy(self, ns):
        """The stock shell's files with contents/lockscreen ours."""
        expected = {p: h for p, h in files_of(ns, kde.STOCK_SHELL).items() if not p.startswith("contents/lockscreen/")}
        ours = files_of(ns, kde.INSTALLED_SHELL + "/contents/lockscreen")
        expected.update({"contents/lockscreen/" + p: h for p, h in ours.items()})
        return expected


def greeter_shot(ns, name):
    """A screenshot a greeter session took (Debian13KdePackage.greeter), as a support.screen.Image."""
    with open(ns.path("/tmp/kde/" + name), "rb") as f:
        return screen.parse_xwd(f.read())


# A wrong drawing other than WRONG (the module counts no wrong drawing again within 5 minutes), and a pattern
# whose drawing crosses the middle dot on a diagonal (6, 3, 7 takes 5 on the way).
ANOTHER_WRONG, DIAGONAL = "12369", "6357284"

# The stamp that marks plasma6-lock-screen's copy as its own.
STAMP = ".pam-pattern-lock-screen"


def files_of(ns, top, skip=None):
    """{path below top: sha256} of the regular files under top, inside ns."""
    found = {}
    root = ns.path(top)
    for directory, _, names in os.walk(root):
        for name in names:
            rel = os.path.relpath(os.path.join(directory, name), root)
            if rel != skip:
                found[rel] = sha256(os.path.join(directory, name))
    return found


# What the on/off commands must leave alone, compared whole (mode, owner, a file's size and time, a link's target): the
# configuration (/etc, the person's home with ~/.config), /usr (/usr/share and /usr/local) and /var/lib.
WATCHED = ("/etc", "/usr", "/var/lib", "/home")


def differences(before, after):
    """The paths whose entry differs between two tree()s (added, removed or changed)."""
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def tree_of(found, top):
    """The part of a tree() below top."""
    return {p: v for p, v in found.items() if p.startswith(top + "/")}


def tree(ns, *tops):
    """{path: (mode, uid, gid, size, mtime_ns, link target)} of everything under tops (WATCHED) inside ns."""
    found = {}
    for top in tops or WATCHED:
        root = ns.path(top)
        for directory, dirs, names in os.walk(root):
            for name in dirs + names:
                full = os.path.join(directory, name)
                st = os.lstat(full)
                link = os.readlink(full) if stat.S_ISLNK(st.st_mode) else None
                # A directory's time and size follow its entries, which are compared themselves.
                size, mtime = (None, None) if stat.S_ISDIR(st.st_mode) else (st.st_size, st.st_mtime_ns)
                found[top + "/" + os.path.relpath(full, root)] = (st.st_mode, st.st_uid, st.st_gid, size, mtime, link)
    return found


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


class Debian13LightDMPackage(test_lightdm_package.LightDMPackageTests):
    """pam-pattern-lightdm installed beside pam-pattern in Debian 13 (its Depends resolve there: lightdm and the
    liblightdm-gobject it links, built on Debian 12), and Debian 13's lintian on it."""

    NAMESPACE = debian13.Debian13

    def test_lintian_of_debian_13_reports_nothing(self):
        debian13_lintian(self, self.deb, fail_on="error,warning,info")


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


class Debian13WaylandPackage(test_wayland_package.WaylandPackageTests):
    """pam-pattern-wayland installed beside pam-pattern in Debian 13 (its Depends resolve there), and Debian 13's
    lintian on it. Tests/WaylandTests run the installed locker on Debian 13's sway."""

    NAMESPACE = debian13.Debian13

    def test_lintian_of_debian_13_reports_nothing(self):
        debian13_lintian(self, self.deb, fail_on="error,warning,info")


class Debian13GnomePackage(test_gnome_package.GnomePackageTests):
    """pam-pattern-gnome installed beside pam-pattern in Debian 13 (its Depends resolve there: gnome-shell 48), and
    Debian 13's lintian on it. Tests/GNOMETests/test_debian13.py run the installed extension in gnome-shell 48."""

    NAMESPACE = debian13.Debian13

    def test_lintian_of_debian_13_reports_nothing(self):
        debian13_lintian(self, self.deb, fail_on="error,warning,info")


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
        "test_plasma_6_wrong_drawing_shows_red_then_while_locked_the_countdown_runs_no_drawing_is_taken_and_the_password_unlocks",
        "test_plasma_6_fast_diagonal_takes_the_middle_dot_a_3_dot_drag_is_not_sent_and_a_drawing_after_a_wrong_one_is_judged",
        "test_plasma_6_on_makes_the_lock_screen_everyones_and_off_gives_the_stock_one_back_changing_nothing_else",
        "test_plasma_6_copy_is_made_again_whole_when_the_stock_shell_changes_and_goes_with_the_package",
        "test_plasma_6_plasmashell_takes_the_copy_as_its_desktop_shell_under_the_same_name",
        "test_plasma_6_on_refuses_a_copy_it_did_not_make",
        "test_plasma_6_tells_a_wrong_password_after_a_wrong_drawing_and_a_person_without_a_pattern_sees_no_grid",
    ],
    Debian13SddmPackage: [
        "test_installed_beside_pam_pattern_turns_nothing_on_and_purged_leaves_nothing",
        "test_lintian_of_debian_13_reports_nothing",
        "test_the_installed_theme_loads_in_debian_13s_greeter",
    ],
    Debian13LightDMPackage: [
        "test_installed_beside_pam_pattern_turns_nothing_on_and_purged_leaves_nothing",
        "test_lintian_of_debian_13_reports_nothing",
    ],
    Debian13WaylandPackage: [
        "test_installed_beside_pam_pattern_it_holds_it",
        "test_lintian_of_debian_13_reports_nothing",
    ],
    Debian13GnomePackage: [
        "test_installed_beside_pam_pattern_turns_nothing_on_and_purged_leaves_nothing",
        "test_lintian_of_debian_13_reports_nothing",
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
