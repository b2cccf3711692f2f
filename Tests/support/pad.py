"""The pattern pad at a real lock screen: xsecurelock under Xvfb, run by a throwaway user, with auth_pattern at its
installed path and the setuid helper at its own (support.helper's namespace), driven by xdotool.

PadNamespace adds to helper.Namespace (which, with profile=True, enables the shipped pam-auth-update profile in
overlays of /etc/pam.d and its books: pattern, then password, in common-auth, the built module named by its
path): an overlay on /usr/libexec holding the built auth_pattern at /usr/libexec/pam-pattern/auth_pattern (and
pattern-draw, the window of `patternctl set --draw`, beside it);
/dev/log captured (a private /dev with the few device nodes the programs need); with chinese=True the zh_CN
catalogue mounted over /usr/share/locale/zh_CN.

A session (PadSession.run) is one JSON job for DRIVER, which runs in the namespace as root: Xvfb -displayfd,
xsecurelock as the user, then the steps. Every screenshot is an xwd file in the sandbox, read by support.screen.
"""

import json
import os
import shlex
import shutil
import tempfile
import unittest

from support import helper, screen, surfaces, zh_cn
from support.paths import BUILD, MODULE, ROOT, require_built, require_tools

PAD = os.path.join(BUILD, "auth_pattern")
DRAW = os.path.join(BUILD, "pattern-draw")
INSTALLED_PAD = "/usr/libexec/pam-pattern/auth_pattern"
SCREEN = (1024, 768)
# XSECURELOCK_PATTERN_SIZE in every session: the dots' places follow from it (PadLayout: the grid centred
# across, a third of the spacing above the middle).
SPACING = 100
CENTRE = (SCREEN[0] // 2, SCREEN[1] // 2 - SPACING // 3)


def dot_centre(dot):
    """Root coordinates of dot 1..9 (1 2 3 on top)."""
    return CENTRE[0] + ((dot - 1) % 3 - 1) * SPACING, CENTRE[1] + ((dot - 1) // 3 - 1) * SPACING


def dot_shows(image, dot, predicate, above=SPACING // 10):
    """Whether dot 1..9 is drawn in a colour predicate takes, read `above` px over its centre (the pad's own pointer
    may sit on the centre; a lit dot is wider than a plain one)."""
    x, y = dot_centre(dot)
    return predicate(*image.pixel(x, y - above))


def grid_box(margin=SPACING // 2):
    """(x0, y0, x1, y1) around the nine dots."""
    (x0, y0), (x1, y1) = dot_centre(1), dot_centre(9)
    return x0 - margin, y0 - margin, x1 + margin, y1 + margin


def require_pad():
    require_built(PAD, MODULE)
    require_tools("Xvfb", "xsecurelock", "xdotool", "xwd", "xprop", "xwininfo", "pam-auth-update")
    if not os.path.exists("/usr/libexec/xsecurelock/authproto_pam"):
        raise AssertionError("xsecurelock's authproto_pam is missing (make deps)")


def set_up_module():
    """Every pad suite's setUpModule: the pad and its tools (else it fails or skips), then the run lock the
    helper suites share (throwaway users, the setuid helper), released when the module's tests are done, also
    when a later check of the suite's own setUpModule skips."""
    require_pad()
    helper.take_run_lock()
    unittest.addModuleCleanup(helper.release_run_lock)


def dots(digits):
    """A pattern written as digits ("2759148") as the dots a drag goes through."""
    return [int(d) for d in digits]


# Stands in for authproto_pam where a test must see exactly what the pad sends: asks "Pattern: " up to three
# times, writes each reply's type and bytes to its log (a test's own throwaway digits), exits 1 (stays locked).
# PAD_RECORDER_DELAY: seconds it takes to answer a reply (a slow hash); PAD_RECORDER_ACCEPT=1: the first pattern
# reply is taken as right (exit 0, the screen opens).
RECORDER = r"""#!/usr/bin/python3
import os, sys, time
log = open(os.environ["PAD_RECORDER_LOG"], "a")
def send(kind, text):
    data = text.encode()
    sys.stdout.buffer.write(b"%s %d\n%s\n" % (kind.encode(), len(data), data))
    sys.stdout.flush()
def read():
    kind = sys.stdin.buffer.read(1)
    if not kind:
        return None, None
    sys.stdin.buffer.read(1)
    n = b""
    while True:
        c = sys.stdin.buffer.read(1)
        if c in (b"\n", b""):
            break
        n += c
    data = sys.stdin.buffer.read(int(n))
    sys.stdin.buffer.read(1)
    return kind.decode(), data.decode()
for _ in range(3):
    send("P", "Pattern: ")
    kind, data = read()
    log.write("%s %s\n" % (kind, data))
    log.flush()
    if kind != "p":
        sys.exit(1)
    time.sleep(float(os.environ.get("PAD_RECORDER_DELAY", "0")))
    if os.environ.get("PAD_RECORDER_ACCEPT") == "1":
        sys.exit(0)
    send("e", "Wrong pattern.")
sys.exit(1)
"""


# The surface's test driver (Sources/Surfaces/pad/driver.py), one script with the shared parts in place.
DRIVER = surfaces.driver("pad")


class PadNamespace(helper.Namespace):
    """helper.Namespace plus auth_pattern at its installed path, the profile enabled in common-auth, /dev/log
    captured, and (chinese=True) the zh_CN catalogue; see the module docstring."""

    def __init__(self, test, profile=True, chinese=False, services=None):
        # helper.Namespace puts /etc/pam.d, pam-configs and debconf's cache under overlays for the profile and
        # the extra services, so pam-auth-update writes nothing real.
        helper.Namespace.__init__(self, test, pam_d=services or {}, profile=profile)
        self.chinese = chinese
        self.overlays["/usr/libexec"] = "usr_libexec"
        for layer in ("up", "work"):
            os.makedirs(os.path.join(self.root, "overlay", "usr_libexec", layer), exist_ok=True)
        pad_dir = os.path.join(self.root, "overlay", "usr_libexec", "up", "pam-pattern")
        os.makedirs(pad_dir)
        for program, built in (("auth_pattern", PAD), ("pattern-draw", DRAW)):
            if os.path.exists(built):
                shutil.copyfile(built, os.path.join(pad_dir, program))
                os.chmod(os.path.join(pad_dir, program), 0o755)
        os.chmod(pad_dir, 0o755)
        self.recorder = os.path.join(self.root, "authproto_recorder")
        with open(self.recorder, "w") as f:
            f.write(RECORDER)
        os.chmod(self.recorder, 0o755)
        self.recorder_log = os.path.join(self.root, "recorder.log")

    def setup_script(self):
        q = shlex.quote
        w = q(self.root)
        lines = [helper.Namespace.setup_script(self), "set -e"]
        # A private /dev whose /dev/log the driver binds (the real machine has no syslog to read).
        lines += [
            "mkdir -p %s/realdev && mount --bind /dev %s/realdev" % (w, w),
            "mount -t tmpfs -o mode=0755 tmpfs /dev",
            "for n in null zero full random urandom tty ptmx; do touch /dev/$n; mount --bind %s/realdev/$n /dev/$n; done"
            % w,
            "mkdir /dev/pts /dev/shm && mount --bind %s/realdev/pts /dev/pts && mount -t tmpfs -o mode=1777 tmpfs /dev/shm"
            % w,
        ]
        if self.chinese:
            messages = os.path.join(self.root, "messages")
            os.makedirs(messages, exist_ok=True)
            shutil.copy(zh_cn.CATALOGUE, messages)
            os.chmod(messages, 0o755)
            lines.append("mount --bind %s %s" % (q(messages), zh_cn.MESSAGES))
        return "\n".join(lines) + "\n"


class DaemonNamespace(PadNamespace):
    """A PadNamespace for a display manager's daemon (SDDM, LightDM), which starts X servers, greeters and
    sessions of its own: also a pid and uts namespace (when the driver ends, the kernel ends every process started
    there), a private /run (the daemon's and the bus's sockets) and /tmp (X's lock files) with the sandbox bound
    back at its path, and overlays written by write_overlay."""

    def write_overlay(self, layer, name, text):
        path = os.path.join(self.root, "overlay", layer, "up", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        for directory in (os.path.dirname(path), os.path.dirname(os.path.dirname(path))):
            if directory.startswith(os.path.join(self.root, "overlay", layer, "up", "")):
                os.chmod(directory, 0o755)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)

    def setup_script(self):
        # A private /tmp (X's lock files, the daemon's sockets) with the sandbox bound back at its path, and this tree
        # too when it is under /tmp (a fresh clone there: the stack names the built module by its path).
        kept = [self.root] + ([ROOT] if os.path.realpath(ROOT).startswith("/tmp/") else [])
        lines = ["mount -t tmpfs -o mode=0755 tmpfs /run", "mkdir -p /run/lock /run/dbus /run/systemd/journal"]
        for i, path in enumerate(kept):
            lines.append("mkdir -p /run/keep/%d && mount --bind %s /run/keep/%d" % (i, shlex.quote(path), i))
        lines.append("mount -t tmpfs -o mode=1777 tmpfs /tmp")
        for i, path in enumerate(kept):
            lines.append("mkdir -p %s && mount --bind /run/keep/%d %s" % (shlex.quote(path), i, shlex.quote(path)))
        return PadNamespace.setup_script(self) + "\n".join(lines + [""])

    # A network namespace too (no network, only the loopback's absence): X's abstract sockets are per network
    # namespace, so an X server another test runs at the same display number elsewhere on the machine is not the
    # one the daemon connects to.
    PRIVATE_NETWORK = False

    def argv(self, command):
        # A pid namespace too: when its first process (the driver) ends, the kernel ends every other one.
        return (
            [
                "unshare",
                "--mount",
                "--pid",
                "--uts",
            ]
            + (["--net"] if self.PRIVATE_NETWORK else [])
            + [
                "--fork",
                "--kill-child",
                "--mount-proc",
                "--propagation",
                "private",
                "sh",
                "-c",
                self.setup_script() + command,
            ]
        )


class PadCase(helper.HelperCase):
    """A throwaway USER with PASSWORD and helper.PATTERN, and a PadNamespace (PROFILE: common-auth with the
    pattern profile enabled)."""

    PASSWORD = "Pad-test-pw-42"
    PROFILE = True
    CHINESE = False
    # Extra PAM services in the namespace's /etc/pam.d: {name: [lines]}.
    SERVICES = None

    def namespace(self):
        return PadNamespace(self, profile=self.PROFILE, chinese=self.CHINESE, services=self.SERVICES)

    def session(self, steps, env=None, recorder=False, timeout=180):
        """Runs the steps at the lock screen; returns the driver's report (steps, log, locked_at_end)."""
        environment = dict(env or {})
        if recorder:
            environment["XSECURELOCK_AUTHPROTO"] = self.sandbox.recorder
            environment["PAD_RECORDER_LOG"] = self.sandbox.recorder_log
            with open(self.sandbox.recorder_log, "w"):
                pass
            os.chown(self.sandbox.recorder_log, self.user.uid, -1)  # the recorder runs as the user
            for step in steps:
                if step["op"] == "wake":
                    step["proto"] = "authproto_recor"  # comm is cut at 15 bytes
        job = {
            "root": self.sandbox.root,
            "screen": list(SCREEN),
            "spacing": SPACING,
            "centre": list(CENTRE),
            "user": self.user.name,
            "home": "/home/" + self.user.name,
            "pad": INSTALLED_PAD,
            "setpriv": helper.setpriv_argv(self.user),
            "env": environment,
            "steps": steps,
        }
        report = self.run_driver("pad", DRIVER, job, timeout)
        report["locker_log"] = self.read("xsecurelock.log")
        return report

    def run_driver(self, name, driver, job, timeout):
        """Runs the driver script (python, as root) in the namespace with the job (JSON) on its argv; returns
        the report it prints (JSON)."""
        path = os.path.join(self.sandbox.root, "%s_driver.py" % name)
        with open(path, "w") as f:
            f.write(driver)
        done = self.sandbox.run(
            "exec /usr/bin/python3 %s %s" % (shlex.quote(path), shlex.quote(json.dumps(job))), timeout=timeout
        )
        if done.returncode != 0:
            raise AssertionError(
                "%s driver failed (%d): %s" % (name, done.returncode, done.stderr.decode(errors="replace"))
            )
        return json.loads(done.stdout)

    def read(self, name):
        try:
            with open(os.path.join(self.sandbox.root, name), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return b""

    def shot(self, name):
        """A screenshot the session took, as a support.screen.Image."""
        return screen.parse_xwd(self.read(name))

    def recorded(self):
        """What the recorder got: [(type, bytes)]."""
        return [tuple(line.split(" ", 1)) for line in self.read("recorder.log").decode().splitlines()]

    def step(self, report, op, index=0):
        found = [s for s in report["steps"] if s["op"] == op]
        self.assertGreater(len(found), index, "no %s step in %r" % (op, report["steps"]))
        return found[index]

    def assertWrongDrawingRedAWhile(self, report, wrong):
        """wrong_drawing_red_a_while on this session's screenshots and the dots' centres it logged. Returns the
        centres and a screenshot in red."""
        centres = grid_centres(self.logged(report, "grid")[-1])
        return centres, wrong_drawing_red_a_while(self, centres, self.shot, wrong)

    def assertWoke(self, report):
        wake = self.step(report, "wake")
        self.assertTrue(
            wake["pad"] and wake["ready"], "the pad did not come up: %r\n%s" % (report, report["locker_log"])
        )


def grid_centres(grid_line):
    """The nine dots' centres [(x, y)] of a QML surface's log line "grid X,Y X,Y ..."."""
    return [tuple(int(v) for v in point.split(",")) for point in grid_line.split()[1:]]


def wrong_drawing_red_a_while(test, centres, shot, wrong):
    """At a QML surface whose dots are at `centres`, after the `wrong` drawing: its first dot red in one of the
    session's screenshots wrong-0.xwd ... wrong-5.xwd (shot(name): a support.screen.Image), a dot outside it red
    in none, and the first dot no longer red in after.xwd (seconds later). Returns a screenshot in red. Every
    surface's test (the pad's namespace, the Debian 13 chroot) checks the red by this one function."""
    first = centres[int(wrong[0]) - 1]
    untouched = centres[[d for d in range(1, 10) if str(d) not in wrong][0] - 1]
    shots = [shot("wrong-%d.xwd" % i) for i in range(6)]
    red = [image for image in shots if screen.is_wrong_colour(image.pixel(*first))]
    test.assertTrue(red, "the wrong drawing's first dot is never red: %r" % [image.pixel(*first) for image in shots])
    test.assertFalse(
        any(screen.is_wrong_colour(image.pixel(*untouched)) for image in shots), "a dot outside the drawing is red"
    )
    test.assertFalse(screen.is_wrong_colour(shot("after.xwd").pixel(*first)), "still red seconds later")
    return red[0]


def committed_shot_differs(path, shot):
    """A README screenshot made by a suite: written anew when PAM_PATTERN_UPDATE_SCREENSHOT=1 (or missing);
    then the message saying how the committed one differs from `shot`, or None when it still shows the same
    but for a few pixels of font rendering (at most 3 % of the bytes off by more than 48)."""
    if os.environ.get("PAM_PATTERN_UPDATE_SCREENSHOT") == "1" or not os.path.exists(path):
        keep(path, shot)
    committed = screen.read_png(path)
    if (committed.width, committed.height) != (shot.width, shot.height):
        return "%s is %dx%d, the screen shows %dx%d" % (
            path,
            committed.width,
            committed.height,
            shot.width,
            shot.height,
        )
    different = sum(1 for y in range(shot.height) for a, b in zip(shot.rows[y], committed.rows[y]) if abs(a - b) > 48)
    if different >= shot.width * shot.height * 3 // 100:
        return "%s no longer shows what is drawn (%d bytes differ; PAM_PATTERN_UPDATE_SCREENSHOT=1 remakes it)" % (
            os.path.relpath(path),
            different,
        )
    return None


def keep(path, image):
    """Writes image as PNG at path (the README's screenshot)."""
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    temp = tempfile.NamedTemporaryFile(dir=directory, delete=False)
    with temp:
        temp.write(image.png())
    os.chmod(temp.name, 0o644)
    os.replace(temp.name, path)
