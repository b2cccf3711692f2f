"""make bench's Wayland probe (bench/run-bench.sh): pattern-lock on a headless sway (pixman), both run by the bench
user, with the PAM service pattern-lock holding pam_pattern alone (run as the user, so through the setuid helper),
drawn on by build/wayland-pointer (a zwlr_virtual_pointer_v1). Measures:
- idle: the locker's CPU over 10 s at the pattern prompt, nothing moving (% of one core);
- latency: each pointer move while drawing (from just before the virtual pointer sends it) to the locker's next frame
  commit (PATTERN_LOCK_TRACE_FRAMES=1), both on CLOCK_MONOTONIC: median and p95 in us;
- unlock: each round, the release of the right drawing (flushed) to the locker's exit (the session unlocked),
  against one yescrypt verification of the same cost in the same round: medians in us and the median per-round ratio.
Prints "idle PCT", "latency MEDIAN P95 COUNT", "unlock UNLOCK_US YESCRYPT_US RATIO ROUNDS".

usage: wayland_lock.py LOCKER PAM_CHILD POINTER UID RUNDIR DIGITS HASH SECRET ROUNDS
"""

import os
import subprocess
import sys
import time

from lock_screen_bench import median, yescrypt_seconds

locker, pam_child, pointer, uid, run_dir, digits, stored, secret, rounds = sys.argv[1:10]
uid, rounds = int(uid), int(rounds)
SCREEN, SPACING = (800, 600), 100
CENTRE = (SCREEN[0] // 2, SCREEN[1] // 2 - SPACING // 3)
as_user = ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups"]
base = {"PATH": "/usr/bin:/bin", "HOME": "/", "XDG_RUNTIME_DIR": run_dir}


def centre(dot):
    return CENTRE[0] + ((dot - 1) % 3 - 1) * SPACING, CENTRE[1] + ((dot - 1) // 3 - 1) * SPACING


conf = os.path.join(run_dir, "sway.conf")
with open(conf, "w") as f:
    f.write("output HEADLESS-1 resolution %dx%d bg #336699 solid_color\n" % SCREEN)
os.chmod(conf, 0o644)
sway = subprocess.Popen(
    as_user + ["sway", "-c", conf],
    env=dict(
        base, WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman", WLR_HEADLESS_OUTPUTS="1"
    ),
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)
end = time.monotonic() + 20
while not any(n.startswith("wayland-") and not n.endswith(".lock") for n in os.listdir(run_dir)):
    if time.monotonic() > end:
        sys.exit("wayland bench: sway did not start")
    time.sleep(0.05)
socket = next(n for n in os.listdir(run_dir) if n.startswith("wayland-") and not n.endswith(".lock"))
env = dict(base, WAYLAND_DISPLAY=socket)
hand = subprocess.Popen(
    as_user + [pointer, str(SCREEN[0]), str(SCREEN[1])],
    env=env,
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
    text=True,
    bufsize=1,
)


def send(*lines):
    for line in lines:
        hand.stdin.write(line + "\n")
    hand.stdin.flush()


def mark():
    send("mark")
    return int(hand.stdout.readline().split()[1])


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


idle, moves, frames, unlocks, verifies, ratios = None, [], [], [], [], []
try:
    for round_ in range(rounds):
        log_path = os.path.join(run_dir, "lock.log")
        log = open(log_path, "wb")
        lock = subprocess.Popen(
            as_user + [locker],
            env=dict(
                env,
                PATTERN_LOCK_PAM=pam_child,
                PATTERN_LOCK_SAY_SCREEN="1",
                PATTERN_LOCK_TRACE_FRAMES="1",
                XSECURELOCK_PATTERN_SIZE=str(SPACING),
            ),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        end = time.monotonic() + 20
        while b"Draw your pattern" not in open(log_path, "rb").read():
            if time.monotonic() > end or lock.poll() is not None:
                sys.exit("wayland bench: the locker never asked for the pattern")
            time.sleep(0.05)
        time.sleep(0.3)
        if idle is None:
            before, started = cpu_seconds(lock.pid), time.monotonic()
            time.sleep(10)
            idle = 100 * (cpu_seconds(lock.pid) - before) / (time.monotonic() - started)
        points = [centre(int(d)) for d in digits]
        send("move %d %d" % points[0], "sleep 50", "down", "sleep 30")
        last = points[0]
        for point in points[1:]:
            for i in range(1, 5):
                # Marked just before the move is sent: the locker may draw it before a mark taken after would be.
                moves.append(mark())
                send("move %d %d" % (last[0] + (point[0] - last[0]) * i // 4, last[1] + (point[1] - last[1]) * i // 4))
                time.sleep(0.03)
            last = point
        send("up")
        released = mark() / 1e6
        while lock.poll() is None:
            time.sleep(0.0005)
        opened = time.monotonic()
        if lock.returncode != 0:
            sys.exit("wayland bench: the right drawing did not unlock (%d)" % lock.returncode)
        verify = yescrypt_seconds(secret, stored)
        unlocks.append(opened - released)
        verifies.append(verify)
        ratios.append((opened - released) / verify)
        for line in open(log_path, "rb").read().decode(errors="replace").splitlines():
            if line.startswith("pattern-lock: frame "):
                frames.append(int(line.split()[2]))
finally:
    hand.kill()
    sway.kill()
    hand.wait()
    sway.wait()
frames.sort()
latencies = []
for moved in moves:
    after = next((f for f in frames if f >= moved), None)
    if after is not None:
        latencies.append(after - moved)
latencies.sort()
p95 = latencies[min(len(latencies) - 1, (len(latencies) * 95 + 99) // 100 - 1)]
print("idle %.2f" % idle)
print("latency %d %d %d" % (median(latencies), p95, len(latencies)))
print("unlock %d %d %.2f %d" % (median(unlocks) * 1e6, median(verifies) * 1e6, median(ratios), rounds))
