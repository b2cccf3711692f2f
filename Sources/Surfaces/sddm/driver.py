# The SDDM login screen's test driver: the daemon and its greeter with the journal read as it comes, and the
# steps of a job (Tests/support/sddm.py).
# Run as root in the test's namespace with the job (JSON) on argv[1]; prints its report (JSON). The
# `# include:` lines stand for the shared parts (Sources/Surfaces/shared/driver_*.py, or a support module's), put in their place by
# Tests/support/surfaces.py: a driver is one script.
import json, os, signal, socket, struct, subprocess, sys, threading, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {"steps": [], "journal": []}
# include: shared/driver_pointer.py
# include: shared/driver_daemon.py


def parse(data):
    """One journal datagram (the native protocol: KEY=VALUE lines, or KEY, a length and binary data)."""
    fields, i = {}, 0
    while i < len(data):
        nl = data.find(b"\n", i)
        if nl < 0:
            break
        line = data[i:nl]
        if b"=" in line:
            key, value = line.split(b"=", 1)
            fields[key.decode()] = value
            i = nl + 1
        else:
            n = struct.unpack("<Q", data[nl + 1:nl + 9])[0]
            fields[line.decode()] = data[nl + 9:nl + 9 + n]
            i = nl + 9 + n + 1
    return fields

journal = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
journal.bind("/run/systemd/journal/socket")
os.chmod("/run/systemd/journal/socket", 0o666)
journal.settimeout(0.2)
reading = True
def read_journal():
    while reading:
        try:
            fields = parse(journal.recv(1 << 20))
        except socket.timeout:
            continue
        out["journal"].append([fields.get("SYSLOG_IDENTIFIER", b"").decode(errors="replace"),
                               fields.get("MESSAGE", b"").decode(errors="replace")])
reader = threading.Thread(target=read_journal)
reader.start()

def lines(text):
    found = []
    for _, message in list(out["journal"]):
        if message.startswith("pam_pattern: ") and message[13:].startswith(text):
            found.append(message[13:])
    return found

def conf():
    try:
        with open(job["conf"]) as f:
            return f.read()
    except FileNotFoundError:
        return None

out["etc_before"] = etc_files()
out["conf_before"] = conf()
turn_on()
out["etc_on"] = etc_files()
out["conf_on"] = conf()
# The UPower stand-in is one of the job's services: SDDM looks for it once, at its start.
daemon = start_daemon(["sddm"])

def comm(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return ""

def greeter_env():
    for entry in os.listdir("/proc"):
        if entry.isdigit() and comm(int(entry)) == "sddm-greeter":
            try:
                with open("/proc/%s/environ" % entry, "rb") as f:
                    variables = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
            except OSError:
                continue
            if b"DISPLAY" in variables:
                return {"DISPLAY": variables[b"DISPLAY"].decode(),
                        "XAUTHORITY": variables.get(b"XAUTHORITY", b"").decode()}
    return None

env = None
def connect():
    global env
    found = wait_for(greeter_env, 30)
    if found:
        env = dict(os.environ, **found)
    return found

def x(*argv):
    subprocess.run(list(argv), env=env, check=True, timeout=30)


# Another theme (SDDM's own, for a screenshot beside ours) logs no grid: its greeter's display, and time to draw.
if job.get("other_theme"):
    grid = connect() and (time.sleep(8) or True)
else:
    grid = wait_for(lambda: lines("grid "), 90) and connect()
out["ready"] = bool(grid)
if grid:
    time.sleep(0.3)
for step in job["steps"] if grid else []:
    op = step["op"]
    result = {"op": op}
    if op == "drag":
        drag_on_logged_grid(step)
    elif op == "click":
        # A button the theme placed ("controls NAME=X,Y ..." in its log).
        places = dict(p.split("=") for p in lines("controls ")[-1].split()[1:]) if lines("controls ") else {}
        result["found"] = step["control"] in places
        if result["found"]:
            move(tuple(int(v) for v in places[step["control"]].split(",")))
            time.sleep(0.1)
            x("xdotool", "click", "1")
    elif op == "click_at":
        move(tuple(step["point"]))
        time.sleep(0.1)
        x("xdotool", "click", "1")
        time.sleep(0.1)
    elif op == "release":
        x("xdotool", "mouseup", "1")
    elif op == "until":
        # The theme's line starting with "text", or with "who", a journal line of that program that is "text".
        want = step.get("count", 1)
        def seen():
            if "who" in step:
                return len([m for w, m in list(out["journal"]) if w == step["who"] and m == step["text"]])
            return len(lines(step["text"]))
        result["found"] = bool(wait_for(lambda: seen() >= want, step.get("timeout", 20)))
    elif op == "marker":
        # The session ran: its marker holds a line.
        result["lines"] = wait_for(marker, step.get("timeout", 30))
    elif not common_step(step):
        sys.exit("no step %r" % op)
    out["steps"].append(result)
stop_daemon(daemon)
out["etc_after"] = etc_files()
out["conf_after"] = conf()
reading = False
reader.join()
print(json.dumps(out))
