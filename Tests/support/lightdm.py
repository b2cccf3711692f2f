"""The LightDM greeter that draws (pam-pattern-greeter), at the real LightDM daemon run headless (the recipe of
../shared/notes/lightdm.md): a private system dbus-daemon, `lightdm --debug` itself, which starts its X servers
through a wrapper that runs Xvfb (xserver-command) and the greeter as user lightdm; the greeter at its installed
path (/usr/sbin) with its .desktop in /usr/share/xgreeters, turned on with the reference's command (a drop-in in
/etc/lightdm/lightdm.conf.d) and off again with its other. A throwaway user with helper.PATTERN, the profile
enabled in common-auth (the `lightdm` service includes it), and a throwaway X session whose Exec writes a marker
file and stays (so that it can be locked, as light-locker would, with `dm-tool lock`).

Everything runs in a private mount, pid and uts namespace: when the driver ends, or the test's timeout kills
unshare, the kernel ends every process started there. Nothing real is written: overlays on /etc, /etc/pam.d and
its books, /usr/sbin, /usr/share/xgreeters, /usr/share/lightdm (the test's own settings), /var/lib, /var/log;
tmpfs on /run and /tmp (the sandbox bound back at its path); the private /dev of support.pad.

The greeter names its windows with the words on screen, a line each: the user's name first, the status, the
hint, the field's label, the machine's name, the session's name. The driver reads them (xprop) as the test's
view of the screen, beside screenshots."""

import os
import shlex
import shutil

from support import helper, pad, surfaces, zh_cn
from support.paths import BUILD, ROOT, require_built, require_tools

GREETER = os.path.join(BUILD, "pam-pattern-greeter")
INSTALLED = "/usr/sbin/pam-pattern-greeter"
DESKTOP = os.path.join(ROOT, "Sources", "Surfaces", "lightdm", "ui", "pam-pattern-greeter.desktop")
# The reference's commands (docs/reference.md, "LightDM"): a drop-in naming the greeter, and its removal.
DROP_IN = "/etc/lightdm/lightdm.conf.d/50-pam-pattern-greeter.conf"
ON_DOC = (
    "sudo mkdir -p /etc/lightdm/lightdm.conf.d && printf '[Seat:*]\\ngreeter-session=%s\\n' | sudo tee "
    + DROP_IN
    + " >/dev/null"
)
OFF_DOC = "sudo rm " + DROP_IN
SESSION_KEY = "pp-marker"
HOSTNAME = "pp-lightdm-host"
# The greeter's screen: Xvfb 1024x768; with no configured size the dots are a seventh of the height apart, the
# grid centred across, a third of the spacing above the middle (PadLayout), the name 2 1/6 spacings above it.
SCREEN = (1024, 768)
SPACING = SCREEN[1] // 7
CENTRE = (SCREEN[0] // 2, SCREEN[1] // 2 - SPACING // 3)
NAME_Y = CENTRE[1] - SPACING * 3 // 2 - SPACING * 2 // 3 - 10


def dot_centre(dot):
    """Screen coordinates of dot 1..9 (1 2 3 on top)."""
    return CENTRE[0] + ((dot - 1) % 3 - 1) * SPACING, CENTRE[1] + ((dot - 1) // 3 - 1) * SPACING


# The X server LightDM starts: Xvfb, without the arguments only Xorg understands; exec keeps the ready signal.
# -noreset: a test's X client (xprop) that ends while no other is connected would otherwise reset the server, and
# the daemon's own connection, made at that moment, failed ("Error connecting to XServer").
XSERVER = (
    """#!/bin/sh
set -- "$@" END
while [ "$1" != END ]; do
  case "$1" in
    vt*|-novtswitch|-keeptty) shift;;
    -seat) shift 2;;
    *) set -- "$@" "$1"; shift;;
  esac
done
shift
exec Xvfb "$@" -noreset -screen 0 %dx%dx24
"""
    % SCREEN
)

# The throwaway session: writes who and where to the marker, then stays (a session that can be locked).
SESSION_SCRIPT = """#!/bin/sh
echo "$(id -un) $DISPLAY" >> %(marker)s
exec sleep 600
"""

SETTINGS = """[LightDM]
minimum-display-number=50
sessions-directory=%(sessions)s
[Seat:*]
xserver-command=%(xserver)s
user-session=%(session)s
%(seat)s"""


def driver_job(steps, root, as_user, greeter="pam-pattern-greeter", services=(), **paths):
    """The driver's job: the steps at the daemon with `greeter` turned on (and off at the end) by the reference's
    commands, the sandbox at `root`, the session's user run by the argv prefix `as_user`; `services`: argvs of
    stand-ins started on the system bus before the daemon (each prints "ready" once its name is owned); `paths`:
    log_dir, etc_upper, run_dir and marker where not ROOT/logs, ROOT/etc_upper, ROOT/run and ROOT/marker/marker."""
    job = {
        "root": root,
        "log_dir": os.path.join(root, "logs"),
        "etc_upper": os.path.join(root, "etc_upper"),
        "run_dir": os.path.join(root, "run"),
        "marker": os.path.join(root, "marker", "marker"),
        "on": on_command(greeter),
        "off": OFF,
        "steps": steps,
        "hostname": HOSTNAME,
        "centre": list(CENTRE),
        "spacing": SPACING,
        "name_y": NAME_Y,
        "as_user": list(as_user),
        "services": [list(argv) for argv in services],
        # Another greeter (make bench's reference) names no window: the driver waits for the daemon alone.
        "named": greeter == "pam-pattern-greeter",
    }
    job.update(paths)
    return job


def on_command(greeter="pam-pattern-greeter"):
    return (ON_DOC % greeter).replace("sudo ", "")


OFF = OFF_DOC.replace("sudo ", "")


def require_lightdm():
    require_built(GREETER)
    require_tools("Xvfb", "xdotool", "xwd", "xprop", "xwininfo", "pam-auth-update", "dbus-daemon", "dm-tool")
    if not os.path.exists("/usr/sbin/lightdm"):
        raise AssertionError("/usr/sbin/lightdm is missing (make deps: lightdm)")


def set_up_module():
    require_lightdm()
    pad.set_up_module()


class LightDMNamespace(pad.DaemonNamespace):
    """pad.DaemonNamespace (profile, helper, private /dev, /run and /tmp) plus what LightDM needs; see the module
    docstring."""

    # LightDM's X servers are :50 and up, by number (minimum-display-number), not the first free one.
    PRIVATE_NETWORK = True

    def __init__(self, test, user, chinese=False, seat=""):
        pad.DaemonNamespace.__init__(self, test, chinese=chinese)
        extra = {
            "/usr/share/xgreeters": "xgreeters",
            "/usr/share/lightdm": "usr_share_lightdm",
            "/var/log": "var_log",
        }
        # /etc first: the overlays on /etc/security and /etc/pam.d go on top of it.
        self.overlays = dict([("/etc", "etc")] + list(self.overlays.items()) + list(extra.items()))
        for name in ("etc",) + tuple(extra.values()):
            for layer in ("up", "work"):
                os.makedirs(os.path.join(self.root, "overlay", name, layer), exist_ok=True)
        self.etc_upper = os.path.join(self.root, "overlay", "etc", "up")
        # The greeter where its package puts it, and its .desktop.
        shutil.copyfile(GREETER, os.path.join(self.root, "overlay", "usr_sbin", "up", "pam-pattern-greeter"))
        os.chmod(os.path.join(self.root, "overlay", "usr_sbin", "up", "pam-pattern-greeter"), 0o755)
        with open(DESKTOP) as f:
            self.write_overlay("xgreeters", "pam-pattern-greeter.desktop", f.read())
        self.marker_dir = os.path.join(self.root, "marker")
        os.makedirs(self.marker_dir)
        os.chown(self.marker_dir, user.uid, -1)
        self.marker = os.path.join(self.marker_dir, "marker")
        script = self.write_file("session.sh", SESSION_SCRIPT % {"marker": shlex.quote(self.marker)}, 0o755)
        sessions = os.path.join(self.root, "sessions")
        os.makedirs(sessions)
        os.chmod(sessions, 0o755)
        with open(os.path.join(sessions, SESSION_KEY + ".desktop"), "w") as f:
            f.write("[Desktop Entry]\nName=Marker desktop\nExec=%s\nType=Application\n" % script)
        os.chmod(os.path.join(sessions, SESSION_KEY + ".desktop"), 0o644)
        xserver = self.write_file("xserver.sh", XSERVER, 0o755)
        self.write_overlay(
            "usr_share_lightdm",
            "lightdm.conf.d/99-pp-test.conf",
            SETTINGS % {"sessions": sessions, "xserver": xserver, "session": SESSION_KEY, "seat": seat},
        )
        # zh_CN: the machine's language (/etc/default/locale, which the lightdm-greeter service's pam_env reads), and
        # the locale compiled into a copy of /usr/lib/locale mounted over it.
        self.locales = None
        if chinese:
            self.locales = os.path.join(self.root, "locales")
            shutil.copytree("/usr/lib/locale", self.locales)
            os.chmod(self.locales, 0o755)
            zh_cn.compile_into(self.locales)
            os.makedirs(os.path.join(self.etc_upper, "default"), exist_ok=True)
            with open(os.path.join(self.etc_upper, "default", "locale"), "w") as f:
                f.write("LANG=zh_CN.UTF-8\n")
            os.chmod(os.path.join(self.etc_upper, "default", "locale"), 0o644)
        self.log_dir = os.path.join(self.root, "logs")
        self.run_dir = os.path.join(self.root, "run")
        for directory in (self.log_dir, self.run_dir):
            os.makedirs(directory)
            os.chmod(directory, 0o755)

    def setup_script(self):
        script = pad.DaemonNamespace.setup_script(self)
        if self.locales:
            script += "mount --bind %s /usr/lib/locale\n" % shlex.quote(self.locales)
        return script


# The surface's test driver (Sources/Surfaces/lightdm/driver.py), one script with the shared parts in place.
DRIVER = surfaces.driver("lightdm")


class LightDMCase(pad.PadCase):
    """A throwaway USER with PASSWORD, FULL_NAME and helper.PATTERN, the profile enabled, LightDM with the
    greeter GREETER_SESSION (see above)."""

    FULL_NAME = "Lee Lightdm"
    GREETER_SESSION = "pam-pattern-greeter"
    # More [Seat:*] settings of the test's own, lines of lightdm.conf: the user list shown (Debian's
    # /usr/share/lightdm/lightdm.conf.d/01_debian.conf hides it).
    SEAT = "greeter-hide-users=false\n"

    def namespace(self):
        return LightDMNamespace(self, self.user, chinese=self.CHINESE, seat=self.SEAT)

    def session(self, steps, timeout=180, services=()):
        """Runs the steps at the login screen, the greeter turned on (and off at the end) with the reference's
        commands; returns the driver's report. `services`: argvs of stand-ins started on the system bus before the
        daemon (each prints "ready" once its name is owned)."""
        job = driver_job(
            steps,
            self.sandbox.root,
            helper.setpriv_argv(self.user),
            self.GREETER_SESSION,
            services,
            log_dir=self.sandbox.log_dir,
            etc_upper=self.sandbox.etc_upper,
            run_dir=self.sandbox.run_dir,
            marker=self.sandbox.marker,
        )
        report = self.run_driver("lightdm", DRIVER, job, timeout)
        self.assertEqual(report["on"][0], 0, report["on"][1])
        self.assertTrue(
            report["ready"],
            "the login screen did not come up:\n%s\n…\n%s\ngreeter:\n%s"
            % (report["log"][:6000], report["log"][-1500:], report["greeter_log"][-3000:]),
        )
        return report

    def assertOnAndOff(self, report):
        """The on command wrote the one drop-in naming the greeter; the off command left /etc as it was."""
        self.assertEqual(report["on"][0], 0, report["on"][1])
        self.assertEqual(report["off"][0], 0, report["off"][1])
        self.assertEqual(report["etc_on"], {DROP_IN[5:]: "[Seat:*]\ngreeter-session=%s\n" % self.GREETER_SESSION})
        self.assertEqual(report["etc_after"], {})

    def select_user(self):
        """The step that shows this test's user at the greeter (a tap on the name shows the next user)."""
        return {"op": "select", "name": self.FULL_NAME}
