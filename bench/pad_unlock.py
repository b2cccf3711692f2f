"""make bench's unlock probe (bench/run-bench.sh): the right drawing at the real xsecurelock with auth_pattern, run
by the bench user on a private Xvfb (-ac), through the PAM service SERVICE (pam_pattern, run as the user, so through
the setuid helper). Each round locks, wakes the pad, draws the pattern with xdotool, releases the button through
XTEST from this process and times from that release (marked as it leaves this process) to xsecurelock's exit (woken
by its pidfd); beside it, in the same round, one yescrypt verification of the same cost (HASH, checked against SECRET
in this process). Prints the medians in us and the median of the per-round ratios: "unlock_us yescrypt_us ratio
rounds".

usage: pad_unlock.py PAD UID SERVICE DIGITS HASH SECRET ROUNDS
"""

import os
import signal
import subprocess
import sys
import time

from lock_screen_bench import XTestPointer, exit_time, median, start_xvfb, yescrypt_seconds

pad, uid, service, digits, stored, secret, rounds = sys.argv[1:8]
uid, rounds = int(uid), int(rounds)
SPACING = 100
CENTRE = (512, 384 - SPACING // 3)


def centre(dot):
    return CENTRE[0] + ((dot - 1) % 3 - 1) * SPACING, CENTRE[1] + ((dot - 1) // 3 - 1) * SPACING


xvfb, display = start_xvfb()
pointer = XTestPointer(display)


def x(*argv):
    subprocess.run(list(argv), env=dict(os.environ, DISPLAY=display), check=True, timeout=30)


def conversing():
    """Whether the bench user's authproto_pam runs (the pad is up and its PAM conversation started)."""
    return subprocess.run(["pgrep", "-u", str(uid), "-x", "authproto_pam"], capture_output=True).returncode == 0


unlock, verify, ratios = [], [], []
try:
    for _ in range(rounds):
        environment = {
            "PATH": "/usr/bin:/bin",
            "HOME": "/",
            "DISPLAY": display,
            "XSECURELOCK_AUTH": pad,
            "XSECURELOCK_PAM_SERVICE": service,
            "XSECURELOCK_PATTERN_SIZE": str(SPACING),
        }
        locker = subprocess.Popen(
            ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups", "xsecurelock"],
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(1)
        x("xdotool", "mousemove", "20", "20")
        x("xdotool", "mousemove_relative", "1", "0")
        end = time.monotonic() + 20
        while not conversing() and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(0.5)  # the pattern prompt: the module's check through the helper came before it
        points = [centre(int(d)) for d in digits]
        x("xdotool", "mousemove", str(points[0][0]), str(points[0][1]))
        time.sleep(0.1)
        x("xdotool", "mousedown", "1")
        time.sleep(0.05)
        for point in points[1:]:
            x("xdotool", "mousemove", str(point[0]), str(point[1]))
            time.sleep(0.03)
        time.sleep(0.05)
        released = pointer.release()
        opened = exit_time(locker, 20)
        if opened is None:
            os.killpg(locker.pid, signal.SIGKILL)
            sys.exit("pad_unlock: the right drawing did not unlock")
        if locker.returncode != 0:
            sys.exit("pad_unlock: xsecurelock exited %d" % locker.returncode)
        verified = yescrypt_seconds(secret, stored)
        unlock.append(opened - released)
        verify.append(verified)
        ratios.append((opened - released) / verified)
        time.sleep(0.3)
finally:
    pointer.close()
    xvfb.terminate()
    xvfb.wait()
print("%d %d %.3f %d" % (median(unlock) * 1e6, median(verify) * 1e6, median(ratios), len(ratios)))
