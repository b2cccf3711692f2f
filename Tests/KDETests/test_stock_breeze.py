"""Plasma's STOCK lock screen (Breeze: kscreenlocker_greet --testing without --theme, none of our files) with the
profile enabled, at the real greeter under Xvfb, run by an unprivileged user with a pattern: the password typed
once in its one field unlocks (the profile's forward_non_pattern hands it from the pattern's prompt to pam_unix), with no
"Not a pattern" message and nothing counted. Root only; needs the greeter and Xvfb (make deps)."""

import unittest

from support import kde, pad, surfaces


def setUpModule():
    kde.require_greeter()
    pad.set_up_module()


# The stock greeter as the user: shown, woken (a pointer move brings up Breeze's field), the password typed once
# and Enter; then whether the greeter ended by itself (it quits on unlock in --testing) within the wait.
DRIVER = surfaces.whole(
    r"""import json, os, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
W = job["root"]
out = {}
# include: shared/driver_xvfb.py
# include: shared/driver_pointer.py
runtime = os.path.join(W, "runtime")
os.makedirs(runtime, exist_ok=True)
os.chown(runtime, job["uid"], -1)
os.chmod(runtime, 0o700)
user_env = {"PATH": "/usr/bin:/bin", "HOME": job["home"], "USER": job["user"], "LOGNAME": job["user"],
            "DISPLAY": display, "XDG_RUNTIME_DIR": runtime, "QT_QPA_PLATFORM": "xcb", "LANG": "C.UTF-8"}
log_path = os.path.join(W, "greeter.log")
greeter = subprocess.Popen(job["setpriv"] + [job["greeter"], "--testing"], env=user_env,
                           stdout=open(log_path, "wb"), stderr=subprocess.STDOUT, start_new_session=True)
time.sleep(job["start_seconds"])
out["running_before"] = greeter.poll() is None
move((500, 400)); time.sleep(0.3); move((520, 420)); time.sleep(1.5)
x("xdotool", "type", "--delay", "60", job["typed"])
x("xdotool", "key", "Return")
try:
    out["status"] = greeter.wait(timeout=job["wait"])
except subprocess.TimeoutExpired:
    out["status"] = None
    shot("after.xwd")
stop(greeter)
xvfb.terminate()
xvfb.wait()
with open(log_path, "rb") as f:
    out["log"] = f.read().decode("utf-8", "replace")
print(json.dumps(out))
"""
)


class StockBreezeTest(pad.PadCase):
    USER = "padbreeze1"
    PASSWORD = "Breeze-test-pw-42"

    def greeter(self, typed, wait=20):
        job = {
            "root": self.sandbox.root,
            "screen": [1024, 768],
            "user": self.user.name,
            "uid": self.user.uid,
            "home": "/home/" + self.user.name,
            "setpriv": pad.helper.setpriv_argv(self.user),
            "greeter": kde.GREETER,
            "start_seconds": 8,
            "typed": typed,
            "wait": wait,
        }
        return self.run_driver("breeze", DRIVER, job, 180)

    def test_the_password_typed_once_unlocks(self):
        report = self.greeter(self.PASSWORD)
        self.assertTrue(report["running_before"], report["log"])
        self.assertEqual(report["status"], 0, "one typed password did not unlock:\n%s" % report["log"])
        self.assertNotIn("Not a pattern", report["log"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)


if __name__ == "__main__":
    unittest.main()
