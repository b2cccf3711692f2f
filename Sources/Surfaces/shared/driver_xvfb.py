# The start every X11 driver shares: Xvfb of job["screen"] on a display it names itself (-displayfd), that
# display in `display` and `env`, `x(...)` to run an X client there, and `stop(process)` to end a process group.
rfd, wfd = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-nolisten", "tcp", "-ac", "-screen", "0", "%dx%dx24" % tuple(job["screen"])],
                        pass_fds=[wfd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(wfd)
number = b""
while not number.endswith(b"\n"):
    chunk = os.read(rfd, 16)
    if not chunk:
        break
    number += chunk
display = ":" + number.decode().strip()
env = dict(os.environ, DISPLAY=display, LANG="C.UTF-8")  # xprop prints the caption as UTF-8
def x(*argv):
    subprocess.run(list(argv), env=env, check=True, timeout=30)
def stop(process):
    """Ends a process group led by `process` (the locker, the greeter): SIGTERM, then SIGKILL after 10 s."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
