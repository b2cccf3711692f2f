"""make bench's GNOME lock screen probe (bench/run-bench.sh): the real gnome-shell 43 (--x11 --replace) run by the
bench user on a private Xvfb and private buses, locked, with the extension `make build` assembled enabled from the
user's own extensions directory; GDM and logind stood in for (Tests/support/gdm_standin.py), which runs the PAM
service gdm-password (pam_pattern alone) as root, as GDM's worker does. The same driver as Tests/GNOMETests
(Sources/Surfaces/gnome/driver.py). Measures:

- unlock: per round a new shell, the right drawing with xdotool, the time from the release (just after `xdotool
  mouseup` returns) to logind's Unlock, which the stand-in sends once the PAM run the drawing answered succeeded
  (what ends the lock), and beside it one yescrypt verification of the same cost; the median of each and of the
  per-round ratios;
- idle: the shell's CPU share of one core over 10 s at the lock screen's prompt, with the extension showing its grid
  and without the extension (the stock prompt), and their ratio.

Prints "unlock UNLOCK_US YESCRYPT_US RATIO ROUNDS" and "idle WITH_PERCENT WITHOUT_PERCENT RATIO".

usage: gnome_lock_screen.py TREE BUILD WORK UID USER HOME DIGITS HASH SECRET ROUNDS
"""

import json
import os
import shutil
import subprocess
import sys

from lock_screen_bench import median, yescrypt_seconds

tree, build, work, uid, user, home, digits, stored, secret, rounds = sys.argv[1:11]
uid, rounds = int(uid), int(rounds)
sys.path.insert(0, os.path.join(tree, "Tests"))
from support import surfaces  # noqa: E402

UUID = "pam-pattern@pam-pattern.org"
DRIVER = os.path.join(work, "gnome_driver.py")
with open(DRIVER, "w") as f:
    f.write(surfaces.driver("gnome"))
extensions = os.path.join(home, ".local", "share", "gnome-shell", "extensions")
os.makedirs(extensions, exist_ok=True)
shutil.copytree(os.path.join(build, "gnome", UUID), os.path.join(extensions, UUID), dirs_exist_ok=True)
subprocess.run(["chown", "-R", "%d:%d" % (uid, uid), os.path.join(home, ".local")], check=True)


def session(steps, extension=True):
    root = os.path.join(work, "gnome-session")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    os.chmod(root, 0o755)
    job = {
        "root": root,
        "screen": [1024, 768],
        "user": user,
        "uid": uid,
        "home": home,
        "setpriv": ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups"],
        "standin": os.path.join(tree, "Tests", "support", "gdm_standin.py"),
        "extensions": "['%s']" % UUID if extension else "@as []",
        "shell_options": [],
        "greeter": False,
        "steps_to_prompt": [],
        "debug": True,
        "extension": extension,
        "env": {},
        "steps": steps,
        "wayland": False,
    }
    done = subprocess.run(["/usr/bin/python3", DRIVER, json.dumps(job)], capture_output=True, timeout=300)
    if done.returncode != 0 or not done.stdout:
        sys.exit("gnome bench: the driver failed: %s" % done.stderr.decode(errors="replace")[-2000:])
    report = json.loads(done.stdout)
    if not report["ready"]:
        sys.exit("gnome bench: the lock screen's prompt did not come:\n%s" % report["log"][-2000:])
    return report


path = [int(d) for d in digits]
unlocks, verifies, ratios = [], [], []
for _ in range(rounds):
    report = session([{"op": "drag_to_unlocked", "path": path}])
    step = report["steps"][0]
    if "seconds" not in step:
        said = [line for line in report["log"].splitlines() if "pam_pattern" in line or "JS" in line]
        sys.exit("gnome bench: the right drawing did not unlock: %s\n%s" % (report["standin"], "\n".join(said)))
    verify = yescrypt_seconds(secret, stored)
    unlocks.append(step["seconds"])
    verifies.append(verify)
    ratios.append(step["seconds"] / verify)
print("unlock %d %d %.2f %d" % (median(unlocks) * 1e6, median(verifies) * 1e6, median(ratios), rounds))
with_grid = session([{"op": "sleep", "seconds": 2}, {"op": "cpu", "seconds": 10}])["steps"][1]["percent"]
stock = session([{"op": "sleep", "seconds": 2}, {"op": "cpu", "seconds": 10}], extension=False)["steps"][1]["percent"]
print("idle %.2f %.2f %.2f" % (with_grid, stock, with_grid / stock if stock > 0 else 0))
