"""Screenshots of an X display without imagemagick: `xwd -root` (x11-apps) read here into RGB rows, written as
PNG with zlib alone, and the few pixel questions the pad's tests ask (how much of a colour, where).
"""

import struct
import subprocess
import zlib

XWD_HEADER_FIELDS = 25


class Image:
    """width, height and rows of (r, g, b) bytes: rows[y][3*x : 3*x+3]."""

    def __init__(self, width, height, rows):
        self.width = width
        self.height = height
        self.rows = rows

    def pixel(self, x, y):
        row = self.rows[y]
        return row[3 * x], row[3 * x + 1], row[3 * x + 2]

    def count(self, predicate, box=None):
        """How many pixels (r, g, b) satisfy predicate, in box (x0, y0, x1, y1) or everywhere."""
        x0, y0, x1, y1 = box or (0, 0, self.width, self.height)
        n = 0
        for y in range(max(0, y0), min(self.height, y1)):
            row = self.rows[y]
            for x in range(max(0, x0), min(self.width, x1)):
                if predicate(row[3 * x], row[3 * x + 1], row[3 * x + 2]):
                    n += 1
        return n

    def png(self):
        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

        raw = b"".join(b"\0" + bytes(row) for row in self.rows)
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (
            b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
        )

    def crop(self, x0, y0, x1, y1):
        return Image(x1 - x0, y1 - y0, [bytearray(row[3 * x0 : 3 * x1]) for row in self.rows[y0:y1]])


def parse_xwd(data):
    """An Image from xwd's output (ZPixmap, 24 or 32 bits per pixel, either byte order)."""
    fields = struct.unpack(">%dI" % XWD_HEADER_FIELDS, data[: 4 * XWD_HEADER_FIELDS])
    header_size, version, pixmap_format = fields[0], fields[1], fields[2]
    if version != 7 or pixmap_format != 2:
        raise ValueError("not a ZPixmap xwd file (version %d, format %d)" % (version, pixmap_format))
    width, height = fields[4], fields[5]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    red_mask, green_mask, blue_mask = fields[14], fields[15], fields[16]
    ncolors = fields[19]
    offset = header_size + 12 * ncolors
    step = bits_per_pixel // 8
    if step not in (3, 4):
        raise ValueError("unsupported %d bits per pixel" % bits_per_pixel)

    def shift(mask):
        s = 0
        while mask and not mask & 1:
            mask >>= 1
            s += 1
        return s

    shifts = shift(red_mask), shift(green_mask), shift(blue_mask)
    order = "<" if byte_order == 0 else ">"
    rows = []
    for y in range(height):
        line = data[offset + y * bytes_per_line : offset + y * bytes_per_line + width * step]
        row = bytearray(3 * width)
        for x in range(width):
            chunk = line[x * step : x * step + step]
            value = int.from_bytes(chunk, "little" if order == "<" else "big")
            row[3 * x] = (value & red_mask) >> shifts[0]
            row[3 * x + 1] = (value & green_mask) >> shifts[1]
            row[3 * x + 2] = (value & blue_mask) >> shifts[2]
        rows.append(row)
    return Image(width, height, rows)


def capture(display, timeout=30):
    """The whole screen of `display` (":N") as an Image."""
    done = subprocess.run(["xwd", "-root", "-silent", "-display", display], capture_output=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError("xwd failed: %r" % done.stderr)
    return parse_xwd(done.stdout)


def is_red(r, g, b):
    return r > 180 and g < 90 and b < 90


def is_wrong_colour(pixel):
    """The QML surfaces' wrong drawing (PatternGrid.qml's wrongColor, #ed1515), more tightly than is_red."""
    r, g, b = pixel
    return r > 200 and g < 60 and b < 60


def is_accent(r, g, b):
    """The pad's lit colour (a light blue)."""
    return b > 200 and 140 < g < 210 and 100 < r < 170


def read_png(path):
    """An Image from a PNG that Image.png wrote (8-bit RGB, filter 0 rows; other filters decoded too) or GNOME
    Shell's screenshot D-Bus API did (8-bit RGBA: the alpha dropped)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s is not a PNG" % path)
    at, idat, width, height, channels = 8, b"", 0, 0, 3
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        body = data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) not in ((8, 2), (8, 6)):
                raise ValueError("%s: only 8-bit RGB and RGBA are read" % path)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = channels * width
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rgb = line
        if channels == 4:
            rgb = bytearray(3 * width)
            for c in range(3):
                rgb[c::3] = line[c::4]
        rows.append(rgb)
        previous = line
    return Image(width, height, rows)
