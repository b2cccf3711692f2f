# The LightDM greeter's test driver: the real daemon (its X servers are Xvfb through a wrapper), the greeter it
# starts, and the steps of a job (Tests/support/lightdm.py) on the display the greeter shows, which changes at a
# lock (a second X server). Run as root in the test's namespace with the job (JSON) on argv[1]; prints its report
# (JSON). The `# include:` lines stand for the shared parts, put in their place by Tests/support/surfaces.py.
import json, os, re, subprocess, sys, time
job = json.loads(sys.argv[1])
W = job["root"]
RUN = job["run_dir"]
out = {"steps": []}
env = None
# include: shared/driver_pointer.py
# include: shared/driver_daemon.py


def x(*argv):
    subprocess.run(list(argv), env=env, check=True, timeout=30)


def daemon_log():
    try:
        with open(os.path.join(job["log_dir"], "lightdm.log"), errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def greeter_displays():
    # The displays LightDM started a greeter on, newest last ("Seat seat0: Display server ready" gives no name;
    # the greeters' X servers are :50 and up, each with its authority file in the run directory).
    found = []
    for match in re.finditer(r"XServer (\d+): Launching X Server", daemon_log()):
        if match.group(1) not in found:
            found.append(match.group(1))
    return found


def use_display(number):
    global env
    env = dict(os.environ, DISPLAY=":" + number, XAUTHORITY=os.path.join(RUN, "root", ":" + number), LANG="C.UTF-8")


def caption():
    # The greeter names its windows (the root's children) with the words on screen.
    try:
        tree = subprocess.run(["xwininfo", "-root", "-children"], env=env, capture_output=True, text=True, timeout=10).stdout
    except subprocess.TimeoutExpired:
        return None
    for wid in re.findall(r"^\s+(0x[0-9a-f]+) ", tree, re.M):
        got = subprocess.run(["xprop", "-id", wid, "-notype", "WM_CLASS", "_NET_WM_NAME"], env=env,
                             capture_output=True).stdout.decode(errors="replace")
        if '"auth_pattern"' in got and "_NET_WM_NAME = " in got:
            text = got.split("_NET_WM_NAME = ", 1)[1].strip()
            return json.loads(text) if text.startswith('"') else None
    return None


turn_on()
out["etc_on"] = etc_files("lightdm")
daemon = start_daemon(["lightdm", "--debug", "--log-dir", job["log_dir"], "--run-dir", RUN])


def connect(count):
    # The greeter of the count-th display, once it names its window; nothing connects to that X server before the
    # greeter has connected to the daemon (the daemon's own connection to it comes first).
    shown = wait_for(lambda: len(greeter_displays()) >= count and daemon_log().count("Greeter connected") >= count, 60)
    if not shown:
        return None
    use_display(greeter_displays()[count - 1])
    if not job.get("named", True):  # another greeter (make bench's reference), which names no window
        return True
    return wait_for(lambda: caption() is not None and "\n" in caption(), 60)


out["ready"] = bool(connect(1))
for step in job["steps"] if out["ready"] else []:
    op = step["op"]
    result = {"op": op}
    if op == "select":
        # Taps the name until the greeter shows the user (a name a line of its own, first).
        for _ in range(step.get("tries", 40)):
            if (caption() or "").split("\n")[0] == step["name"]:
                break
            move((job["centre"][0], job["name_y"]))
            x("xdotool", "click", "1")
            time.sleep(0.3)
        result["caption"] = caption()
    elif op == "drag":
        points = [centre(p) if isinstance(p, int) else tuple(p) for p in step["path"]]
        move(points[0]); time.sleep(0.1)
        x("xdotool", "mousedown", "1"); time.sleep(0.05)
        glide(points, step.get("steps", 4), step.get("pause", 0.03), step.get("dwell", 0.05))
        for name in step.get("shots_before_release", []):
            shot(name)
        x("xdotool", "mouseup", "1")
        result["released"] = time.monotonic()
    elif op == "tap":
        move(tuple(step["point"])); time.sleep(0.1)
        x("xdotool", "click", "1")
    elif op == "taps":
        # A press and release every `every` px along a row from `from` to `to`, each held longer than the
        # greeter's pointer poll (a quick click may fall between two).
        (x0, y0), (x1, y1) = step["from"], step["to"]
        count = max(abs(x1 - x0), abs(y1 - y0)) // step.get("every", 6)
        for i in range(count + 1):
            move((x0 + (x1 - x0) * i // max(count, 1), y0 + (y1 - y0) * i // max(count, 1))); time.sleep(0.03)
            x("xdotool", "mousedown", "1"); time.sleep(0.04)
            x("xdotool", "mouseup", "1"); time.sleep(0.03)
    elif op == "caption":
        result["text"] = caption_until(step, 20)
    elif op == "marker":
        # "every": how often it is looked for (make bench times the session's start by "at").
        result["lines"] = wait_for(lambda: len(marker()) >= step.get("count", 1) and marker(), step.get("timeout", 30),
                                   step.get("every", 0.05))
        result["at"] = time.monotonic()
    elif op == "lock":
        # The session's user locks it as light-locker would (dm-tool talks to the daemon on the system bus).
        done = subprocess.run(job["as_user"] + ["env", "XDG_SEAT_PATH=/org/freedesktop/DisplayManager/Seat0",
                                                "dm-tool", "lock"], capture_output=True, timeout=30)
        result["status"] = [done.returncode, (done.stdout + done.stderr).decode(errors="replace")]
        result["ready"] = bool(connect(step.get("display", 2)))
        result["caption"] = caption()
    elif op == "cpu":
        # The greeter's CPU time (user + system, in clock ticks) over `seconds` of nobody touching it; "comm": another
        # greeter's (make bench's reference, lightdm-gtk-greeter).
        def ticks():
            for entry in os.listdir("/proc"):
                try:
                    with open("/proc/%s/comm" % entry) as f:
                        if f.read().strip() != step.get("comm", "pam-pattern-gre"):  # comm is cut at 15 bytes
                            continue
                    with open("/proc/%s/stat" % entry) as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    return int(fields[11]) + int(fields[12])
                except (OSError, ValueError):
                    continue
            return None
        before = ticks()
        time.sleep(step["seconds"])
        after = ticks()
        result["share"] = None if None in (before, after) else (after - before) / os.sysconf("SC_CLK_TCK") / step["seconds"]
    elif op == "log":
        result["found"] = bool(wait_for(lambda: step["text"] in daemon_log(), step.get("timeout", 20), step.get("every", 0.05)))
        result["at"] = time.monotonic()
    elif op == "run":
        # A program on the greeter's display (make bench's pad_probe); its output.
        done = subprocess.run(step["argv"], env=env, capture_output=True, timeout=step.get("timeout", 60))
        result["status"] = done.returncode
        result["stdout"] = done.stdout.decode(errors="replace")
    elif not common_step(step):
        sys.exit("no step %r" % op)
    out["steps"].append(result)
stop_daemon(daemon)
out["etc_after"] = etc_files("lightdm")
out["log"] = daemon_log()
try:
    with open(os.path.join(job["log_dir"], "seat0-greeter.log"), errors="replace") as f:
        out["greeter_log"] = f.read()
except FileNotFoundError:
    out["greeter_log"] = ""
print(json.dumps(out))
