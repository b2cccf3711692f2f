"""make bench's LightDM probe (bench/run-bench.sh): the real lightdm daemon run headless (its X servers Xvfb through
a wrapper) with pam-pattern-greeter at its installed path, the PAM service lightdm holding pam_pattern alone, run as
root by the daemon's session child; the bench user logs in to a session that writes a marker and stays. Each round
starts a fresh daemon in a private mount, pid, uts and network namespace. The same driver as Tests/LightDMTests
(Sources/Surfaces/lightdm/driver.py). Measures:

- handed: the release of the right drawing (just after `xdotool mouseup` returns) to the daemon running the session
  (its log's "Running command /etc/X11/Xsession", looked for every 2 ms: PAM said yes, the greeter asked for the
  session, the daemon stopped the greeter and its session child is about to exec the session);
- start: the same release to the session's first command running (its marker written, looked for every 2 ms), after
  Debian's /etc/X11/Xsession and its Xsession.d scripts (the same for every greeter);
- resume: after `dm-tool lock` (the greeter on a second X server with the lock hint), the release of the right
  drawing to the daemon's "Returning to existing user session" in its log (looked for every 2 ms);
- beside each, in the same round, one yescrypt verification of the same cost: medians and the per-round ratios;
- idle: the greeter's CPU share of one core over 10 s showing the grid, and lightdm-gtk-greeter's at its login
  screen in the same daemon and run (when it is installed);
- latency: pad_probe's pointer warp to the frame that shows the greeter's pointer there, the button held.

Prints "handed US YESCRYPT_US RATIO ROUNDS", "start US YESCRYPT_US RATIO ROUNDS", "resume US YESCRYPT_US RATIO ROUNDS", "idle PCT STOCK_PCT|n/a RATIO|n/a",
"latency MEDIAN_US P95_US COUNT".

usage: lightdm_greeter.py TREE WORK UID USER DIGITS HASH SECRET ROUNDS PAD_PROBE
"""

import json
import os
import shlex
import shutil
import subprocess
import sys

from lock_screen_bench import median, yescrypt_seconds

tree, work, uid, user, digits, stored, secret, rounds, probe = sys.argv[1:10]
uid, rounds = int(uid), int(rounds)
sys.path.insert(0, os.path.join(tree, "Tests"))
from support import lightdm, surfaces  # noqa: E402

FULL_NAME = "Bench Lightdm"
RETURNING = "Returning to existing user session"
# The daemon's session child about to exec the session (Debian's session-wrapper, then the session's command).
HANDED = "Running command /etc/X11/Xsession "
# The pointer probe's spot: left of the grid, clear of every word the greeter draws.
PROBE_AT = (150, lightdm.CENTRE[1])
root = os.path.join(work, "lightdm")
shutil.rmtree(root, ignore_errors=True)
os.makedirs(root)
os.chmod(root, 0o755)


def private(path, mode=0o755, owner=None):
    os.makedirs(path, exist_ok=True)
    os.chmod(path, mode)
    if owner is not None:
        os.chown(path, owner, owner)
    return path


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)
    return path


# The bench user as lightdm lists users (a login shell, a home, a name), in this namespace's /etc/passwd only.
home = private(os.path.join(root, "home"), 0o700, uid)
with open("/etc/passwd") as f:
    passwd = [
        "%s:x:%d:%d:%s:%s:/bin/sh" % (user, uid, uid, FULL_NAME, home) if line.startswith(user + ":") else line
        for line in f.read().splitlines()
    ]
write(os.path.join(root, "passwd"), "\n".join(passwd) + "\n")
greeters = private(os.path.join(root, "xgreeters"))
shutil.copy(lightdm.DESKTOP, greeters)
marker_dir = private(os.path.join(root, "marker"), owner=uid)
marker = os.path.join(marker_dir, "marker")
script = write(os.path.join(root, "session.sh"), lightdm.SESSION_SCRIPT % {"marker": shlex.quote(marker)}, 0o755)
sessions = private(os.path.join(root, "sessions"))
write(
    os.path.join(sessions, lightdm.SESSION_KEY + ".desktop"),
    "[Desktop Entry]\nName=Marker desktop\nExec=%s\nType=Application\n" % script,
)
xserver = write(os.path.join(root, "xserver.sh"), lightdm.XSERVER, 0o755)
settings = lightdm.SETTINGS % {
    "sessions": sessions,
    "xserver": xserver,
    "session": lightdm.SESSION_KEY,
    "seat": "greeter-hide-users=false\n",
}
settings = settings.replace("[LightDM]\n", "[LightDM]\ngreeters-directory=%s:/usr/share/xgreeters\n" % greeters)
os.makedirs("/etc/lightdm/lightdm.conf.d", exist_ok=True)
write("/etc/lightdm/lightdm.conf.d/99-pp-bench.conf", settings)
driver = write(os.path.join(root, "lightdm_driver.py"), surfaces.driver("lightdm"))
setup = [
    "set -e",
    "mount -t tmpfs -o mode=0755 tmpfs /run",
    "mkdir -p /run/lock /run/dbus /run/keep",
    # The bench's work directory is under /tmp: bound back at its path over the private /tmp (X's lock files).
    "mount --bind %s /run/keep" % shlex.quote(work),
    "mount -t tmpfs -o mode=1777 tmpfs /tmp",
    "mkdir -p %s && mount --bind /run/keep %s" % (shlex.quote(work), shlex.quote(work)),
    "mount --bind %s /etc/passwd" % shlex.quote(os.path.join(root, "passwd")),
    # Else the daemon switches the real console to its VT.
    "mount --bind /dev/null /dev/tty0",
]
for directory in ("/var/lib", "/var/log", "/var/cache"):
    layers = os.path.join(root, "overlay", directory.replace("/", "_"))
    up, scratch = private(os.path.join(layers, "up")), private(os.path.join(layers, "work"))
    setup.append(
        "mount -t overlay overlay -o lowerdir=%s,upperdir=%s,workdir=%s %s" % (directory, up, scratch, directory)
    )


def session(steps, greeter="pam-pattern-greeter"):
    """The driver's report of the steps at a fresh daemon whose greeter is `greeter`."""
    for name in ("logs", "run", "etc_upper"):
        shutil.rmtree(os.path.join(root, name), ignore_errors=True)
        private(os.path.join(root, name))
    if os.path.exists(marker):
        os.remove(marker)
    as_user = ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups"]
    job = lightdm.driver_job(steps, root, as_user, greeter)
    argv = ["unshare", "--mount", "--pid", "--uts", "--net", "--fork", "--kill-child", "--mount-proc"]
    argv += [
        "--propagation",
        "private",
        "sh",
        "-c",
        "\n".join(setup + ["exec /usr/bin/python3 %s %s" % (shlex.quote(driver), shlex.quote(json.dumps(job)))]),
    ]
    # Without the bench's own X display (the pad's rows set DISPLAY): with one, lightdm nests Xephyr in it.
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY")}
    done = subprocess.run(argv, capture_output=True, timeout=300, env=env)
    if done.returncode != 0 or not done.stdout:
        sys.exit("lightdm bench: the driver failed: %s" % done.stderr.decode(errors="replace")[-2000:])
    report = json.loads(done.stdout)
    if not report["ready"]:
        sys.exit("lightdm bench: the greeter did not come up:\n%s" % report["log"][-2000:])
    return report


def step(report, index, key):
    found = report["steps"][index]
    value = found.get(key)
    if value is None or value is False or value == []:  # a share of 0.0 is a measure
        sys.exit(
            "lightdm bench: step %r failed:\n%s\ngreeter:\n%s"
            % (found, report["log"][-3000:], report["greeter_log"][-2000:])
        )
    return found[key]


path = [int(d) for d in digits]
drawn = [lightdm.dot_centre(d) for d in path]
prompt = {"op": "caption", "until": "Draw your pattern"}
handeds, starts, resumes, verifies, handed_ratios, start_ratios, resume_ratios = [], [], [], [], [], [], []
idle = latency = None
for round_ in range(rounds):
    steps = [{"op": "select", "name": FULL_NAME}, prompt]
    if round_ == 0:
        # Idle at the grid, then pad_probe with the button held away from the dots (drawing, no dot taken; a
        # drawing of no dot is nothing when let go).
        steps += [
            {"op": "sleep", "seconds": 1},
            {"op": "cpu", "seconds": 10},
            {"op": "run", "argv": ["xdotool", "mousemove", str(PROBE_AT[0]), str(PROBE_AT[1]), "mousedown", "1"]},
            {"op": "run", "argv": [probe, "latency", "60", str(PROBE_AT[0]), str(PROBE_AT[1])]},
            {"op": "run", "argv": ["xdotool", "mouseup", "1"]},
            {"op": "sleep", "seconds": 1},
        ]
    steps += [
        {"op": "drag", "path": drawn, "steps": 4},
        {"op": "log", "text": HANDED, "every": 0.002},
        {"op": "marker", "every": 0.002},
        {"op": "lock"},
        prompt,
        {"op": "drag", "path": drawn, "steps": 4},
        {"op": "log", "text": RETURNING, "every": 0.002},
    ]
    report = session(steps)
    at = {s["op"]: i for i, s in reversed(list(enumerate(steps)))}  # each op's first step
    drags = [i for i, s in enumerate(steps) if s["op"] == "drag"]
    logs = [i for i, s in enumerate(steps) if s["op"] == "log"]
    step(report, at["marker"], "lines")
    step(report, logs[0], "found")
    handed = step(report, logs[0], "at") - step(report, drags[0], "released")
    started = step(report, at["marker"], "at") - step(report, drags[0], "released")
    step(report, logs[1], "found")
    resumed = step(report, logs[1], "at") - step(report, drags[1], "released")
    verify = yescrypt_seconds(secret, stored)
    handeds.append(handed)
    handed_ratios.append(handed / verify)
    starts.append(started)
    resumes.append(resumed)
    verifies.append(verify)
    start_ratios.append(started / verify)
    resume_ratios.append(resumed / verify)
    if round_ == 0:
        idle = 100 * step(report, at["cpu"], "share")
        said = (report["steps"][at["run"] + 1].get("stdout") or "").split()
        if len(said) < 3:
            sys.exit("lightdm bench: pad_probe saw no pointer: %r" % report["steps"][at["run"] + 1])
        latency = said[:3]
print("handed %d %d %.2f %d" % (median(handeds) * 1e6, median(verifies) * 1e6, median(handed_ratios), rounds))
print("start %d %d %.2f %d" % (median(starts) * 1e6, median(verifies) * 1e6, median(start_ratios), rounds))
print("resume %d %d %.2f %d" % (median(resumes) * 1e6, median(verifies) * 1e6, median(resume_ratios), rounds))
stock = None
if os.path.exists("/usr/sbin/lightdm-gtk-greeter"):
    report = session(
        [{"op": "sleep", "seconds": 3}, {"op": "cpu", "seconds": 10, "comm": "lightdm-gtk-gre"}],
        greeter="lightdm-gtk-greeter",
    )
    share = report["steps"][1].get("share")
    stock = None if share is None else 100 * share
print(
    "idle %.2f %s %s"
    % (
        idle,
        "n/a" if stock is None else "%.2f" % stock,
        "%.2f" % (idle / stock) if stock else "n/a",
    )
)
print("latency %s %s %s" % tuple(latency))
