# What the display managers' drivers (LightDM, SDDM) share: needs `job` and `out` of the driver's own. The greeter
# turned on and off with the job's commands, the daemon started after a private system bus, the machine's name
# (this uts namespace's) and the job's stand-ins on the bus, and stopped at the end; the throwaway session's marker.
def etc_files(under=""):
    # What the on and off commands wrote to /etc below `under` (the upper layer of its overlay).
    found = {}
    for directory, _, files in os.walk(os.path.join(job["etc_upper"], under)):
        for name in files:
            path = os.path.join(directory, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, job["etc_upper"])] = f.read().decode(errors="replace")
    return found
def marker():
    # The session ran: its marker's lines (who and where).
    try:
        with open(job["marker"]) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []
def turn_on():
    on = subprocess.run(["sh", "-c", job["on"]], capture_output=True)
    out["on"] = [on.returncode, (on.stdout + on.stderr).decode(errors="replace")]
def start_daemon(argv):
    # The system bus, the machine's name, then each stand-in of job["services"] (argvs; each says "ready" on its
    # output once its name is owned: a daemon looks for them at its start), then the daemon itself.
    bus = subprocess.run(["dbus-daemon", "--system", "--fork"], capture_output=True)
    out["bus"] = [bus.returncode, (bus.stdout + bus.stderr).decode(errors="replace")]
    subprocess.run(["hostname", job["hostname"]], check=True)
    out["services"] = []
    for service in job.get("services", []):
        started = subprocess.Popen(service, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out["services"].append(started.stdout.readline().strip())
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def stop_daemon(daemon):
    # The marker as the session left it, the daemon stopped (it stops its displays, greeters and sessions on
    # SIGTERM; whatever is left ends with this pid namespace), then the off command.
    out["marker"] = marker()
    daemon.terminate()
    try:
        daemon.wait(timeout=15)
    except subprocess.TimeoutExpired:
        daemon.kill()
    off = subprocess.run(["sh", "-c", job["off"]], capture_output=True)
    out["off"] = [off.returncode, (off.stdout + off.stderr).decode(errors="replace")]
