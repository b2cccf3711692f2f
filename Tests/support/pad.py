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

from support import helper, screen, zh_cn
from support.paths import BUILD, MODULE, require_built, require_tools

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

# The start every lock-screen driver shares (this one, support.kde's): Xvfb of job["screen"] on a display it
# names itself (-displayfd), that display in `display` and `env`, `x(...)` to run an X client there, and
# `stop(process)` to end a process group.
DRIVER_XVFB = r'''
rfd, wfd = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-nolisten", "tcp", "-ac", "-screen", "0", "%dx%dx24" % tuple(job["screen"])],
                        pass_fds=[wfd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(wfd)
number = b""
while not number.endswith(b"\n"):
    chunk = os.read(rfd, 16)
    if not chunk:
        break
    number += chunk
display = ":" + number.decode().strip()
env = dict(os.environ, DISPLAY=display, LANG="C.UTF-8")  # xprop prints the caption as UTF-8
def x(*argv):
    subprocess.run(list(argv), env=env, check=True, timeout=30)
def stop(process):
    """Ends a process group led by `process` (the locker, the greeter): SIGTERM, then SIGKILL after 10 s."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
'''

# What every pointer driver does on the display it drives (this one, support.draw's, support.kde's and
# support.sddm's): needs `job`, `W` (the sandbox's root), `x(...)` and `env` (with DISPLAY) of the driver's own.
DRIVER_POINTER = r'''
def wait_for(predicate, timeout, every=0.05):
    # predicate()'s first true value within `timeout` s, else its last (false) one.
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return predicate()
def move(point):
    x("xdotool", "mousemove", str(point[0]), str(point[1]))
def centre(dot):
    # A dot's centre on the grid the surface draws at job's "centre" with job's "spacing" (the pad's, the window's).
    c = job["centre"]; s = job["spacing"]
    return c[0] + ((dot - 1) % 3 - 1) * s, c[1] + ((dot - 1) // 3 - 1) * s
def glide(points, steps=4, pause=0.03, dwell=0.0):
    # The pointer from points[0] through each further point: `steps` samples between neighbours, `pause` s
    # apart, and `dwell` s on each point (a hand slows at a corner: under load Qt's X11 plugin merges queued
    # motion events, and a corner merged away is a straight line past it, another drawing).
    last = points[0]
    for point in points[1:]:
        for i in range(1, steps + 1):
            move((last[0] + (point[0] - last[0]) * i // steps, last[1] + (point[1] - last[1]) * i // steps))
            time.sleep(pause)
        time.sleep(dwell)
        last = point
def shot(name):
    subprocess.run(["xwd", "-root", "-silent", "-out", os.path.join(W, name)], env=env, check=True, timeout=30)
def shots(step):
    # `count` screenshots `every` s apart, starting now (names NAME-0.xwd ...).
    for i in range(step["count"]):
        shot("%s-%d.xwd" % (step["name"], i))
        time.sleep(step.get("every", 0.1))
def caption_until(step, timeout):
    # The surface's words (`caption()`, the driver's own), read again (up to the step's `timeout` s) until they
    # hold every text of `until` (a text, or a list): a surface renames its window a moment after each event
    # that changes them, and one event (a wrong pattern) may change them twice (the message, then the prompt).
    wanted = step.get("until", [])
    wanted = [wanted] if isinstance(wanted, str) else wanted
    text = caption()
    end = time.monotonic() + step.get("timeout", timeout)
    while any(w not in (text or "") for w in wanted) and time.monotonic() < end:
        time.sleep(0.05)
        text = caption()
    return text
def common_step(step):
    # The steps every surface's driver takes alike; False for any other.
    op = step["op"]
    if op == "shot":
        shot(step["name"])
    elif op == "shots":
        shots(step)
    elif op == "type":
        x("xdotool", "type", "--delay", "40", step["text"])
    elif op == "key":
        x("xdotool", "key", step["name"])
    elif op == "sleep":
        time.sleep(step["seconds"])
    else:
        return False
    return True
def drag_on_logged_grid(step):
    # The QML surfaces log the dots' centres ("grid X,Y ...", again whenever the window moves; the driver's
    # `lines(text)` reads its log): the step's path of dots (or [x, y] points) dragged through the last ones.
    last_grid = lines("grid ")[-1].split()[1:]
    centres = {dot: tuple(int(v) for v in point.split(",")) for dot, point in enumerate(last_grid, 1)}
    points = [centres[p] if isinstance(p, int) else tuple(p) for p in step["path"]]
    move(points[0]); time.sleep(0.1)
    x("xdotool", "mousedown", "1"); time.sleep(0.05)
    glide(points, step.get("steps", 4), step.get("pause", 0.03), step.get("dwell", 0.1))
    for name in step.get("shots_before_release", []):
        shot(name)
    # "release": false keeps the button down (a driver's own step lets go later).
    if step.get("release", True):
        x("xdotool", "mouseup", "1")
'''

# Runs in the namespace as root with the job (JSON) on argv[1]; prints the results (JSON).
DRIVER = (
    r'''
import json, os, re, signal, socket, subprocess, sys, threading, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {"steps": [], "log": []}
log = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
log.bind("/dev/log")
os.chmod("/dev/log", 0o666)
# Read as it comes: a datagram socket's queue is short (net.unix.max_dgram_qlen), and a full one blocks the
# sender's syslog(3), so a log read only at the end would stall authproto_pam after a dozen lines.
log.settimeout(0.2)
logging = True
def read_log():
    while logging:
        try:
            out["log"].append(log.recv(65536).decode("latin-1"))
        except socket.timeout:
            pass
log_reader = threading.Thread(target=read_log)
log_reader.start()
'''
    + DRIVER_XVFB
    + DRIVER_POINTER
    + r'''user_env = {"PATH": "/usr/bin:/bin", "HOME": job["home"], "USER": job["user"], "LOGNAME": job["user"],
            "DISPLAY": display, "XSECURELOCK_AUTH": job["pad"], "XSECURELOCK_PATTERN_SIZE": str(job["spacing"])}
user_env.update(job["env"])
locker_log = open(os.path.join(W, "xsecurelock.log"), "wb")
locker = subprocess.Popen(job["setpriv"] + ["xsecurelock"], env=user_env, stdout=locker_log, stderr=subprocess.STDOUT,
                          start_new_session=True)
def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []
def descendants(pid):
    found = []
    for child in children(pid):
        found.append(child)
        found.extend(descendants(child))
    return found
def name(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return ""
def running(pid):
    # A process that has ended but is not yet reaped (its parent held by SIGSTOP) is a zombie: not running.
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False
def find(comm):
    for pid in descendants(locker.pid):
        if name(pid) == comm and running(pid):
            return pid
    return None
def caption():
    # The pad names its windows with the words on screen; they sit in $XSCREENSAVER_WINDOW (under xsecurelock's
    # composite overlay, so not in the root's tree).
    pad = find("auth_pattern")
    try:
        with open("/proc/%d/environ" % pad, "rb") as f:
            variables = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
    except (OSError, TypeError):
        return None
    parent = variables.get(b"XSCREENSAVER_WINDOW")
    if not parent:
        return None
    tree = subprocess.run(["xwininfo", "-id", parent.decode(), "-children"], env=env, capture_output=True, text=True).stdout
    for wid in re.findall(r"^\s+(0x[0-9a-f]+) ", tree, re.M):
        got = subprocess.run(["xprop", "-id", wid, "-notype", "WM_CLASS", "_NET_WM_NAME"], env=env, capture_output=True).stdout
        text = got.decode("utf-8", "replace")
        if '"auth_pattern"' not in text or "_NET_WM_NAME = " not in text:
            continue
        value = text.split("_NET_WM_NAME = ", 1)[1].strip()
        if value.startswith('"') and value.endswith('"'):
            value = value[1:-1]
        return value.replace("\\n", "\n").replace('\\"', '"')
    return None
def shoot_after(shot_after_press, result):
    time.sleep(max(0.0, result["pressed_at"] + shot_after_press["delay"] - time.monotonic()))
    result["shot_at"] = time.monotonic() - result["pressed_at"]
    shot(shot_after_press["name"])
    result["shot_caption"] = caption()
last_release = None
time.sleep(0.3)
for position, step in enumerate(job["steps"]):
    op = step["op"]
    result = {"op": op}
    if op == "wake":
        if not step.get("in_place"):
            move((job["screen"][0] - 40, job["screen"][1] - 40))
            time.sleep(0.2)
        x("xdotool", "mousemove_relative", "1", "0")
        pad = wait_for(lambda: find("auth_pattern"), 15)
        result["pad"] = pad
        ready = pad and wait_for(lambda: find(step.get("proto", "authproto_pam")) and caption(), 15)
        result["ready"] = bool(ready)
        time.sleep(0.4)
    elif op == "drag":
        # Each dot (or [x, y] point) in turn, `steps` pointer samples between neighbours, `pause` s each. With `gap`
        # the press comes that many s after the previous drag's release; with `shot_after_press` {"name", "delay"} a
        # screenshot and the caption are taken that long after the press, while the drag goes on (the release waits
        # for them).
        points = [centre(p) if isinstance(p, int) else tuple(p) for p in step["path"]]
        move(points[0])
        if step.get("gap") is not None and last_release is not None:
            time.sleep(max(0.0, last_release + step["gap"] - time.monotonic()))
        else:
            time.sleep(0.15)
        shooter = None
        if step.get("press", True):
            x("xdotool", "mousedown", "1")
            result["pressed_at"] = time.monotonic()
            if last_release is not None:
                result["gap"] = result["pressed_at"] - last_release
            if step.get("shot_after_press"):
                shooter = threading.Thread(target=shoot_after, args=(step["shot_after_press"], result))
                shooter.start()
            time.sleep(0.08)
        glide(points, step.get("steps", 4), step.get("pause", 0.03))
        time.sleep(0.1)
        if shooter is not None:
            shooter.join()
        for picture in step.get("shots_before_release", []):
            shot(picture)
        if step.get("release", True):
            x("xdotool", "mouseup", "1")
            last_release = time.monotonic()
        result["released_at"] = time.monotonic()
    elif op == "press":
        # The button goes down (and stays down) before the pad is woken.
        x("xdotool", "mousedown", "1")
    elif op == "caption":
        result["text"] = caption_until(step, 5)
    elif op == "signal":
        pad = find("auth_pattern")
        result["pad"] = pad
        if pad:
            os.kill(pad, getattr(signal, step["name"]))
            wait_for(lambda: find("auth_pattern") != pad, 10)
    elif op == "locker_signal":
        # SIGSTOP holds xsecurelock where it is (its grab stays, the pad runs on); SIGCONT lets it go on.
        os.kill(locker.pid, getattr(signal, step["name"]))
    elif op == "pad_gone":
        result["gone"] = bool(wait_for(lambda: find("auth_pattern") is None, step["timeout"]))
    elif op == "processes":
        # argv and environment of every process of the user, and the pad's locked memory.
        seen = []
        for pid in [locker.pid] + descendants(locker.pid):
            entry = {"pid": pid, "comm": name(pid)}
            for what in ("cmdline", "environ"):
                try:
                    with open("/proc/%d/%s" % (pid, what), "rb") as f:
                        entry[what] = f.read().decode("latin-1")
                except OSError:
                    entry[what] = ""
            try:
                with open("/proc/%d/status" % pid) as f:
                    entry["status"] = f.read()
            except OSError:
                entry["status"] = ""
            seen.append(entry)
        result["processes"] = seen
    elif op == "wait":
        try:
            status = locker.wait(timeout=step["timeout"])
            result["unlocked"] = status == 0
            result["status"] = status
        except subprocess.TimeoutExpired:
            result["unlocked"] = False
            result["status"] = None
    elif not common_step(step):
        sys.exit("no step %r" % op)
    out["steps"].append(result)
    if locker.poll() is not None and op != "wait":
        out["steps"].append({"op": "ended", "status": locker.returncode})
        # Ended before the steps that would have waited for it (a fast unlock): they get its status.
        for later in job["steps"][position + 1 :]:
            if later["op"] == "wait":
                out["steps"].append({"op": "wait", "unlocked": locker.returncode == 0, "status": locker.returncode})
        break
out["locked_at_end"] = locker.poll() is None
stop(locker)
xvfb.terminate()
xvfb.wait()
logging = False
log_reader.join()
log.setblocking(False)
while True:
    try:
        out["log"].append(log.recv(65536).decode("latin-1"))
    except BlockingIOError:
        break
print(json.dumps(out))
'''
)


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
