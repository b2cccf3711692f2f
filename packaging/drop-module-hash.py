#!/usr/bin/python3
"""Makes a Swift program the same bytes whatever directory it was built in (debian/rules, `make reproducible`).

Why: Swift's compiler keeps a hash of each object's LLVM module in a section, .swift_modhash, for its own
incremental code generation; that hash covers the source files' absolute paths (SwiftPM names them so), and the
linker's build ID covers the hash. Nothing reads the section in a linked program. So: its bytes are zeroed in
place (removing it with objcopy rewrote the program headers and lost the RELRO segment), and the build ID is
made again from the program's bytes (SHA-1 over the file with the ID zeroed, as long as the old one), so it
still names this content and only this content.

Usage: drop-module-hash.py PROGRAM...   (each rewritten in place, its mode kept)
"""

import hashlib
import re
import subprocess
import sys

NOTE_HEADER = 16  # namesz, descsz, type, "GNU\0"


def section_range(path, name, kind):
    """(offset, length) of the section `name` in the file, or None."""
    sections = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, check=True).stdout
    found = re.search(r"%s\s+%s\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)" % (re.escape(name), kind), sections)
    return (int(found.group(1), 16), int(found.group(2), 16)) if found else None


def main(paths):
    for path in paths:
        with open(path, "r+b") as f:
            data = bytearray(f.read())
            module_hash = section_range(path, ".swift_modhash", "PROGBITS")
            if module_hash:
                offset, length = module_hash
                data[offset : offset + length] = bytes(length)
            build_id = section_range(path, ".note.gnu.build-id", "NOTE")
            if build_id:
                offset, length = build_id[0] + NOTE_HEADER, build_id[1] - NOTE_HEADER
                data[offset : offset + length] = bytes(length)
                digest = hashlib.sha1(bytes(data)).digest()
                data[offset : offset + length] = (digest * (length // len(digest) + 1))[:length]
            f.seek(0)
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1:])
