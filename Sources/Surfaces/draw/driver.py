# The drawing window's test driver: `patternctl set --draw` run by the user under Xvfb, its window found by its
# class and read by its caption, and the steps of a job (Tests/support/draw.py, DrawCase.session).
# Run as root in the test's namespace with the job (JSON) on argv[1]; prints its report (JSON). The
# `# include:` lines stand for the shared parts (Sources/Surfaces/shared/driver_*.py, or a support module's), put in their place by
# Tests/support/surfaces.py: a driver is one script.
import json, os, re, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {"steps": []}
# include: shared/driver_xvfb.py
# include: shared/driver_pointer.py
# include: support.helper.STATE_FAILURES

user_env = {"PATH": "/usr/bin:/bin", "HOME": job["home"], "USER": job["user"], "LOGNAME": job["user"],
            "DISPLAY": display, "LANG": "C.UTF-8"}
user_env.update(job["env"])
ctl = None
ctl_log = open(os.path.join(W, "patternctl.log"), "wb")
def window():
    found = subprocess.run(["xdotool", "search", "--classname", "^pattern-draw-screen$"], env=env,
                           capture_output=True, text=True).stdout.split()
    return found[0] if found else None
def caption():
    wid = window()
    if not wid:
        return None
    got = subprocess.run(["xprop", "-id", wid, "-notype", "_NET_WM_NAME"], env=env, capture_output=True).stdout
    text = got.decode("utf-8", "replace")
    if "_NET_WM_NAME = " not in text:
        return None
    value = text.split("_NET_WM_NAME = ", 1)[1].strip()
    if value.startswith('"') and value.endswith('"'):
        value = value[1:-1]
    return value.replace("\\n", "\n").replace('\\"', '"')
for step in job["steps"]:
    op = step["op"]
    result = {"op": op}
    if op == "start":
        ctl = subprocess.Popen(job["setpriv"] + ["/usr/bin/env", "-i"] + ["%s=%s" % kv for kv in user_env.items()]
                               + [job["patternctl"], "set", "--draw"] + step.get("args", []), stdin=subprocess.DEVNULL, stdout=ctl_log,
                               stderr=subprocess.STDOUT, start_new_session=True)
        result["ready"] = bool(wait_for(lambda: caption(), 15))
    elif op == "caption":
        result["text"] = caption_until(step, 20)
    elif op in ("drag", "down", "glide"):
        points = [centre(p) if isinstance(p, int) else tuple(p) for p in step["path"]]
        if op != "glide":
            move(points[0])
            time.sleep(0.1)
            x("xdotool", "mousedown", "1")
            time.sleep(0.05)
        glide(points, pause=0.02)
        time.sleep(0.05)
        if op == "drag":
            x("xdotool", "mouseup", "1")
    elif op == "up":
        x("xdotool", "mouseup", "1")
    elif op == "click":
        move(step["at"])
        time.sleep(0.1)
        x("xdotool", "click", "1")
    elif op == "failures":
        result["count"] = state_failures()
    elif op == "wait":
        try:
            result["status"] = ctl.wait(timeout=step.get("timeout", 60))
        except subprocess.TimeoutExpired:
            result["status"] = None
        result["window_open"] = window() is not None
    elif op == "window_gone":
        result["gone"] = bool(wait_for(lambda: window() is None, step.get("timeout", 10)))
    elif not common_step(step):
        sys.exit("no step %r" % op)
    out["steps"].append(result)
if ctl is not None and ctl.poll() is None:
    stop(ctl)
xvfb.terminate()
xvfb.wait()
print(json.dumps(out))
