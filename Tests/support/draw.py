"""The drawing window of `patternctl set --draw` (pattern-draw) under Xvfb: the built patternctl run by a
throwaway user in support.pad's namespace (the setuid helper, the store and pattern-draw at their installed
paths, the shipped /etc/pam.d/patternctl for the account password), driven by xdotool like the pad.

A session (DrawCase.session) is one JSON job for DRIVER, run in the namespace as root: Xvfb -displayfd, then
per step `start` (patternctl set --draw as the user), `drag` (a path of dots or [x, y] points), `down`, `glide`
and `up` (a drag in parts: what the window shows while the button is held), `click` (a point), `type`, `key`,
`caption` (the window's words: it names its drawing area with them, as the pad does), `shot` (xwd), `failures`
(the user's throttle state) and `wait` (patternctl's exit status).
"""

import os
import shutil

from support import helper, pad
from support.formats import state_file
from support.paths import PATTERNCTL, ROOT, require_built
from support.system import setpriv_argv

# DrawLoop's window (no window manager: it sits at the root's top left) and PadLayout's grid inside it, with
# DrawLoop's spacing (its dots are taken within 3/10 of it: HIT_RADIUS).
WINDOW = (520, 740)
SPACING = 100
HIT_RADIUS = SPACING * 3 // 10
CENTRE = (WINDOW[0] // 2, WINDOW[1] // 2 - SPACING // 3)


def dot_centre(dot):
    return CENTRE[0] + ((dot - 1) % 3 - 1) * SPACING, CENTRE[1] + ((dot - 1) // 3 - 1) * SPACING


def password_button_centre():
    """Where "Use password instead" is (DrawRenderer.passwordButton: its text size is a sixth of the spacing)."""
    text = max(14, SPACING // 6)
    height = text * 5 // 2
    return WINDOW[0] // 2, WINDOW[1] - text - height + height // 2


def set_up_module():
    require_built(pad.DRAW, PATTERNCTL)
    pad.set_up_module()


DRIVER = (
    r'''
import json, os, re, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {"steps": []}
'''
    + pad.DRIVER_XVFB
    + pad.DRIVER_POINTER
    + helper.STATE_FAILURES
    + r'''
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
'''
)


class DrawCase(pad.PadCase):
    """A throwaway USER with PASSWORD (enrolled with helper.PATTERN unless ENROL is False) in support.pad's
    namespace with /etc/pam.d/patternctl as shipped; `session` runs the window's steps."""

    SERVICES = {"patternctl": open(os.path.join(ROOT, "pam.d", "patternctl")).read().splitlines()}

    def setUp(self):
        super().setUp()
        # The build directory need not be the user's to read: patternctl is copied beside the drivers.
        self.patternctl = os.path.join(self.sandbox.root, "patternctl")
        shutil.copyfile(PATTERNCTL, self.patternctl)
        os.chmod(self.patternctl, 0o755)

    def session(self, steps, env=None, timeout=240):
        job = {
            "root": self.sandbox.root,
            "screen": list(pad.SCREEN),
            "spacing": SPACING,
            "centre": list(CENTRE),
            "user": self.user.name,
            "home": "/home/" + self.user.name,
            "setpriv": setpriv_argv(self.user),
            "patternctl": self.patternctl,
            "steps": steps,
            "env": env or {},
            "state_file": state_file("/var/lib/pam_pattern", self.user.name),
        }
        report = self.run_driver("draw", DRIVER, job, timeout)
        report["patternctl_log"] = self.read("patternctl.log").decode(errors="replace")
        return report

    def window_shot(self, name):
        """The window's part of a screenshot."""
        return self.shot(name).crop(0, 0, WINDOW[0], WINDOW[1])
