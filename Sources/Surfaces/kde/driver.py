# The KDE lock screen's test driver: kscreenlocker_greet --testing (or another program of the desktop) as the
# user under Xvfb, its grid found in its log, and the steps of a job (Tests/support/kde.py, KdeCase.session).
# Run as root in the test's namespace with the job (JSON) on argv[1]; prints its report (JSON). The
# `# include:` lines stand for the shared parts (Sources/Surfaces/shared/driver_*.py, or a support module's), put in their place by
# Tests/support/surfaces.py: a driver is one script.
import json, os, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {"steps": []}
# include: shared/driver_xvfb.py
# include: shared/driver_pointer.py
runtime = os.path.join(W, "runtime")
os.makedirs(runtime, exist_ok=True)
os.chown(runtime, job["uid"], -1)
os.chmod(runtime, 0o700)
user_env = {"PATH": "/usr/bin:/bin", "HOME": job["home"], "USER": job["user"], "LOGNAME": job["user"],
            "DISPLAY": display, "XDG_RUNTIME_DIR": runtime, "QT_QPA_PLATFORM": "xcb", "LANG": "C.UTF-8",
            "QT_LOGGING_RULES": job["debug_rules"]}
user_env.update(job["env"])
log_path = os.path.join(W, "greeter.log")
# Plasma 5.27 takes a look-and-feel package (--theme), Plasma 6 a shell package (--shell).
theme = [job.get("theme_option", "--theme"), job["theme"]] if job["theme"] else []
# Or another program of the desktop in the same place ("command", e.g. plasmashell), stopped at ready_timeout.
command = job.get("command") or [job["greeter"], "--testing"] + theme
greeter = subprocess.Popen(job["setpriv"] + command, env=user_env,
                           stdout=open(log_path, "wb"), stderr=subprocess.STDOUT, start_new_session=True)
def log():
    with open(log_path, "rb") as f:
        return f.read().decode("utf-8", "replace")
def lines(text):
    return [l.split("pam_pattern: ", 1)[1] for l in log().splitlines() if "pam_pattern: " in l and l.split("pam_pattern: ", 1)[1].startswith(text)]
# A lock screen without our grid (the stock one, for a screenshot beside ours) is taken as ready a while after it
# started ("ready_after" s).
if job.get("ready_after"):
    time.sleep(job["ready_after"])
    grid = greeter.poll() is None
else:
    grid = wait_for(lambda: lines("grid "), job.get("ready_timeout", 60))
out["ready"] = bool(grid)
if grid:
    time.sleep(0.3)
for step in job["steps"] if grid else []:
    op = step["op"]
    result = {"op": op}
    if op == "drag":
        drag_on_logged_grid(step)
    elif op == "until":
        # Waits until the log holds `count` lines starting with `text` (or `timeout` s).
        want = step.get("count", 1)
        result["found"] = bool(wait_for(lambda: len(lines(step["text"])) >= want, step.get("timeout", 20)))
    elif not common_step(step):
        sys.exit("no step %r" % op)
    out["steps"].append(result)
stop(greeter)
xvfb.terminate()
xvfb.wait()
out["log"] = log()
print(json.dumps(out))
