"""What make bench's lock-screen probes share (bench/pad_unlock.py, bench/kde_lock_screen.py): a private Xvfb that
names its own display, medians, and the reference every unlock is set against, one yescrypt verification of the
same cost, timed in this process."""

import crypt
import os
import subprocess
import sys
import time


def start_xvfb(size="1024x768x24"):
    """(process, display) of a new Xvfb with no access control (-ac: the bench user's clients connect)."""
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-ac", "-screen", "0", size],
        pass_fds=[write_end],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read_end, 16)
        if not chunk:
            sys.exit("lock-screen bench: Xvfb did not start")
        number += chunk
    os.close(read_end)
    return xvfb, ":" + number.decode().strip()


def median(values):
    values = sorted(values)
    return values[(len(values) - 1) // 2]


def yescrypt_seconds(secret, stored):
    """Seconds one verification of `secret` against the yescrypt hash `stored` takes here (it must verify)."""
    started = time.monotonic()
    if crypt.crypt(secret, stored) != stored:
        sys.exit("lock-screen bench: the reference hash does not verify")
    return time.monotonic() - started
