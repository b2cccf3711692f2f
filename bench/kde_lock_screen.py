"""make bench's KDE lock screen probe (bench/run-bench.sh): the real Plasma 5.27 greeter (kscreenlocker_greet
--testing --theme THEME, the lock screen `make build` assembled) run by the bench user on a private Xvfb, with the
PAM service `kde` holding pam_pattern alone (run as the user, so through the setuid helper). Measures:

- idle: the greeter's CPU share of one core over 10 s while it shows the grid (from /proc/PID/stat), and beside it
  the same greeter with Plasma's stock Breeze lock screen (no --theme), which also redraws its clock and its
  field's blinking cursor: on Xvfb every frame is Mesa's software rasteriser, so the ratio is the fair figure;
- latency: with the button held on dot 1, the time from a pointer warp to the first frame whose trail ends there
  (bench/pad_probe latency, which reads the screen back: two points 60 px apart inside the grid, away from every
  dot's hit area, so the drawing takes no dot and the trail is the only light there);
- unlock: per round a new greeter, the right drawing with xdotool, the time from the release (just after `xdotool
  mouseup` returns) to the lock screen's "unlocked" line on the greeter's stderr (it logs it on kscreenlocker's
  succeeded()), and beside it one yescrypt verification of the same cost; the median of each and of the per-round
  ratios.

Latency is measured twice: as the greeter starts by default (Qt Quick on OpenGL, which on Xvfb is Mesa's software
rasteriser) and with QT_QUICK_BACKEND=software (Qt Quick's own software renderer).

Prints "idle PERCENT", "idle_stock PERCENT", "latency MEDIAN_US P95_US", "latency_software MEDIAN_US P95_US",
"unlock UNLOCK_US YESCRYPT_US RATIO ROUNDS".

usage: kde_lock_screen.py GREETER THEME UID HOME PAD_PROBE DIGITS HASH SECRET ROUNDS
"""

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

from lock_screen_bench import median, start_xvfb, yescrypt_seconds

greeter_path, theme, uid, home, probe, digits, stored, secret, rounds = sys.argv[1:10]
uid, rounds = int(uid), int(rounds)
xvfb, display = start_xvfb()


def x(*argv):
    subprocess.run(list(argv), env=dict(os.environ, DISPLAY=display), check=True, timeout=30)


class Greeter:
    """The greeter as the bench user; its output read as it comes, each line with the time it arrived."""

    def __init__(self, backend=None, stock=False):
        self.runtime = tempfile.mkdtemp(prefix="kde-runtime.", dir=home)
        os.chown(self.runtime, uid, uid)
        environment = {
            "PATH": "/usr/bin:/bin",
            "HOME": home,
            "DISPLAY": display,
            "XDG_RUNTIME_DIR": self.runtime,
            "QT_QPA_PLATFORM": "xcb",
            "LANG": "C.UTF-8",
            # The lock screen's debug lines: the bench times them.
            "QT_LOGGING_RULES": "pam_pattern.greeter.debug=true",
        }
        if backend:
            environment["QT_QUICK_BACKEND"] = backend
        self.process = subprocess.Popen(
            ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups", greeter_path, "--testing"]
            + ([] if stock else ["--theme", theme]),
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.lines = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for raw in self.process.stdout:
            self.lines.append((time.monotonic(), raw.decode("utf-8", "replace")))

    def said(self, text):
        """(time, rest of the line) of the lock screen's log lines that start with `text`."""
        marker = "pam_pattern: " + text
        return [(t, line.split(marker, 1)[1].strip()) for t, line in list(self.lines) if marker in line]

    def wait_for(self, text, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = self.said(text)
            if found:
                return found[-1]
            time.sleep(0.005)
        sys.exit("kde_lock_screen: no %r from the lock screen:\n%s" % (text, "".join(l for _, l in self.lines)))

    def centres(self):
        """The nine dots' places on the screen, from the lock screen's latest "grid" line."""
        _, points = self.wait_for("grid ", 60)
        return [tuple(int(v) for v in point.split(",")) for point in points.split()]

    def idle_share(self, seconds=10):
        """CPU share of one core (%) over `seconds`, from /proc/PID/stat."""
        before = self.ticks()
        time.sleep(seconds)
        return 100.0 * (self.ticks() - before) / os.sysconf("SC_CLK_TCK") / seconds

    def ticks(self):
        with open("/proc/%d/stat" % self.process.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def drag(points):
    """A drawing as a hand makes it: a few samples a segment and a moment on each dot (see support.kde)."""
    x("xdotool", "mousemove", str(points[0][0]), str(points[0][1]))
    time.sleep(0.1)
    x("xdotool", "mousedown", "1")
    time.sleep(0.05)
    last = points[0]
    for point in points[1:]:
        for i in range(1, 5):
            x(
                "xdotool",
                "mousemove",
                str(last[0] + (point[0] - last[0]) * i // 4),
                str(last[1] + (point[1] - last[1]) * i // 4),
            )
            time.sleep(0.03)
        time.sleep(0.1)
        last = point
    x("xdotool", "mouseup", "1")


def latency(greeter):
    """Median and p95 (us) of pad_probe's pointer warps to the frame whose trail ends there, the button held on
    dot 1 and the pointer between dots 1, 2, 4 and 5 (outside every hit area: no dot is taken)."""
    centres = greeter.centres()
    (x1, y1), (x5, y5) = centres[0], centres[4]
    middle = ((x1 + x5) // 2, (y1 + y5) // 2)
    x("xdotool", "mousemove", str(x1), str(y1))
    time.sleep(0.1)
    x("xdotool", "mousedown", "1")
    time.sleep(0.3)
    done = subprocess.run(
        [probe, "latency", "60", str(middle[0] - 30), str(middle[1])],
        env=dict(os.environ, DISPLAY=display),
        capture_output=True,
        text=True,
        timeout=120,
    )
    x("xdotool", "mouseup", "1")
    if done.returncode != 0:
        sys.exit("kde_lock_screen: pad_probe latency failed: %s" % done.stderr)
    return done.stdout.split()[:2]


try:
    # Idle and pointer-to-frame on one greeter as it starts by default (Qt Quick on OpenGL: on Xvfb, Mesa's
    # software rasteriser), then pointer-to-frame on Qt Quick's software backend (what kscreenlocker itself falls
    # back to after a crash of the greeter, and Qt's choice without a GPU).
    greeter = Greeter()
    greeter.centres()
    time.sleep(2)
    idle = greeter.idle_share()
    latency_median, latency_p95 = latency(greeter)
    greeter.stop()
    greeter = Greeter("software")
    software_median, software_p95 = latency(greeter)
    greeter.stop()
    # The stock lock screen logs nothing of ours: it is given the time ours took to show its grid, and more.
    greeter = Greeter(stock=True)
    time.sleep(8)
    idle_stock = greeter.idle_share()
    greeter.stop()

    # Release to unlock, a new greeter each round.
    unlock, verify, ratios = [], [], []
    for _ in range(rounds):
        greeter = Greeter()
        centres = greeter.centres()
        time.sleep(1)
        drag([centres[int(d) - 1] for d in digits])
        released = time.monotonic()
        opened, _ = greeter.wait_for("unlocked", 30)
        greeter.stop()
        verified = yescrypt_seconds(secret, stored)
        unlock.append(opened - released)
        verify.append(verified)
        ratios.append((opened - released) / verified)
finally:
    xvfb.terminate()
    xvfb.wait()
print("idle %.2f" % idle)
print("idle_stock %.2f" % idle_stock)
print("latency %s %s" % (latency_median, latency_p95))
print("latency_software %s %s" % (software_median, software_p95))
print("unlock %d %d %.3f %d" % (median(unlock) * 1e6, median(verify) * 1e6, median(ratios), len(ratios)))
