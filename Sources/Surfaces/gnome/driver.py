# The GNOME Shell extension's test driver: the real gnome-shell (--x11 --replace) as the user under Xvfb, or as a
# headless Wayland compositor (job["wayland"]: the pointer and screenshots then through its D-Bus APIs), on a
# private session bus, with GDM and logind stood in for on a private system bus (Tests/support/gdm_standin.py,
# which runs the real PAM stack as root), the extension enabled in the user's settings; then the screen locked
# over D-Bus, the prompt woken, its grid found in the shell's log, and the steps of a job (Tests/support/gnome.py,
# GnomeCase.session). Run as root in the test's namespace with the job (JSON) on argv[1]; prints its report (JSON).
import atexit, json, os, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {"steps": [], "times": {}}
started = time.monotonic()
def mark(name):
    out["times"][name] = round(time.monotonic() - started, 1)
# include: shared/driver_xvfb.py
# include: shared/driver_pointer.py
# Whatever this driver started is ended when it exits, also when a step fails (a shell left behind keeps its
# buses and the user's processes alive after the test).
started_processes = []
def end_all():
    for process in reversed(started_processes):
        stop(process)
    if xvfb.poll() is None:
        xvfb.terminate()
        xvfb.wait()
atexit.register(end_all)
runtime = os.path.join(W, "runtime")
os.makedirs(runtime, exist_ok=True)
os.chown(runtime, job["uid"], -1)
os.chmod(runtime, 0o700)
# The private system bus, which the user may use: GDM's and logind's names are the stand-in's.
system_socket = os.path.join(W, "system_bus_socket")
with open(os.path.join(W, "system-bus.conf"), "w") as f:
    f.write('<busconfig><type>system</type><listen>unix:path=%s</listen><auth>EXTERNAL</auth>'
            '<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/>'
            '<allow receive_sender="*"/></policy></busconfig>' % system_socket)
# Nothing but the report goes to stdout: the helpers' output to the log of each.
def output(name):
    return open(os.path.join(W, name + ".out"), "wb")
system_bus = subprocess.Popen(["dbus-daemon", "--config-file", os.path.join(W, "system-bus.conf"), "--nofork"],
                              stdout=output("system-bus"), stderr=subprocess.STDOUT, start_new_session=True)
started_processes.append(system_bus)
session_socket = os.path.join(runtime, "bus")
wait_for(lambda: os.path.exists(system_socket), 10)
standin_log = os.path.join(W, "standin.log")
service_dir = os.path.join(W, "gdm")
os.makedirs(service_dir, exist_ok=True)
os.chmod(service_dir, 0o755)
standin = subprocess.Popen(["/usr/bin/python3", job["standin"], json.dumps({
    "bus": "unix:path=" + system_socket, "user": job["user"], "session": "c1", "log": standin_log,
    "service_dir": service_dir, "greeter": job["greeter"]})], stdout=output("standin"), stderr=subprocess.STDOUT, start_new_session=True)
started_processes.append(standin)
def standin_lines():
    try:
        with open(standin_log) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []
wait_for(lambda: "ready" in standin_lines(), 20)
user_env = {"PATH": "/usr/bin:/bin", "HOME": job["home"], "USER": job["user"], "LOGNAME": job["user"],
            "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8", "XDG_SESSION_ID": "c1", "XDG_CURRENT_DESKTOP": "GNOME",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + session_socket,
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + system_socket}
# A Wayland session (job["wayland"]) is the shell's own headless compositor with one virtual monitor: no X display.
if job["wayland"]:
    user_env["XDG_SESSION_TYPE"] = "wayland"
    shell_argv = ["gnome-shell", "--wayland", "--headless", "--no-x11", "--virtual-monitor", "%dx%d" % tuple(job["screen"])]
else:
    user_env.update(DISPLAY=display, XDG_SESSION_TYPE="x11")
    shell_argv = ["gnome-shell", "--x11", "--replace"]
if job["debug"]:
    user_env["PAM_PATTERN_GNOME_DEBUG"] = "1"
user_env.update(job["env"])
# The session bus, in the user's environment: what it starts (dconf's service) writes to the user's home.
session_bus = subprocess.Popen(job["setpriv"] + ["dbus-daemon", "--session", "--nofork", "--address",
                                                 "unix:path=" + session_socket], env=user_env, stdout=output("session-bus"),
                               stderr=subprocess.STDOUT, start_new_session=True)
started_processes.append(session_bus)
wait_for(lambda: os.path.exists(session_socket), 10)
def as_user(*argv, **kwargs):
    return subprocess.run(job["setpriv"] + list(argv), env=user_env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=60, **kwargs)
# The user's settings: the extension on (or not: the stock lock screen), no animations (a moving prompt is a
# moving target).
for schema, key, value in [("org.gnome.shell", "enabled-extensions", job["extensions"]),
                           ("org.gnome.shell", "disable-user-extensions", "false"),
                           ("org.gnome.desktop.interface", "enable-animations", "false")]:
    as_user("gsettings", "set", schema, key, value)
log_path = os.path.join(W, "shell.log")
shell = subprocess.Popen(job["setpriv"] + shell_argv + job["shell_options"],
                         env=user_env, stdout=open(log_path, "wb"), stderr=subprocess.STDOUT,
                         start_new_session=True)
started_processes.append(shell)
def log():
    with open(log_path, "rb") as f:
        return f.read().decode("utf-8", "replace")
def lines(text):
    return [l.split("pam_pattern: ", 1)[1] for l in log().splitlines() if "pam_pattern: " in l and l.split("pam_pattern: ", 1)[1].startswith(text)]
SCREENSAVER = ["gdbus", "call", "--session", "--timeout", "5", "--dest", "org.gnome.Shell.ScreenShield", "--object-path",
               "/org/gnome/ScreenSaver", "--method"]
def screensaver(method):
    done = as_user(*SCREENSAVER + ["org.gnome.ScreenSaver." + method])
    return done.stdout.decode(errors="replace").strip() if done.returncode == 0 else None
def active():
    return screensaver("GetActive") == "(true,)"
# The lock screen: up once the screen shield answers; locked once it says so; the prompt woken by a click.
# GDM's greeter (--mode=gdm): up once its login dialog opened a session with GDM; the dialog is the steps'.
mark("shell")
# On Wayland the pointer and the screenshots are the shell's own D-Bus APIs' (Tests/support/gnome_remote.py), once
# the shell is up.
if job["wayland"]:
    wait_for(lambda: "GNOME Shell started" in log(), 60, every=0.2)
    remote = subprocess.Popen(job["setpriv"] + ["/usr/bin/python3", job["remote"]], env=user_env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=open(os.path.join(W, "remote.out"), "wb"), text=True,
                               start_new_session=True)
    started_processes.append(remote)
    def remote_says(command):
        try:
            remote.stdin.write(command + "\n"); remote.stdin.flush()
            answer = remote.stdout.readline().strip()
        except BrokenPipeError:
            answer = None
        if answer != "ok":
            with open(os.path.join(W, "remote.out")) as f:
                sys.exit("the shell's D-Bus APIs: %s -> %r\n%s" % (command, answer, f.read()))
    def move(point):
        remote_says("move %d %d" % tuple(point))
    def press():
        remote_says("press")
    def release():
        remote_says("release")
    def shot(name):
        # The shell's own screenshot (a PNG, in the runtime directory: the shell writes it as the user).
        remote_says("shot " + os.path.join(runtime, os.path.splitext(name)[0] + ".png"))
if job["greeter"]:
    out["up"] = out["locked"] = bool(wait_for(lambda: "session" in standin_lines(), 60, every=0.5))
    time.sleep(2)
else:
    # Locking before the shell has finished starting is refused ("blocked by an application").
    out["up"] = bool(wait_for(lambda: "GNOME Shell started" in log(), 60, every=0.2))
    out["up"] = out["up"] and bool(wait_for(lambda: screensaver("GetActive") is not None, 30, every=0.5))
    # Asked again only while not locked: 48's Lock answers once the lock screen is shown, never when it already is.
    out["locked"] = out["up"] and bool(wait_for(lambda: active() or (screensaver("Lock") is not None and active()), 30, every=1))
def woken():
    # A click shows the prompt, which opens GDM's channel at once; the shield takes the first ones only once
    # it has settled.
    move((512, 700)); press(); release()
    return wait_for(lambda: any(l.startswith("reauthentication") for l in standin_lines()), 1.5)
mark("locked")
out["woken"] = out["locked"] and (job["greeter"] or bool(wait_for(woken, 30, every=0.5)))
# Ready once the grid is on screen (its place logged); the stock lock screen once PAM asked its first question.
if job["greeter"] and not job["steps_to_prompt"]:
    grid = out["woken"]
elif job["greeter"]:
    for step in job["steps_to_prompt"]:
        common_step(step)
    grid = wait_for(lambda: lines("grid ") if job["extension"] else any(l.startswith("asked") for l in standin_lines()), 30)
elif job["extension"]:
    grid = out["woken"] and wait_for(lambda: lines("grid "), job.get("ready_timeout", 30))
else:
    grid = out["woken"] and wait_for(lambda: any(l.startswith("asked") for l in standin_lines()), 30)
mark("woken")
out["ready"] = bool(grid)
mark("ready")
if grid:
    time.sleep(0.5)  # the last of the layout
for step in job["steps"] if grid else []:
    op = step["op"]
    result = {"op": op}
    if op == "drag":
        # No grid on screen (the stock lock screen): nothing to drag on, said in the report.
        if lines("grid "):
            drag_on_logged_grid(step)
        else:
            result["no_grid"] = True
    elif op == "drag_at":
        # The pointer along the step's points (where the grid would be, on a screen that shows none).
        move(step["path"][0]); press()
        glide([tuple(p) for p in step["path"]], step.get("steps", 4), 0.03, 0.1)
        release()
    elif op == "until":
        want = step.get("count", 1)
        result["found"] = bool(wait_for(lambda: len(lines(step["text"])) >= want, step.get("timeout", 20)))
    elif op == "until_unlocked":
        result["unlocked"] = bool(wait_for(lambda: screensaver("GetActive") == "(false,)", step.get("timeout", 20), every=0.3))
    elif op == "drag_to_unlocked":
        # make bench: the drawing, then the time from the release to logind's Unlock (the stand-in's "unlock" line,
        # sent once the PAM run succeeded): what ends the lock. (The extension's own "unlocked" line may never come:
        # the Unlock can take the dialog away before GDM's VerificationComplete reaches it.)
        drag_on_logged_grid(step)
        released = time.monotonic()
        if wait_for(lambda: "unlock" in standin_lines(), step.get("timeout", 20), every=0.002):
            result["seconds"] = time.monotonic() - released
    elif op == "cpu":
        # make bench: the shell's CPU share of one core over the step's seconds (/proc/PID/stat).
        def ticks():
            with open("/proc/%d/stat" % shell.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
        before, started_at = ticks(), time.monotonic()
        time.sleep(step["seconds"])
        result["percent"] = 100.0 * (ticks() - before) / os.sysconf("SC_CLK_TCK") / (time.monotonic() - started_at)
    elif op == "active":
        result["active"] = active()
    elif not common_step(step):
        sys.exit("no step %r" % op)
    out["steps"].append(result)
for process in (shell, standin, session_bus, system_bus):
    stop(process)
xvfb.terminate()
xvfb.wait()
out["log"] = log()
out["standin"] = standin_lines()
print(json.dumps(out))
