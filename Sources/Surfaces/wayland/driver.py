# pattern-lock's test driver: headless sway (WLR_BACKENDS=headless, pixman) run by the test's user, the locker on
# it, a virtual pointer (build/wayland-pointer) and wtype for input, grim for screenshots, and the steps of a job
# (Tests/support/wayland.py, WaylandCase.session). The locker's words come from its stderr
# (PATTERN_LOCK_SAY_SCREEN=1: a "screen:" line each time they change).
# Run as root in the test's namespace with the job (JSON) on argv[1]; prints its report (JSON). The `# include:`
# lines stand for the shared parts (Sources/Surfaces/shared/driver_*.py), put in their place by
# Tests/support/surfaces.py: a driver is one script.
import json, os, signal, socket, subprocess, sys, threading, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {"steps": [], "log": []}
# include: shared/driver_syslog.py
# include: shared/driver_wait.py
uid = int(job["uid"])
run_dir = os.path.join(W, "run")
os.makedirs(run_dir, exist_ok=True)
os.chown(run_dir, uid, -1)
os.chmod(run_dir, 0o700)
# The outputs side by side, each of job["screen"]'s pixels at its own scale; "x" is its left edge in the layout's
# logical pixels (where the virtual pointer moves).
outputs = job["outputs"]
# With a touch screen (job["touch_host"], build/wayland-touch-host): sway runs nested in that host, whose seat's touch
# screen wlroots' wayland backend gives sway (its one output is then WL-1); else headless.
touch_host = job.get("touch_host")
conf = os.path.join(W, "sway.conf")
with open(conf, "w") as f:
    left = 0
    for number, output in enumerate(outputs, 1):
        output["name"], output["x"] = ("WL-%d" if touch_host else "HEADLESS-%d") % number, left
        f.write("output %s resolution %dx%d position %d,0 scale %d bg #336699 solid_color\n"
                % (output["name"], job["screen"][0], job["screen"][1], left, output["scale"]))
        left += job["screen"][0] // output["scale"]
user_env = {"PATH": "/usr/bin:/bin", "HOME": job["home"], "USER": job["user"], "LOGNAME": job["user"],
            "XDG_RUNTIME_DIR": run_dir}
sway_env = dict(user_env, WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman",
                WLR_HEADLESS_OUTPUTS=str(len(outputs)))
if touch_host:
    touch = subprocess.Popen(job["setpriv"] + [touch_host, "touch-host"], env=user_env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, bufsize=1)
    wait_for(lambda: os.path.exists(os.path.join(run_dir, "touch-host")), 10)
    sway_env.update(WLR_BACKENDS="wayland", WAYLAND_DISPLAY="touch-host", WLR_WL_OUTPUTS=str(len(outputs)))
sway_log = open(os.path.join(W, "sway.log"), "wb")
sway = subprocess.Popen(job["setpriv"] + ["sway", "-c", conf, "-d"], env=sway_env, stdout=sway_log,
                        stderr=subprocess.STDOUT, start_new_session=True)
socket_name = wait_for(lambda: next((n for n in os.listdir(run_dir) if n.startswith("wayland-") and not n.endswith(".lock")), None), 20)
if not socket_name:
    sys.exit("sway did not start: %s" % open(os.path.join(W, "sway.log"), "rb").read()[-2000:])
wl_env = dict(user_env, WAYLAND_DISPLAY=socket_name)
def as_user(argv, **kwargs):
    return subprocess.run(job["setpriv"] + argv, env=wl_env, capture_output=True, timeout=30, **kwargs)
# The layout's logical size, the box the pointer's absolute positions are in (each output's pixels over its scale).
logical = (left, max(job["screen"][1] // output["scale"] for output in outputs))
pointer = subprocess.Popen(job["setpriv"] + [job["pointer"], str(logical[0]), str(logical[1])], env=wl_env,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(*lines):
    for line in lines:
        pointer.stdin.write(line + "\n")
    pointer.stdin.flush()
def sync():
    send("sync")
    return pointer.stdout.readline().strip() == "ok"
sync()
if touch_host:
    # sway's touch device made (the host offers its screen again once sway's window is up), before the locker.
    touch.stdin.write("sync\n")
    touch.stdin.flush()
    touch.stdout.readline()
lock_log_path = os.path.join(W, "lock.log")
lock_log = open(lock_log_path, "wb")
locker_env = dict(wl_env, PATTERN_LOCK_SAY_SCREEN="1", XSECURELOCK_PATTERN_SIZE=str(job["size"]))
locker_env.update(job["env"])
locker = subprocess.Popen(job["setpriv"] + [job["locker"]], env=locker_env, stdout=lock_log,
                          stderr=subprocess.STDOUT, start_new_session=True)
def screen():
    # The locker's words now: its last "screen:" line ("|" between lines).
    with open(lock_log_path, "rb") as f:
        lines = [l for l in f.read().decode("utf-8", "replace").splitlines() if l.startswith("pattern-lock: screen:")]
    return lines[-1][len("pattern-lock: screen:"):] if lines else ""
def screen_until(wanted, timeout):
    wanted = [wanted] if isinstance(wanted, str) else wanted
    return wait_for(lambda: all(w in screen() for w in wanted) and screen(), timeout) or screen()
def centre(dot, output):
    c = output["centre"]; s = output["spacing"]
    return c[0] + ((dot - 1) % 3 - 1) * s, c[1] + ((dot - 1) // 3 - 1) * s
def move(point, output):
    # An output's pixels (the locker's layout on it) to the virtual pointer's logical place in the layout.
    send("move %d %d" % (output["x"] + point[0] // output["scale"], point[1] // output["scale"]))
def glide(points, output, steps=4, pause=0.02):
    last = points[0]
    for point in points[1:]:
        for i in range(1, steps + 1):
            move((last[0] + (point[0] - last[0]) * i // steps, last[1] + (point[1] - last[1]) * i // steps), output)
            send("sleep %d" % int(pause * 1000))
        last = point
def shot(name, output=None):
    # The whole layout, or one output's pixels (grim -o).
    done = as_user(["grim"] + (["-o", outputs[output]["name"]] if output is not None else []) + [os.path.join(run_dir, name)])
    if done.returncode == 0:
        os.replace(os.path.join(run_dir, name), os.path.join(W, name))
    return done.returncode == 0
for position, step in enumerate(job["steps"]):
    op = step["op"]
    result = {"op": op}
    if op == "ready":
        # The locker is up when it shows its first words from PAM (the grid once pam_pattern asked).
        result["screen"] = screen_until(step.get("until", "Draw your pattern"), step.get("timeout", 20))
        result["ready"] = all(w in result["screen"] for w in ([step.get("until", "Draw your pattern")]
                                                             if isinstance(step.get("until", ""), str) else step["until"]))
        time.sleep(0.2)
    elif op == "drag":
        output = outputs[step.get("output", 0)]
        points = [centre(p, output) if isinstance(p, int) else tuple(p) for p in step["path"]]
        move(points[0], output)
        send("sleep 50", "down", "sleep 30")
        glide(points, output, step.get("steps", 4), step.get("pause", 0.02))
        send("sleep 30", "up")
        result["synced"] = sync()
    elif op == "touch":
        # One finger along the path (dots or [x, y] in the output's pixels), on the touch host's screen.
        output = outputs[0]
        points = [centre(p, output) if isinstance(p, int) else tuple(p) for p in step["path"]]
        lines = ["down %d %d" % points[0], "sleep 30"]
        last = points[0]
        for point in points[1:]:
            for i in range(1, 5):
                lines += ["move %d %d" % (last[0] + (point[0] - last[0]) * i // 4, last[1] + (point[1] - last[1]) * i // 4),
                          "sleep 20"]
            last = point
        touch.stdin.write("\n".join(lines + ["up", "sync"]) + "\n")
        touch.stdin.flush()
        result["synced"] = touch.stdout.readline().strip() == "ok"
    elif op == "type":
        done = as_user(["wtype", "-s", "400", step["text"], "-k", "Return"])
        result["status"] = done.returncode
    elif op == "screen":
        result["text"] = screen_until(step.get("until", []), step.get("timeout", 5))
    elif op == "shot":
        result["taken"] = shot(step["name"], step.get("output"))
    elif op == "shots":
        # `count` screenshots `every` s apart (NAME-0.png ...).
        for i in range(step["count"]):
            shot("%s-%d.png" % (step["name"], i))
            time.sleep(step.get("every", 0.1))
    elif op == "sleep":
        time.sleep(step["seconds"])
    elif op == "kill":
        os.kill(locker.pid, signal.SIGKILL)
        locker.wait()
        result["status"] = locker.returncode
    elif op == "wait":
        try:
            status = locker.wait(timeout=step["timeout"])
            result["unlocked"] = status == 0
            result["status"] = status
        except subprocess.TimeoutExpired:
            result["unlocked"] = False
            result["status"] = None
    else:
        sys.exit("no step %r" % op)
    out["steps"].append(result)
    if locker.poll() is not None and op not in ("wait", "kill", "shot", "sleep", "screen"):
        out["steps"].append({"op": "ended", "status": locker.returncode})
        for later in job["steps"][position + 1 :]:
            if later["op"] == "wait":
                out["steps"].append({"op": "wait", "unlocked": locker.returncode == 0, "status": locker.returncode})
        break
out["locked_at_end"] = locker.poll() is None
for process in (locker, pointer, sway) + ((touch,) if touch_host else ()):
    if process.poll() is None:
        process.kill()
    process.wait()
stop_log()
out["lock_log"] = open(lock_log_path, "rb").read().decode("utf-8", "replace")
sway_text = open(os.path.join(W, "sway.log"), "rb").read().decode("utf-8", "replace")
out["sway_log"] = sway_text[-20000:]
# What sway said of the lock (its debug lines "session locked", "session unlocked", "session lock abandoned").
out["sway_lock"] = [line.rsplit("] ", 1)[-1] for line in sway_text.splitlines() if "] session " in line]
print(json.dumps(out))
