#!/usr/bin/python3
"""Takes the entries of shared directories out of a .deb's data member, in place, keeping every other byte.

Why: dpkg registers every directory in the archive as the package's, and on removal tries to rmdir the ones
no other package lists. Debian 12's libpam-modules lists its module directory by the /lib spelling, so
/usr/lib/<multiarch>/security (the same directory under merged /usr, and the spelling Debian 13 requires)
would be this package's alone there, and `dpkg -r`/`-P` warns "directory ... not empty so not removed". A
file whose parent exists is unpacked without the parent's entry, and the module directory always exists
(libpam-modules is Priority: required).

Usage: unclaim-directories.py DEB DIR...   (DIR absolute, as installed: /usr/lib/x86_64-linux-gnu/security)
"""

import io
import lzma
import sys
import tarfile

AR_MAGIC = b"!<arch>\n"
AR_HEADER = 60


def members(blob):
    """The ar members as (header, name, data)."""
    if not blob.startswith(AR_MAGIC):
        raise SystemExit("unclaim-directories.py: not an ar archive")
    offset = len(AR_MAGIC)
    while offset < len(blob):
        header = blob[offset : offset + AR_HEADER]
        name = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58].decode())
        start = offset + AR_HEADER
        yield header, name, blob[start : start + size]
        offset = start + size + (size % 2)


def without_directories(data, directories):
    """data.tar.xz without the entries of `directories` (as "./usr/lib/..."), otherwise entry for entry."""
    source = tarfile.open(fileobj=io.BytesIO(lzma.decompress(data)), mode="r:")
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:", format=tarfile.GNU_FORMAT) as target:
        for entry in source:
            if entry.isdir() and entry.name.rstrip("/") in directories:
                continue
            target.addfile(entry, source.extractfile(entry) if entry.isfile() else None)
    return lzma.compress(out.getvalue(), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64)


def main(deb, *shared):
    directories = {"." + path.rstrip("/") for path in shared}
    with open(deb, "rb") as handle:
        blob = handle.read()
    rebuilt = [AR_MAGIC]
    for header, name, data in members(blob):
        if name == "data.tar.xz":
            data = without_directories(data, directories)
            header = header[:48] + str(len(data)).ljust(10).encode() + header[58:]
        rebuilt += [header, data, b"\n" if len(data) % 2 else b""]
    with open(deb, "wb") as handle:
        handle.write(b"".join(rebuilt))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
