# What every pointer driver does on the display it drives: needs `job`, `W` (the sandbox's root), `x(...)` and
# `env` (with DISPLAY) of the driver's own.
# include: shared/driver_wait.py
def move(point):
    x("xdotool", "mousemove", str(point[0]), str(point[1]))
# The button (a driver on another display server than X's defines its own move, press and release).
def press():
    x("xdotool", "mousedown", "1")
def release():
    x("xdotool", "mouseup", "1")
def centre(dot):
    # A dot's centre on the grid the surface draws at job's "centre" with job's "spacing" (the pad's, the window's).
    c = job["centre"]; s = job["spacing"]
    return c[0] + ((dot - 1) % 3 - 1) * s, c[1] + ((dot - 1) // 3 - 1) * s
def glide(points, steps=4, pause=0.03, dwell=0.0):
    # The pointer from points[0] through each further point: `steps` samples between neighbours, `pause` s
    # apart, and `dwell` s on each point (a hand slows at a corner: under load Qt's X11 plugin merges queued
    # motion events, and a corner merged away is a straight line past it, another drawing).
    last = points[0]
    for point in points[1:]:
        for i in range(1, steps + 1):
            move((last[0] + (point[0] - last[0]) * i // steps, last[1] + (point[1] - last[1]) * i // steps))
            time.sleep(pause)
        time.sleep(dwell)
        last = point
def shot(name):
    subprocess.run(["xwd", "-root", "-silent", "-out", os.path.join(W, name)], env=env, check=True, timeout=30)
def shots(step):
    # `count` screenshots `every` s apart, starting now (names NAME-0.xwd ...).
    for i in range(step["count"]):
        shot("%s-%d.xwd" % (step["name"], i))
        time.sleep(step.get("every", 0.1))
def caption_until(step, timeout):
    # The surface's words (`caption()`, the driver's own), read again (up to the step's `timeout` s) until they
    # hold every text of `until` (a text, or a list): a surface renames its window a moment after each event
    # that changes them, and one event (a wrong pattern) may change them twice (the message, then the prompt).
    wanted = step.get("until", [])
    wanted = [wanted] if isinstance(wanted, str) else wanted
    text = caption()
    end = time.monotonic() + step.get("timeout", timeout)
    while any(w not in (text or "") for w in wanted) and time.monotonic() < end:
        time.sleep(0.05)
        text = caption()
    return text
def common_step(step):
    # The steps every surface's driver takes alike; False for any other.
    op = step["op"]
    if op == "shot":
        shot(step["name"])
    elif op == "shots":
        shots(step)
    elif op == "type":
        x("xdotool", "type", "--delay", "40", step["text"])
    elif op == "key":
        x("xdotool", "key", step["name"])
    elif op == "sleep":
        time.sleep(step["seconds"])
    else:
        return False
    return True
def drag_on_logged_grid(step):
    # The QML surfaces log the dots' centres ("grid X,Y ...", again whenever the window moves; the driver's
    # `lines(text)` reads its log): the step's path of dots (or [x, y] points) dragged through the last ones.
    last_grid = lines("grid ")[-1].split()[1:]
    centres = {dot: tuple(int(v) for v in point.split(",")) for dot, point in enumerate(last_grid, 1)}
    points = [centres[p] if isinstance(p, int) else tuple(p) for p in step["path"]]
    move(points[0]); time.sleep(0.1)
    press(); time.sleep(0.05)
    glide(points, step.get("steps", 4), step.get("pause", 0.03), step.get("dwell", 0.1))
    for name in step.get("shots_before_release", []):
        shot(name)
    # "release": false keeps the button down (a driver's own step lets go later).
    if step.get("release", True):
        release()
