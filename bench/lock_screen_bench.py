"""What make bench's lock-screen probes share (bench/pad_unlock.py, bench/kde_lock_screen.py): a private Xvfb that
names its own display, medians, and the reference every unlock is set against, one yescrypt verification of the
same cost, timed in this process; and the two ends of a pad's unlock, taken without a program's start-up or a
poll's sleep between the event and its time."""

import crypt
import ctypes
import os
import select
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


class XTestPointer:
    """Pointer button 1 pressed and released through XTEST from this process, on a display opened once: the release's
    time is taken just before the request leaves for the server, so no `xdotool` start-up (several ms) lies
    between the release and its mark."""

    def __init__(self, display):
        self.x11 = ctypes.CDLL("libX11.so.6")
        self.xtest = ctypes.CDLL("libXtst.so.6")
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.x11.XFlush.argtypes = [ctypes.c_void_p]
        self.x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self.xtest.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.display = self.x11.XOpenDisplay(display.encode())
        if not self.display:
            sys.exit("lock-screen bench: cannot open %s" % display)

    def release(self):
        """Releases button 1; returns the monotonic time just before the release was sent."""
        self.xtest.XTestFakeButtonEvent(self.display, 1, 0, 0)
        released = time.monotonic()
        self.x11.XFlush(self.display)
        return released

    def close(self):
        self.x11.XCloseDisplay(self.display)


def exit_time(process, timeout):
    """The monotonic time `process` exited, woken by its pidfd, then reaped; None if it still runs after `timeout`
    seconds. (Popen.wait with a timeout polls with sleeps of up to 50 ms, which a bench would count as the
    screen's.)"""
    pidfd = os.pidfd_open(process.pid)
    try:
        ready, _, _ = select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)
    if not ready:
        return None
    exited = time.monotonic()
    process.wait()
    return exited
