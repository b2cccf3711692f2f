# The pad's test driver: xsecurelock with auth_pattern under Xvfb, the syslog socket read as it comes, and the
# steps of a job (Tests/support/pad.py, PadCase.session).
# Run as root in the test's namespace with the job (JSON) on argv[1]; prints its report (JSON). The
# `# include:` lines stand for the shared parts (Sources/Surfaces/shared/driver_*.py, or a support module's), put in their place by
# Tests/support/surfaces.py: a driver is one script.
import json, os, re, signal, socket, subprocess, sys, threading, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {"steps": [], "log": []}
# include: shared/driver_syslog.py
# include: shared/driver_xvfb.py
# include: shared/driver_pointer.py
user_env = {"PATH": "/usr/bin:/bin", "HOME": job["home"], "USER": job["user"], "LOGNAME": job["user"],
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
stop_log()
print(json.dumps(out))
