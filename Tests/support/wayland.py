"""pattern-lock, the Wayland lock screen, at a real compositor, on two paths that run the same test bodies:

- WaylandCase: the host's (Debian 12's) headless sway 1.7 (wlroots' headless backend, pixman), which the locker
  locks with wlr-layer-shell + wlr-input-inhibitor, run by a throwaway user in pad.PadNamespace (the setuid helper
  at its path, the pattern profile in common-auth, /dev/log captured), with the built pattern-lock and its PAM
  child at their installed paths and the package's /etc/pam.d/pattern-lock;
- Debian13Case: Debian 13's sway 1.10 in the chroot of support.debian13 with this tree's pam-pattern and
  pam-pattern-wayland installed by apt, which the locker locks with ext-session-lock-v1 (sway logs the lock).

A test class of bodies (a mixin) is run on each path by a class of each: `class XTest(X, wayland.WaylandCase)` and
`class XDebian13Test(X, wayland.Debian13Case)`. Both drive the locker with the tests' own virtual pointer
(build/wayland-pointer), their touch host (build/wayland-touch-host, TOUCH) and wtype, on one output or more
(SCALES), and see it with grim. A session (session(steps)) is one JSON job for DRIVER
(Sources/Surfaces/wayland/driver.py), which runs in the namespace (or chroot) as root: sway as the user, the locker
as the user, then the steps. Screenshots are PNG files (shot(name): a support.screen image)."""

import atexit
import json
import os
import shutil
import unittest

from support import debian13, debs, formats, pad, screen, surfaces
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import BUILD, ROOT, require_built, require_tools

LOCKER = os.path.join(BUILD, "pattern-lock")
PAM_CHILD = os.path.join(BUILD, "pattern-lock-pam")
POINTER = os.path.join(BUILD, "wayland-pointer")
TOUCH_HOST = os.path.join(BUILD, "wayland-touch-host")
INSTALLED_LOCKER = "/usr/libexec/pam-pattern/pattern-lock"
PAM_FILE = os.path.join(ROOT, "Sources", "Surfaces", "wayland", "pattern-lock.pam")
SCREEN = (800, 600)
SPACING = 100

DRIVER = surfaces.driver("wayland")


def centre(scale=1):
    """The grid's centre in the output's pixels (PadLayout: across the middle, a third of the spacing above)."""
    return SCREEN[0] // 2, SCREEN[1] // 2 - SPACING * scale // 3


def dot_centre(dot, scale=1):
    c, s = centre(scale), SPACING * scale
    return c[0] + ((dot - 1) % 3 - 1) * s, c[1] + ((dot - 1) // 3 - 1) * s


def set_up_module():
    """The locker, its PAM child and pointer built, sway, grim and wtype installed (else the suite fails), then the
    run lock the helper suites share."""
    require_built(LOCKER, PAM_CHILD, POINTER, TOUCH_HOST)
    require_tools("sway", "grim", "wtype", "pam-auth-update", "debootstrap", "unshare", "nsenter", "chroot")
    pad.set_up_module()


class WaylandNamespace(pad.PadNamespace):
    """pad.PadNamespace plus pattern-lock and pattern-lock-pam beside auth_pattern and the package's pam.d file."""

    def __init__(self, test, services=None):
        with open(PAM_FILE) as f:
            lines = [line for line in f.read().splitlines() if line and not line.startswith("#")]
        pad.PadNamespace.__init__(self, test, services=dict(services or {}, **{"pattern-lock": lines}))
        libexec = os.path.join(self.root, "overlay", "usr_libexec", "up", "pam-pattern")
        for built in (LOCKER, PAM_CHILD):
            target = os.path.join(libexec, os.path.basename(built))
            shutil.copyfile(built, target)
            os.chmod(target, 0o755)
        self.pointer = os.path.join(self.root, "wayland-pointer")
        self.touch_host = os.path.join(self.root, "wayland-touch-host")
        for built, copy in ((POINTER, self.pointer), (TOUCH_HOST, self.touch_host)):
            shutil.copyfile(built, copy)
            os.chmod(copy, 0o755)


def job(root, user, uid, setpriv, locker, pointer, steps, env=None, scales=(1,), touch_host=None):
    """The driver's job: sway as `user` (uid, run through `setpriv`) with its sandbox at `root` and an output of
    SCREEN's pixels at each of `scales` (left to right: HEADLESS-1, -2...), the locker and the virtual pointer at
    their paths in the system the driver runs in, the steps (a drag's or a shot's "output": its index, 0 unless
    said); with `touch_host` (its path there), sway runs nested in it and "touch" steps draw with a finger."""
    return {
        "touch_host": touch_host,
        "root": root,
        "screen": list(SCREEN),
        "outputs": [{"scale": scale, "spacing": SPACING * scale, "centre": list(centre(scale))} for scale in scales],
        "size": SPACING,
        "user": user,
        "uid": uid,
        "home": "/home/" + user,
        "locker": locker,
        "pointer": pointer,
        "setpriv": setpriv,
        "env": dict(env or {}),
        "steps": steps,
    }


class LockScreenChecks:
    """What the tests of both paths (WaylandCase, Debian13Case) read off a session: its steps, its readiness, what
    sway logged of the lock."""

    def step(self, report, op, index=0):
        found = [s for s in report["steps"] if s["op"] == op]
        self.assertGreater(len(found), index, "no %s step in %r" % (op, report["steps"]))
        return found[index]

    def assertReady(self, report, index=0):
        ready = self.step(report, "ready", index)
        self.assertTrue(
            ready["ready"], "the lock screen never asked for the pattern: %r\n%s" % (ready, report["lock_log"])
        )
        self.assertIn("locking with " + self.PROTOCOL, report["lock_log"])

    def assertWrongCountedOnceThenRightUnlocks(self, op):
        """A session: a wrong drawing (by `op`: "drag", the pointer, or "touch", a finger) is refused and counted
        once (the module's line; the helper logs its own too), then the right one unlocks, sway's lock with it, and
        the count is reset."""
        report = self.session(
            [
                {"op": "ready"},
                {"op": op, "path": pad.dots(WRONG_PATTERN)},
                {"op": "screen", "until": "Password: ", "timeout": 10},
                {"op": "wait", "timeout": 1.5},
                {"op": op, "path": pad.dots(PATTERN)},
                {"op": "wait", "timeout": 20},
            ]
        )
        self.assertReady(report)
        first, second = self.step(report, "wait", 0), self.step(report, "wait", 1)
        self.assertFalse(first["unlocked"], report["lock_log"])
        log = "\n".join(report["log"])
        self.assertEqual(log.count("pam_pattern(pattern-lock:auth): wrong pattern for user " + self.USER), 1, log)
        self.assertTrue(second["unlocked"], report["lock_log"])
        self.assertSwayUnlocked(report)
        self.assertEqual(self.failures(), 0)
        return report

    def assertSwayUnlocked(self, report):
        """Sway's own word that its session lock ended by the locker's unlock (sway 1.7 has no session lock to
        log: SWAY_UNLOCKED is empty there, and so must its log be)."""
        self.assertEqual(report["sway_lock"], self.SWAY_UNLOCKED, report["sway_log"][-2000:])


class WaylandCase(LockScreenChecks, pad.PadCase):
    """A throwaway USER with PASSWORD and helper.PATTERN, and a WaylandNamespace: the host's (Debian 12's) sway 1.7,
    which the locker locks with wlr-layer-shell + wlr-input-inhibitor."""

    PASSWORD = "Wayland-test-pw-42"
    # The outputs' scales (one output unless said).
    SCALES = (1,)
    # A touch screen (support for "touch" steps): sway nested in build/wayland-touch-host.
    TOUCH = False
    PROTOCOL = "wlr-layer-shell + wlr-input-inhibitor"
    SWAY_UNLOCKED = []

    def namespace(self):
        return WaylandNamespace(self, services=self.SERVICES)

    def session(self, steps, env=None, recorder=False, timeout=180):
        """Runs the steps at the lock screen; returns the driver's report (steps, log, lock_log, sway_log,
        sway_lock, locked_at_end)."""
        environment = dict(env or {})
        if recorder:
            # The pad's authproto stand-in as the PAM child: what the locker sends, in its log.
            environment["PATTERN_LOCK_PAM"] = self.sandbox.recorder
            environment["PAD_RECORDER_LOG"] = self.sandbox.recorder_log
            with open(self.sandbox.recorder_log, "w"):
                pass
            os.chown(self.sandbox.recorder_log, self.user.uid, -1)
        setpriv = pad.helper.setpriv_argv(self.user)
        steps_job = job(
            self.sandbox.root,
            self.user.name,
            self.user.uid,
            setpriv,
            INSTALLED_LOCKER,
            self.sandbox.pointer,
            steps,
            environment,
            self.SCALES,
            self.sandbox.touch_host if self.TOUCH else None,
        )
        return self.run_driver("wayland", DRIVER, steps_job, timeout)

    def shot(self, name):
        return screen.read_png(os.path.join(self.sandbox.root, name))

    def failures(self):
        return self.sandbox.failures(self.USER)

    def write_state(self, failures, last_failure):
        formats.write_state(self.sandbox.state_dir, self.USER, failures, last_failure)


_trixie = {}


def trixie():
    """The Debian 13 system the Debian13Case classes share (one per process, closed when it ends): pam-pattern
    and pam-pattern-wayland installed by apt from this tree's packages, the profiles enabled, the virtual pointer
    and the pad's authproto stand-in under /tmp/wl."""
    system = _trixie.get("system")
    if system is None:
        built = debs.built()
        system = debian13.Debian13()
        atexit.register(system.close)
        _trixie["system"] = system
        system.users = set()
        system.share(os.path.dirname(built[debs.WAYLAND]), read_only=True)
        system.run(
            ["apt-get", "install", "-y", "--no-install-recommends", built[debs.BASE], built[debs.WAYLAND]], timeout=300
        )
        system.run(["pam-auth-update", "--enable", "pattern", "pattern-reset"])
        system.sh("mkdir -m 0755 /tmp/wl")
        shutil.copy(POINTER, system.path("/tmp/wl/wayland-pointer"))
        shutil.copy(TOUCH_HOST, system.path("/tmp/wl/wayland-touch-host"))
        with open(system.path("/tmp/wl/authproto_recorder"), "w") as f:
            f.write(pad.RECORDER)
        os.chmod(system.path("/tmp/wl/authproto_recorder"), 0o755)
    return system


class Debian13Case(LockScreenChecks, unittest.TestCase):
    """The sessions of WaylandCase in the Debian 13 chroot (support.debian13, trixie()): sway 1.10, which the
    installed locker (/usr/bin/pattern-lock, service pattern-lock from the package's pam.d file) locks with
    ext-session-lock-v1. USER (made at its class's first test, holding helper.PATTERN and PASSWORD) starts each
    test with no failures; the session's files are under /tmp/wl/USER."""

    PASSWORD = "Wayland-13-pw-42"
    # The outputs' scales (one output unless said).
    SCALES = (1,)
    # A touch screen (support for "touch" steps): sway nested in build/wayland-touch-host.
    TOUCH = False
    PROTOCOL = "ext-session-lock-v1"
    SWAY_UNLOCKED = ["session locked", "session unlocked"]
    STATE_DIR = "/var/lib/pam_pattern"

    @classmethod
    def setUpClass(cls):
        cls.system = trixie()
        if cls.USER not in cls.system.users:
            cls.system.run(["useradd", "-m", "-s", "/bin/sh", cls.USER])
            cls.system.run(["chpasswd"], input="%s:%s\n" % (cls.USER, cls.PASSWORD))
            cls.system.run(["patternctl", "set", cls.USER], input="%s\n%s\n" % (PATTERN, PATTERN))
            cls.system.users.add(cls.USER)
        cls.uid = int(cls.system.run(["id", "-u", cls.USER]).stdout)

    def setUp(self):
        self.root = "/tmp/wl/" + self.USER
        state = formats.state_file(self.system.path(self.STATE_DIR), self.USER)
        for stale in (state, formats.attempt_record_file(self.system.path(self.STATE_DIR), self.USER)):
            if os.path.exists(stale):
                os.unlink(stale)
        # The last session's files and its syslog socket (the driver binds /dev/log anew).
        self.system.sh("rm -rf %s /dev/log && mkdir -m 0755 %s" % (self.root, self.root))

    def session(self, steps, env=None, recorder=False, timeout=180):
        environment = dict(env or {})
        if recorder:
            environment["PATTERN_LOCK_PAM"] = "/tmp/wl/authproto_recorder"
            environment["PAD_RECORDER_LOG"] = self.root + "/recorder.log"
            self.system.sh("install -m 0644 -o %d /dev/null %s/recorder.log" % (self.uid, self.root))
        setpriv = ["setpriv", "--reuid=%d" % self.uid, "--regid=%d" % self.uid, "--clear-groups"]
        steps_job = job(
            self.root,
            self.USER,
            self.uid,
            setpriv,
            "/usr/bin/pattern-lock",
            "/tmp/wl/wayland-pointer",
            steps,
            environment,
            self.SCALES,
            "/tmp/wl/wayland-touch-host" if self.TOUCH else None,
        )
        done = self.system.run(["python3", "-c", DRIVER, json.dumps(steps_job)], check=False, timeout=timeout)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def read(self, name):
        try:
            with open(self.system.path("%s/%s" % (self.root, name)), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return b""

    def shot(self, name):
        return screen.read_png(self.system.path("%s/%s" % (self.root, name)))

    def recorded(self):
        return [tuple(line.split(" ", 1)) for line in self.read("recorder.log").decode().splitlines()]

    def failures(self):
        return formats.failures(self.system.path(self.STATE_DIR), self.USER)

    def write_state(self, failures, last_failure):
        formats.write_state(self.system.path(self.STATE_DIR), self.USER, failures, last_failure)
