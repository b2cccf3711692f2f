#!/usr/bin/python3
"""The pointer of a headless Wayland gnome-shell, moved and pressed through mutter's own
org.gnome.Mutter.RemoteDesktop D-Bus API: a session with no screen cast (absolute motion needs a PipeWire stream
of a monitor; relative motion does not), so the pointer is first pushed into the top left corner, where the
compositor holds it at 0,0, and moved by differences from there on. Run as the session's user, on its session bus
(python3-gi). Reads lines on stdin: "move X Y", "press", "release"; answers each with "ok" (or the error) on
stdout once mutter has taken it.
"""

import sys

from gi.repository import Gio, GLib

BTN_LEFT = 0x110  # linux/input-event-codes.h: what NotifyPointerButton names a button by
NAME = "org.gnome.Mutter.RemoteDesktop"

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def call(path, interface, method, args=None, reply=None):
    return bus.call_sync(NAME, path, interface, method, args, GLib.VariantType(reply) if reply else None, 0, 5000, None)


session = call("/org/gnome/Mutter/RemoteDesktop", NAME, "CreateSession", reply="(o)").unpack()[0]
SESSION = NAME + ".Session"
call(session, SESSION, "Start")
# Far past the top left corner: the pointer stops at 0,0 whatever it was.
call(session, SESSION, "NotifyPointerMotionRelative", GLib.Variant("(dd)", (-10000.0, -10000.0)))
at = (0, 0)
for line in sys.stdin:
    words = line.split()
    try:
        if words[0] == "move":
            to = (int(words[1]), int(words[2]))
            call(session, SESSION, "NotifyPointerMotionRelative", GLib.Variant("(dd)", (to[0] - at[0], to[1] - at[1])))
            at = to
        else:
            call(session, SESSION, "NotifyPointerButton", GLib.Variant("(ib)", (BTN_LEFT, words[0] == "press")))
        print("ok", flush=True)
    except GLib.Error as error:
        print(error.message, flush=True)
