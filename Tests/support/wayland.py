"""pattern-lock, the Wayland lock screen, at a real compositor: headless sway (wlroots' headless backend, pixman)
run by a throwaway user in pad.PadNamespace (the setuid helper at its path, the pattern profile in common-auth,
/dev/log captured), with the built pattern-lock and its PAM child at their installed paths and the package's
/etc/pam.d/pattern-lock; driven by the tests' own virtual pointer (build/wayland-pointer) and wtype, seen by grim.

A session (WaylandCase.session) is one JSON job for DRIVER (Sources/Surfaces/wayland/driver.py), which runs in the
namespace as root: sway as the user, the locker as the user, then the steps. Screenshots are PNG files in the
sandbox (support.screen.read_png)."""

import os
import shutil

from support import pad, screen, surfaces
from support.paths import BUILD, ROOT, require_built, require_tools

LOCKER = os.path.join(BUILD, "pattern-lock")
PAM_CHILD = os.path.join(BUILD, "pattern-lock-pam")
POINTER = os.path.join(BUILD, "wayland-pointer")
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
    require_built(LOCKER, PAM_CHILD, POINTER)
    require_tools("sway", "grim", "wtype", "pam-auth-update")
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
        shutil.copyfile(POINTER, self.pointer)
        os.chmod(self.pointer, 0o755)


class WaylandCase(pad.PadCase):
    """A throwaway USER with PASSWORD and helper.PATTERN, and a WaylandNamespace."""

    PASSWORD = "Wayland-test-pw-42"
    SCALE = 1

    def namespace(self):
        return WaylandNamespace(self, services=self.SERVICES)

    def session(self, steps, env=None, recorder=False, timeout=180):
        """Runs the steps at the lock screen; returns the driver's report (steps, log, lock_log, sway_log,
        locked_at_end)."""
        environment = dict(env or {})
        if recorder:
            # The pad's authproto stand-in as the PAM child: what the locker sends, in its log.
            environment["PATTERN_LOCK_PAM"] = self.sandbox.recorder
            environment["PAD_RECORDER_LOG"] = self.sandbox.recorder_log
            with open(self.sandbox.recorder_log, "w"):
                pass
            os.chown(self.sandbox.recorder_log, self.user.uid, -1)
        job = {
            "root": self.sandbox.root,
            "screen": list(SCREEN),
            "scale": self.SCALE,
            "spacing": SPACING * self.SCALE,
            "size": SPACING,
            "centre": list(centre(self.SCALE)),
            "user": self.user.name,
            "uid": self.user.uid,
            "home": "/home/" + self.user.name,
            "locker": INSTALLED_LOCKER,
            "pointer": self.sandbox.pointer,
            "setpriv": pad.helper.setpriv_argv(self.user),
            "env": environment,
            "steps": steps,
        }
        return self.run_driver("wayland", DRIVER, job, timeout)

    def shot(self, name):
        return screen.read_png(os.path.join(self.sandbox.root, name))

    def assertReady(self, report, index=0):
        ready = self.step(report, "ready", index)
        self.assertTrue(
            ready["ready"], "the lock screen never asked for the pattern: %r\n%s" % (ready, report["lock_log"])
        )
