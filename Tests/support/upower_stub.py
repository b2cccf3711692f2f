"""A stand-in for UPower on a private system bus, for the SDDM daemon's power calls: SDDM 0.19's PowerManager
(src/daemon/PowerManager.cpp) uses UPower, when its name is on the bus, for the capabilities it tells the greeter
(power off and reboot always; suspend when SuspendAllowed says so) and for suspend (its Suspend method); power
off and reboot then run [General] HaltCommand and RebootCommand. (login1 is not stood in for: with it on the bus
SDDM would take its seats from it too.) This program owns org.freedesktop.UPower, answers SuspendAllowed true,
HibernateAllowed false, and writes the name of every other method called on it to LOG, one a line.

The D-Bus wire protocol by hand (the test machines have no Python D-Bus binding): EXTERNAL authentication,
Hello, RequestName, then method calls answered in order. Run as root in the namespace:
    python3 upower_stub.py LOG   (prints "ready" once the name is owned)
"""

import os
import socket
import struct
import sys

NAME = "org.freedesktop.UPower"
INTROSPECTION = """<node>
 <interface name="org.freedesktop.UPower">
  <method name="SuspendAllowed"><arg type="b" direction="out"/></method>
  <method name="HibernateAllowed"><arg type="b" direction="out"/></method>
  <method name="Suspend"/>
  <method name="Hibernate"/>
 </interface>
</node>"""


class Writer:
    """Marshalling into one message (alignment counts from the message's start)."""

    def __init__(self, start=b""):
        self.data = bytearray(start)

    def pad(self, n):
        self.data += b"\0" * (-len(self.data) % n)

    def u32(self, value):
        self.pad(4)
        self.data += struct.pack("<I", value)

    def string(self, text):
        raw = text.encode()
        self.u32(len(raw))
        self.data += raw + b"\0"

    def signature(self, text):
        self.data += bytes([len(text)]) + text.encode() + b"\0"


def message(kind, serial, fields, body_signature="", body=b"", flags=0):
    """One message: fields [(code, type, value)] of the header, the body already marshalled."""
    header = Writer()
    header.data += struct.pack("<cBBBII", b"l", kind, flags, 1, len(body), serial)
    array = Writer(header.data + b"\0\0\0\0")
    if body_signature:
        fields = fields + [(8, "g", body_signature)]
    for code, kind_of, value in fields:
        array.pad(8)
        array.data += bytes([code])
        array.signature(kind_of)
        if kind_of == "u":
            array.u32(value)
        elif kind_of == "g":
            array.signature(value)
        else:
            array.string(value)
    length = len(array.data) - len(header.data) - 4
    array.data[12:16] = struct.pack("<I", length)
    array.pad(8)
    return bytes(array.data) + body


def read_exactly(connection, n):
    data = b""
    while len(data) < n:
        chunk = connection.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def receive(connection):
    """The next message: (type, flags, serial, {code: value}, body bytes)."""
    fixed = read_exactly(connection, 16)
    _, kind, flags, _, body_length, serial, fields_length = struct.unpack("<cBBBIII", fixed)
    rest = read_exactly(connection, fields_length + (-(16 + fields_length) % 8) + body_length)
    data = fixed + rest
    fields, at = {}, 16
    while at < 16 + fields_length:
        at += -at % 8
        code = data[at]
        size = data[at + 1]
        kind_of = data[at + 2 : at + 2 + size].decode()
        at += 3 + size
        if kind_of in ("s", "o"):
            at += -at % 4
            n = struct.unpack("<I", data[at : at + 4])[0]
            fields[code] = data[at + 4 : at + 4 + n].decode()
            at += 5 + n
        elif kind_of == "u":
            at += -at % 4
            fields[code] = struct.unpack("<I", data[at : at + 4])[0]
            at += 4
        elif kind_of == "g":
            n = data[at]
            fields[code] = data[at + 1 : at + 1 + n].decode()
            at += 2 + n
    return kind, flags, serial, fields, data[len(data) - body_length :]


def main():
    log = sys.argv[1]
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect("/run/dbus/system_bus_socket")
    connection.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
    if not connection.recv(4096).startswith(b"OK "):
        sys.exit("the bus refused EXTERNAL")
    connection.sendall(b"BEGIN\r\n")
    bus = [(1, "o", "/org/freedesktop/DBus"), (2, "s", "org.freedesktop.DBus"), (6, "s", "org.freedesktop.DBus")]
    connection.sendall(message(1, 1, bus + [(3, "s", "Hello")]))
    request = Writer(b"\0" * 16)
    request.string(NAME)
    request.u32(0)
    connection.sendall(message(1, 2, bus + [(3, "s", "RequestName")], "su", bytes(request.data[16:])))
    serial = 2
    while True:
        kind, flags, their_serial, fields, body = receive(connection)
        if kind == 2 and fields.get(5) == 2:
            if struct.unpack("<I", body[:4])[0] not in (1, 4):
                sys.exit("the name was not given")
            print("ready", flush=True)
            continue
        if kind != 1:
            continue
        member = fields.get(3, "")
        reply = [(5, "u", their_serial)] + ([(6, "s", fields[7])] if 7 in fields else [])
        signature, body = "", b""
        if member in ("SuspendAllowed", "HibernateAllowed"):
            signature, body = "b", struct.pack("<I", member == "SuspendAllowed")
        elif member == "Introspect":
            text = Writer(b"\0" * 16)
            text.string(INTROSPECTION)
            signature, body = "s", bytes(text.data[16:])
        else:
            with open(log, "a") as f:
                f.write(member + "\n")
        serial += 1
        if not flags & 1:
            connection.sendall(message(2, serial, reply, signature, body))


if __name__ == "__main__":
    main()
