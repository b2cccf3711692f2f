"""The SDDM login screen with the pattern grid, at the real SDDM daemon (headless, the recipe of
../shared/notes/kde-and-sddm.md): a private system dbus-daemon, `sddm` itself, which starts the X server named
by [X11] ServerPath (a wrapper that runs Xvfb with the arguments it understands) and the greeter as user sddm,
the theme as its package pam-pattern-sddm installs it, turned on with the README's command, and pam_pattern kept
quiet at the `sddm` service with the reference's command for SDDM 0.19 (QUIET_ON). A throwaway user with
helper.PATTERN, the profile enabled in common-auth (the `sddm` service includes it), and a throwaway X session
whose Exec writes a marker file and exits. Driven by xdotool on the greeter's display.

Everything runs in a private mount AND pid namespace (unshare --pid --kill-child): when the driver ends, or
the test's timeout kills unshare, the kernel ends every process started there (dbus-daemon, sddm, Xvfb, the
greeter, a session). Nothing real is written: overlays on /etc (the on and off commands write there), /etc/pam.d
and its books, /usr/share/sddm (the theme), /usr/share/xsessions, /usr/lib (the test's own SDDM settings, in
/usr/lib/sddm/sddm.conf.d, so /etc holds only what the commands write), /var/lib (SDDM's state, the pattern's),
/var/log (wtmp, btmp); tmpfs on /run and /tmp (the sandbox bound back at its path); the private /dev of
support.pad (no /dev/tty0: SDDM takes no virtual terminal of the machine).

The greeter logs through the journal's socket (sd_journal_print, stdin not a terminal): the driver binds
/run/systemd/journal/socket and reads the theme's lines, never a secret: "pam_pattern: grid X,Y ..." (the nine
dots' centres on the screen), "pattern sent", "password sent", "wrong pattern", "wrong password", "shaken off
N", "message TEXT", "attempt over", "logged in".
"""

import json
import os
import shlex
import shutil
import subprocess
import tempfile

from support import debs, pad, surfaces, xvfb
from support.paths import BUILD, require_built, require_tools, run

THEME_ID = "pam-pattern"
THEME = os.path.join(BUILD, "sddm", THEME_ID)
THEMES = "/usr/share/sddm/themes"
# The theme's debug lines (the grid's place, what it sent), which the tests read: off unless asked for, by this
# logging rule where the greeter is started by hand (test mode), or debug=true in theme.conf.user under SDDM.
DEBUG_RULES = "pam_pattern.greeter.debug=true"
# The README's commands (README, "SDDM"): a drop-in naming the theme, and its removal.
DROP_IN = "/etc/sddm.conf.d/pam-pattern.conf"
ON = "install -D -m 644 %s/%s/pam-pattern.conf %s" % (THEMES, THEME_ID, DROP_IN)
OFF = "rm %s" % DROP_IN
# The reference's commands for SDDM before 0.20, which can lose the prompt that follows a message (stuck() below):
# pam_pattern sends the `sddm` service no message, and, when SDDM is newer, messages again.
CONF = "/etc/security/pam_pattern.conf"
QUIET_ON_DOC = "echo 'quiet_services = sddm' | sudo tee -a %s" % CONF
QUIET_OFF_DOC = "sudo sed -i '/^quiet_services = sddm$/d' %s" % CONF
QUIET_ON, QUIET_OFF = (command.replace("sudo ", "") for command in (QUIET_ON_DOC, QUIET_OFF_DOC))
SESSION = "/usr/share/xsessions/pp-marker.desktop"
# The machine's name in the namespace (a UTS namespace of its own): what the login screen shows.
HOSTNAME = "pp-sddm-host"


def other_theme_on(theme):
    """A command that turns on an installed theme as the README's command turns on ours (the same drop-in)."""
    return "mkdir -p /etc/sddm.conf.d && printf '[Theme]\\nCurrent=%s\\n' > %s" % (theme, DROP_IN)


def require_sddm():
    require_built(os.path.join(THEME, "Main.qml"))
    require_tools("Xvfb", "xdotool", "xwd", "pam-auth-update", "dbus-daemon")
    for program in ("/usr/bin/sddm", "/usr/bin/sddm-greeter"):
        if not os.path.exists(program):
            raise AssertionError("%s is missing (make deps: sddm)" % program)


def set_up_module():
    require_sddm()
    pad.set_up_module()


# `sddm-greeter --test-mode --theme THEME` for SECONDS s (Debian 13's is sddm-greeter-qt6): what it says, as JSON
# {"journal": [...], "output": "..."}. It logs to the journal when its input is not a terminal: a socket bound in
# a private /run catches that.
TEST_MODE = r"""
import json, os, shutil, socket, subprocess, sys, time
theme, seconds = sys.argv[1], float(sys.argv[2])
greeter = shutil.which("sddm-greeter") or shutil.which("sddm-greeter-qt6")
os.makedirs("/run/systemd/journal", exist_ok=True)
journal = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
journal.bind("/run/systemd/journal/socket")
journal.settimeout(0.2)
process = subprocess.Popen([greeter, "--test-mode", "--theme", theme], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
messages = []
end = time.monotonic() + seconds
while time.monotonic() < end:
    try:
        data = journal.recv(1 << 20)
    except socket.timeout:
        continue
    for line in data.split(b"\n"):
        if line.startswith(b"MESSAGE="):
            messages.append(line[8:].decode(errors="replace"))
process.terminate()
output = process.communicate()[0].decode(errors="replace")
print(json.dumps({"greeter": greeter, "journal": messages, "output": output}))
"""


def test_mode_script(work, theme, seconds, inside=None, debug=True, input_method=""):
    """Shell text that runs TEST_MODE (kept in `work`, a private directory, which the script sees at `inside` when
    it runs in another root) under its own Xvfb, in a private /run (run it in a mount namespace of its own), with
    QT_IM_MODULE=`input_method` (as the daemon sets it from [General] InputMethod: qtvirtualkeyboard by default);
    with `debug`, the theme's debug lines on (DEBUG_RULES)."""
    with open(os.path.join(work, "test_mode.py"), "w") as f:
        f.write(TEST_MODE)
    work = inside or work
    catcher = os.path.join(work, "test_mode.py")
    script = "W=%s\nexport XDG_RUNTIME_DIR=$W QT_QPA_PLATFORM=xcb QT_IM_MODULE=%s\n" % (
        shlex.quote(work),
        shlex.quote(input_method),
    )
    if debug:
        script += "export %s\n" % shlex.quote("QT_LOGGING_RULES=" + DEBUG_RULES)
    script += "mount -t tmpfs -o mode=0755 tmpfs /run\n"
    script += xvfb.start("-screen 0 1024x768x24")
    script += "python3 %s %s %d; status=$?\nkill $xpid\nexit $status\n" % (catcher, shlex.quote(theme), seconds)
    return script


def test_mode_output(theme, seconds=8, debug=True, input_method=""):
    """What this machine's greeter says in test mode with the theme at `theme` (TEST_MODE's JSON)."""
    with tempfile.TemporaryDirectory(prefix="pam_pattern-sddm-test-mode.") as work:
        os.chmod(work, 0o700)  # also XDG_RUNTIME_DIR, which Qt wants private
        script = test_mode_script(work, theme, seconds, debug=debug, input_method=input_method)
        done = run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script], timeout=60 + seconds)
    if done.returncode != 0:
        raise AssertionError("the greeter's run failed: %s" % (done.stdout + done.stderr).decode(errors="replace"))
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


def test_mode_problems(said, theme):
    """What is wrong in a test-mode run of the theme at `theme` (TEST_MODE's JSON): the theme not loaded, a word
    about its files (a QML error or warning, a JavaScript exception), an error, or no grid shown."""
    # Qt 6's greeter (on its standard output) says the theme's console.log lines after "qml: ", or after the
    # logging category's name for the theme's debug lines ("pam_pattern.greeter: ").
    lines = [
        line.split(": ", 1)[1] if line.startswith(("qml: ", "pam_pattern.greeter: ")) else line
        for line in said["journal"] + said["output"].splitlines()
    ]
    problems = []
    if "Loading file://%s/Main.qml..." % theme not in lines:
        problems.append("the theme was not loaded: %r" % lines)
    problems += [line for line in lines if theme in line and not line.startswith("Loading ")]
    problems += [line for line in lines if "Error" in line or "QML" in line or "qml:" in line.lower()]
    if not [line for line in lines if line.startswith("pam_pattern: grid ")]:
        problems.append("no grid was shown: %r" % lines)
    return problems


# Runs Xvfb for SDDM: keeps the arguments Xvfb understands (-auth, -displayfd, -nolisten, -noreset), drops Xorg's.
XSERVER = """#!/bin/sh
set -- "$@" END
while [ "$1" != END ]; do
  case "$1" in
    -background|-seat) shift 2;;
    vt*) shift;;
    *) set -- "$@" "$1"; shift;;
  esac
done
shift
exec Xvfb "$@" -screen 0 1024x768x24
"""

# What the daemon runs for power off and reboot ([General] HaltCommand, RebootCommand): the call's name to the log.
POWER_COMMAND = """#!/bin/sh
echo %(call)s >> %(log)s
"""
UPOWER_STUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "upower_stub.py")
# The system bus lets root own the stand-in's name and anyone call it (as upower's own policy file does).
UPOWER_POLICY = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <policy user="root"><allow own="org.freedesktop.UPower"/></policy>
  <policy context="default"><allow send_destination="org.freedesktop.UPower"/></policy>
</busconfig>
"""

# The throwaway session: writes who and where to the marker, and exits (SDDM then shows its greeter again).
SESSION_SCRIPT = """#!/bin/sh
echo "$(id -un) $DISPLAY" >> %(marker)s
"""


class SddmNamespace(pad.DaemonNamespace):
    """pad.DaemonNamespace (profile, helper, private /dev, /run and /tmp) plus what SDDM needs; see the module
    docstring."""

    def __init__(self, test, user, virtual_keyboard=False):
        pad.DaemonNamespace.__init__(self, test)
        # /etc first: the overlays on /etc/security and /etc/pam.d go on top of it.
        extra = {
            # /usr/share/sddm, not its themes/: the sddm package ships no themes directory
            "/usr/share/sddm": "usr_share_sddm",
            "/usr/share/xsessions": "xsessions",
            "/usr/lib": "usr_lib",
            "/var/log": "var_log",
            # the bus's policy for the UPower stand-in (upower_stub.py)
            "/usr/share/dbus-1": "dbus_share",
        }
        self.overlays = dict([("/etc", "etc")] + list(self.overlays.items()) + list(extra.items()))
        for name in ("etc",) + tuple(extra.values()):
            for layer in ("up", "work"):
                os.makedirs(os.path.join(self.root, "overlay", name, layer), exist_ok=True)
        self.etc_upper = os.path.join(self.root, "overlay", "etc", "up")
        # The theme as its package pam-pattern-sddm has it, unpacked by dpkg.
        with tempfile.TemporaryDirectory(prefix="sddm-deb.", dir=self.root) as unpacked:
            subprocess.run(["dpkg-deb", "-x", debs.built()[debs.SDDM], unpacked], check=True)
            upper = os.path.join(self.root, "overlay", "usr_share_sddm", "up", "themes")
            os.makedirs(upper)
            os.rename(unpacked + THEMES + "/" + THEME_ID, os.path.join(upper, THEME_ID))
        # The theme's debug lines on, which the driver reads (SDDM reads theme.conf.user over theme.conf).
        with open(os.path.join(upper, THEME_ID, "theme.conf.user"), "w") as f:
            f.write("[General]\ndebug=true\n")
        os.chmod(os.path.join(upper, THEME_ID, "theme.conf.user"), 0o644)
        # The marker the session writes, in a directory the user owns.
        self.marker_dir = os.path.join(self.root, "marker")
        os.makedirs(self.marker_dir)
        os.chown(self.marker_dir, user.uid, -1)
        self.marker = os.path.join(self.marker_dir, "marker")
        script = self.write_file("session.sh", SESSION_SCRIPT % {"marker": shlex.quote(self.marker)}, 0o755)
        self.write_overlay(
            "xsessions",
            "pp-marker.desktop",
            "[Desktop Entry]\nName=Desktop\nExec=%s\nType=Application\n" % script,
        )
        xserver = self.write_file("xserver.sh", XSERVER, 0o755)
        # The daemon's power calls: what it runs to power off and reboot, and the UPower stand-in it asks for
        # suspend, write their name to one log.
        self.power_log = os.path.join(self.root, "power.log")
        halt = self.write_file("halt.sh", POWER_COMMAND % {"call": "PowerOff", "log": self.power_log}, 0o755)
        reboot = self.write_file("reboot.sh", POWER_COMMAND % {"call": "Reboot", "log": self.power_log}, 0o755)
        with open(UPOWER_STUB) as f:
            self.upower_stub = self.write_file("upower_stub.py", f.read(), 0o644)
        self.write_overlay("dbus_share", "system.d/pp-upower.conf", UPOWER_POLICY)
        if virtual_keyboard:
            # Qt's virtual keyboard input method in this namespace only (its QML module is installed by make deps):
            # the greeter then runs with it, as SDDM's default InputMethod=qtvirtualkeyboard asks.
            with tempfile.TemporaryDirectory(prefix="vk-deb.", dir=self.root) as unpacked:
                subprocess.run(["dpkg-deb", "-x", virtual_keyboard_deb(), unpacked], check=True)
                lib = os.path.join(unpacked, "usr", "lib")
                upper = os.path.join(self.root, "overlay", "usr_lib", "up")
                subprocess.run(["cp", "-a", "--no-preserve=ownership", lib + "/.", upper], check=True)
        self.write_overlay(
            "usr_lib",
            "sddm/sddm.conf.d/pp-test.conf",
            "[General]\nDisplayServer=x11\nHaltCommand=%s\nRebootCommand=%s\n[X11]\nServerPath=%s\n"
            # Only the test's user in the list (not the machine's accounts, which a screenshot would show).
            "[Users]\nRememberLastUser=true\nMinimumUid=%d\nMaximumUid=%d\n"
            % (halt, reboot, xserver, user.uid, user.uid),
        )
        # SDDM's state (owned by sddm, as the package makes it): the last user and session, as after a login.
        state = os.path.join(self.root, "overlay", "var_lib", "up", "sddm")
        os.makedirs(state)
        shutil.copystat("/var/lib/sddm", state)
        stat = os.stat("/var/lib/sddm")
        os.chown(state, stat.st_uid, stat.st_gid)
        with open(os.path.join(state, "state.conf"), "w") as f:
            f.write("[Last]\nSession=%s\nUser=%s\n" % (SESSION, user.name))
        os.chown(os.path.join(state, "state.conf"), stat.st_uid, stat.st_gid)


# The surface's test driver (Sources/Surfaces/sddm/driver.py), one script with the shared parts in place.
DRIVER = surfaces.driver("sddm")


class SddmCase(pad.PadCase):
    """A throwaway USER with PASSWORD and helper.PATTERN, the profile enabled, SDDM with the theme (see above);
    with VIRTUAL_KEYBOARD, Qt's virtual keyboard input method installed in the namespace."""

    VIRTUAL_KEYBOARD = False

    def namespace(self):
        return SddmNamespace(self, self.user, self.VIRTUAL_KEYBOARD)

    def session(self, steps, timeout=240, theme=None):
        """Runs the steps at the login screen, the theme and quiet_services turned on (and off at the end) with the
        reference's commands; returns the driver's report. Made once: a run in which SDDM 0.19 lost its helper's
        prompt (see stuck()) fails, which quiet_services is there to prevent. With `theme`, another installed theme
        is turned on instead (SDDM's own Breeze, for a screenshot beside ours)."""
        job = {
            "root": self.sandbox.root,
            "etc_upper": self.sandbox.etc_upper,
            "marker": self.sandbox.marker,
            "conf": CONF,
            "on": "%s && %s" % (ON if theme is None else other_theme_on(theme), QUIET_ON),
            "other_theme": theme is not None,
            "off": "%s && %s" % (OFF, QUIET_OFF),
            "steps": steps,
            "services": [["python3", self.sandbox.upower_stub, self.sandbox.power_log]],
            "hostname": HOSTNAME,
        }
        report = self.run_driver("sddm", DRIVER, job, timeout)
        report["log"] = "\n".join("%s: %s" % tuple(entry) for entry in report["journal"])
        self.assertTrue(report["ready"], "the login screen did not come up:\n%s" % report["log"])
        self.assertEqual(report["conf_on"], (report["conf_before"] or "") + "quiet_services = sddm\n", report["on"])
        if theme is not None:
            return report
        self.assertFalse(stuck(report), "SDDM 0.19 lost its helper's prompt after a message:\n%s" % report["log"])
        return report

    def said_by_pam(self, report):
        """The messages of PAM modules that reached the daemon (it logs each: "Authentication error: ..." and
        "Authentication information: ..."), but for the stack's own end, "Authentication failure"."""
        return [
            message
            for who, message in report["journal"]
            if who == "sddm"
            and message.startswith(("Authentication error: ", "Authentication information: "))
            and message.split(": ", 1)[1] != '"Authentication failure"'
        ]

    def power_calls(self):
        """The power calls the daemon made (the halt and reboot commands', the UPower stand-in's), in order."""
        try:
            with open(self.sandbox.power_log) as f:
                return f.read().split()
        except FileNotFoundError:
            return []

    def logged(self, report, text):
        """The theme's log lines that start with `text`."""
        found = []
        for _, message in report["journal"]:
            if message.startswith("pam_pattern: ") and message[13:].startswith(text):
                found.append(message[13:])
        return found


VIRTUAL_KEYBOARD_PACKAGE = "qtvirtualkeyboard-plugin"


def virtual_keyboard_deb():
    """The .deb of Qt 5's virtual keyboard input method, fetched once with `apt-get download` into the build
    directory (never installed on the machine)."""
    cache = os.path.join(BUILD, "apt")
    os.makedirs(cache, exist_ok=True)
    found = [name for name in os.listdir(cache) if name.startswith(VIRTUAL_KEYBOARD_PACKAGE + "_")]
    if not found:
        done = run(["apt-get", "download", VIRTUAL_KEYBOARD_PACKAGE], cwd=cache, timeout=120)
        found = [name for name in os.listdir(cache) if name.startswith(VIRTUAL_KEYBOARD_PACKAGE + "_")]
        if not found:
            raise AssertionError("apt-get download %s failed: %r" % (VIRTUAL_KEYBOARD_PACKAGE, done))
    return os.path.join(cache, sorted(found)[-1])


def stuck(report):
    """Whether SDDM 0.19's daemon lost a message of its helper in this run (src/auth/Auth.cpp before 0.20,
    commit 48a98c7 "Process all available auth messages in a loop": one message read per readyRead, so a PAM
    error message and the next module's prompt that arrive together leave the prompt unread, and the helper waits
    for its answer until SDDM stops; quiet_services = sddm leaves no message before a prompt): the helper's last
    word before SDDM was stopped is a conversation."""
    last = None
    for who, message in report["journal"]:
        if who == "sddm" and message == "Signal received: SIGTERM":
            break
        if who == "sddm-helper" and message.startswith("[PAM] "):
            last = message
    return last == "[PAM] Conversation with 1 messages"
