"""GNOME Shell's lock screen with the pam_pattern extension, at the real shell: `gnome-shell --x11 --replace`
under Xvfb, run by a throwaway user on a private session bus, with GDM's daemon and logind stood in for on a
private system bus (support/gdm_standin.py: it runs the REAL gdm-password PAM stack as root, as GDM's worker
does, pam_pattern in it through common-auth's profile). The extension sits where its package installs it (an
overlay on /usr/share/gnome-shell) and is enabled in the user's settings, as `gnome-extensions enable` does.
Driven by xdotool.

The extension logs what a test needs on the shell's stderr when PAM_PATTERN_GNOME_DEBUG=1, never a secret:
"pam_pattern: grid X,Y ..." (the nine dots' centres on the screen), "asked pattern", "pattern sent",
"wrong pattern", "shaken off N", "message TEXT", "locked for N s", "countdown N", "unlocked".
"""

import os
import shutil

from support import pad, surfaces
from support.paths import BUILD, ROOT, require_built, require_tools

UUID = "pam-pattern@pam-pattern.org"
EXTENSION = os.path.join(BUILD, "gnome", UUID)
# GNOME Shell 48's (ES modules): the same shared files, made into ES modules by the build (es_module.py).
UUID_48 = "pam-pattern-48@pam-pattern.org"
EXTENSION_48 = os.path.join(BUILD, "gnome", UUID_48)
SHELL_DATA = "/usr/share/gnome-shell"
STANDIN = os.path.join(ROOT, "Tests", "support", "gdm_standin.py")
REMOTE = os.path.join(ROOT, "Tests", "support", "gnome_remote.py")
# Debian's gdm3 /etc/pam.d/gdm-password, its auth and account parts (the machine has no gdm3): common-auth,
# where the pattern's profile is enabled, after GDM's own checks.
GDM_PASSWORD = [
    "auth    requisite       pam_nologin.so",
    "auth    required        pam_succeed_if.so user != root quiet_success",
    "@include common-auth",
    "@include common-account",
]


def set_up_module():
    require_built(os.path.join(EXTENSION, "extension.js"))
    require_tools("Xvfb", "xdotool", "xwd", "gnome-shell", "dbus-daemon", "gsettings", "gdbus")
    pad.set_up_module()


DRIVER = surfaces.driver("gnome")


class GnomeNamespace(pad.PadNamespace):
    """pad.PadNamespace plus gdm-password in /etc/pam.d and the extension under /usr/share/gnome-shell/extensions
    (an overlay)."""

    def __init__(self, test):
        pad.PadNamespace.__init__(self, test, services={"gdm-password": GDM_PASSWORD})
        self.overlays[SHELL_DATA] = "gnome_shell"
        for layer in ("up", "work"):
            os.makedirs(os.path.join(self.root, "overlay", "gnome_shell", layer), exist_ok=True)
        extensions = os.path.join(self.root, "overlay", "gnome_shell", "up", "extensions")
        shutil.copytree(EXTENSION, os.path.join(extensions, UUID))
        for directory, _, files in os.walk(extensions):
            os.chmod(directory, 0o755)
            for name in files:
                os.chmod(os.path.join(directory, name), 0o644)


def shell_job(
    root,
    user,
    uid,
    setpriv,
    standin,
    uuid,
    steps,
    greeter=False,
    steps_to_prompt=(),
    debug=True,
    env=None,
    wayland=False,
):
    """The gnome driver's job: the shell run by `user` (`setpriv` the argv prefix that becomes them) with the
    extension `uuid` enabled (None: the stock lock screen, the extension installed but not enabled), the stand-in
    at `standin`, the driver's files in `root`; GDM's greeter (`--mode=gdm`) if `greeter`; the shell as a headless
    Wayland compositor, its pointer and screenshots through its own D-Bus APIs (support/gnome_remote.py), if `wayland`."""
    return {
        "root": root,
        "screen": [1024, 768],
        "user": user,
        "uid": uid,
        "home": "/home/" + user,
        "setpriv": setpriv,
        "standin": standin,
        "extensions": "['%s']" % uuid if uuid else "@as []",
        "shell_options": ["--mode=gdm"] if greeter else [],
        "greeter": greeter,
        "steps_to_prompt": list(steps_to_prompt),
        "debug": debug,
        "extension": uuid is not None,
        "env": dict(env or {}),
        "steps": steps,
        "wayland": wayland,
        "remote": REMOTE,
    }


def logged(report, text):
    """The extension's debug lines (without "pam_pattern: ") in the shell's log that start with `text`."""
    said = [line.split("pam_pattern: ", 1)[1] for line in report["log"].splitlines() if "pam_pattern: " in line]
    return [line for line in said if line.startswith(text)]


def grid_when_drawn(report):
    """The dots' centres as last logged before the first drawing was sent."""
    said = logged(report, "")
    return pad.grid_centres([line for line in said[: said.index("pattern sent")] if line.startswith("grid ")][-1])


def grid_stayed(test, centres, before, after):
    """Nothing under the pointer moved when the module's message came: the square around the dots at `centres`
    (as logged before the drawing) is the same pixels in `before` (a screenshot before the drawing) and `after`
    (once the wrong drawing's red is over and the message shows). A grid that moved shows its dots elsewhere."""
    reach = (centres[1][0] - centres[0][0]) // 2
    box = (centres[0][0] - reach, centres[0][1] - reach, centres[8][0] + reach + 1, centres[8][1] + reach + 1)
    was, now = before.crop(*box), after.crop(*box)
    moved = [y for y in range(was.height) if was.rows[y] != now.rows[y]]
    test.assertEqual(moved, [], "the grid's square %r changed when the message came (rows off: %d)" % (box, len(moved)))


class GnomeCase(pad.PadCase):
    """A throwaway USER with a password and helper.PATTERN, the profile enabled, the shell locked."""

    def namespace(self):
        return GnomeNamespace(self)

    def session(self, steps, extension=True, debug=True, env=None, timeout=240, greeter=False, steps_to_prompt=()):
        """Locks the shell and runs the steps at its lock screen; the report (steps, log, standin). extension=False:
        the stock lock screen (the extension installed, not enabled)."""
        job = shell_job(
            self.sandbox.root,
            self.user.name,
            self.user.uid,
            pad.helper.setpriv_argv(self.user),
            STANDIN,
            UUID if extension else None,
            steps,
            greeter=greeter,
            steps_to_prompt=steps_to_prompt,
            debug=debug,
            env=env,
        )
        report = self.run_driver("gnome", DRIVER, job, timeout)
        self.assertTrue(report["locked"], "the shell did not lock:\n%s\n%s" % (report["log"], report["standin"]))
        if debug:
            self.assertTrue(
                report["ready"], "the lock screen's prompt did not come:\n%s\n%s" % (report["log"], report["standin"])
            )
        return report

    def logged(self, report, text):
        return logged(report, text)
