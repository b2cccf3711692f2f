#!/usr/bin/python3
"""Makes a Swift program the same bytes whatever directory it was built in (debian/rules, `make reproducible`).

Why: Swift's compiler keeps a hash of each object's LLVM module in a section, .swift_modhash, for its own
incremental code generation; that hash covers the source files' absolute paths (SwiftPM names them so), and the
linker's build ID covers the hash. Nothing reads the section in a linked program. So: the section is removed,
and the build ID is made again from the program's remaining bytes (SHA-1 over the file with the ID zeroed,
as long as the old one), so it still names this content and only this content.

Usage: drop-module-hash.py PROGRAM...   (each rewritten in place, its mode kept)
"""

import hashlib
import re
import subprocess
import sys

NOTE_HEADER = 16  # namesz, descsz, type, "GNU\0"


def build_id_range(path):
    """(offset, length) of the build ID's bytes in the file, or None."""
    sections = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
    found = re.search(r"\.note\.gnu\.build-id\s+NOTE\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)", sections)
    if not found:
        return None
    offset, size = int(found.group(1), 16), int(found.group(2), 16)
    return offset + NOTE_HEADER, size - NOTE_HEADER


def main(paths):
    for path in paths:
        subprocess.run(["objcopy", "--remove-section=.swift_modhash", path], check=True)
        where = build_id_range(path)
        if where is None:
            continue
        offset, length = where
        with open(path, "r+b") as f:
            data = bytearray(f.read())
            data[offset : offset + length] = bytes(length)
            digest = hashlib.sha1(bytes(data)).digest()
            f.seek(offset)
            f.write((digest * (length // len(digest) + 1))[:length])


if __name__ == "__main__":
    main(sys.argv[1:])
