#!/usr/bin/python3
"""A stand-in for logind's power calls on a test's private system bus, for the LightDM greeter's buttons:
liblightdm asks org.freedesktop.login1's Manager CanPowerOff, CanReboot and CanSuspend (a button shows only for
"yes") and calls PowerOff, Reboot and Suspend. This program owns the name, answers each Can* as told, writes the
name of every method called on it to LOG, one a line, and answers ListSeats with an error (so the LightDM daemon
keeps its own seat, as with no logind). Run as root in the namespace once the bus is up:
    python3 login1_stub.py LOG CAN_POWER_OFF CAN_REBOOT CAN_SUSPEND   (prints "ready" once the name is owned)
"""

import sys

from gi.repository import Gio, GLib

log_path, can_power_off, can_reboot, can_suspend = sys.argv[1:5]
CAN = {"CanPowerOff": can_power_off, "CanReboot": can_reboot, "CanSuspend": can_suspend}
INTERFACE = """
<node>
  <interface name="org.freedesktop.login1.Manager">
    <method name="CanPowerOff"><arg type="s" direction="out"/></method>
    <method name="CanReboot"><arg type="s" direction="out"/></method>
    <method name="CanSuspend"><arg type="s" direction="out"/></method>
    <method name="PowerOff"><arg type="b" direction="in"/></method>
    <method name="Reboot"><arg type="b" direction="in"/></method>
    <method name="Suspend"><arg type="b" direction="in"/></method>
    <method name="ListSeats"><arg type="a(so)" direction="out"/></method>
  </interface>
</node>
"""
log = open(log_path, "a", buffering=1)


def call(_connection, _sender, _path, _interface, method, _parameters, invocation):
    log.write(method + "\n")
    if method in CAN:
        invocation.return_value(GLib.Variant("(s)", (CAN[method],)))
    elif method in ("PowerOff", "Reboot", "Suspend"):
        invocation.return_value(None)
    else:
        invocation.return_dbus_error("org.freedesktop.DBus.Error.NotSupported", method)


bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
info = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
bus.register_object(
    "/org/freedesktop/login1", info.lookup_interface("org.freedesktop.login1.Manager"), call, None, None
)
owned = bus.call_sync(
    "org.freedesktop.DBus",
    "/org/freedesktop/DBus",
    "org.freedesktop.DBus",
    "RequestName",
    GLib.Variant("(su)", ("org.freedesktop.login1", 4)),
    GLib.VariantType("(u)"),
    Gio.DBusCallFlags.NONE,
    -1,
    None,
).unpack()[0]
if owned != 1:
    sys.exit("login1 stub: the name is not ours (%d)" % owned)
print("ready", flush=True)
GLib.MainLoop().run()
