#!/usr/bin/python3
"""A headless Wayland gnome-shell's pointer and screen, through its own D-Bus APIs, for a test's driver.

The pointer: mutter's org.gnome.Mutter.RemoteDesktop, a session with no screen cast (absolute motion needs a
PipeWire stream of a monitor; relative motion does not), so the pointer is first pushed into the top left corner,
where the compositor holds it at 0,0, and moved by differences from there on. The screen: org.gnome.Shell.Screenshot,
which answers only the names on its allowlist, so this process owns one of them (org.gnome.Screenshot, as GNOME's
screenshot tool does). Run as the session's user, on its session bus (python3-gi). Reads lines on stdin: "move X Y",
"press", "release", "shot PATH" (a PNG of the whole screen); answers each with "ok" (or the error) on stdout once
the shell has done it.
"""

import sys

from gi.repository import Gio, GLib

BTN_LEFT = 0x110  # linux/input-event-codes.h: what NotifyPointerButton names a button by
NAME = "org.gnome.Mutter.RemoteDesktop"

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def call(name, path, interface, method, args=None, reply=None):
    return bus.call_sync(name, path, interface, method, args, GLib.VariantType(reply) if reply else None, 0, 5000, None)


session = call(NAME, "/org/gnome/Mutter/RemoteDesktop", NAME, "CreateSession", reply="(o)").unpack()[0]
SESSION = NAME + ".Session"
call(NAME, session, SESSION, "Start")
DO_NOT_QUEUE = 4  # RequestName's flag: the name now, or an error
call(
    "org.freedesktop.DBus",
    "/org/freedesktop/DBus",
    "org.freedesktop.DBus",
    "RequestName",
    GLib.Variant("(su)", ("org.gnome.Screenshot", DO_NOT_QUEUE)),
    "(u)",
)


def motion(dx, dy):
    call(NAME, session, SESSION, "NotifyPointerMotionRelative", GLib.Variant("(dd)", (float(dx), float(dy))))


def screenshot(path):
    shell = "org.gnome.Shell.Screenshot"
    made = call(
        shell, "/org/gnome/Shell/Screenshot", shell, "Screenshot", GLib.Variant("(bbs)", (False, False, path)), "(bs)"
    )
    if not made.unpack()[0]:
        raise GLib.Error("the shell made no screenshot at " + path)


# Far past the top left corner: the pointer stops at 0,0 whatever it was.
motion(-10000, -10000)
at = (0, 0)
for line in sys.stdin:
    words = line.split()
    try:
        if words[0] == "move":
            to = (int(words[1]), int(words[2]))
            motion(to[0] - at[0], to[1] - at[1])
            at = to
        elif words[0] == "shot":
            screenshot(words[1])
        else:
            call(NAME, session, SESSION, "NotifyPointerButton", GLib.Variant("(ib)", (BTN_LEFT, words[0] == "press")))
        print("ok", flush=True)
    except GLib.Error as error:
        print(error.message, flush=True)
