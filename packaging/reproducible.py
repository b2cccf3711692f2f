#!/usr/bin/python3
"""`make reproducible`: the Debian source package (debian/) built twice in the cached sid system (Tests/support/
sid.py), as Tests/DebianSourceTests builds it, the second build varied: at another time (minutes later, every
source file's mtime made new), from another path (another directory name and depth), under another umask
(0002 against 0022) and time zone. Each .deb's SHA-256 is printed for both builds; for one that differs, every
file inside it (data and control members) that differs is named. Exits 1 on any difference.

Not part of `make test`: two full builds are beyond CI's budget. Root (chroot, mount namespaces).
"""

import hashlib
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests"))

from support import debian_source, sid  # noqa: E402
from support.paths import BUILD  # noqa: E402

OUT = os.path.join(BUILD, "reproducible")
# (directory, umask, environment) of each build.
BUILDS = (
    (os.path.join(OUT, "first", "pam-pattern"), "0022", "TZ=UTC LC_ALL=C.UTF-8"),
    (os.path.join(OUT, "second", "elsewhere", "pam-pattern-again"), "0002", "TZ=Asia/Shanghai LC_ALL=C"),
)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def files_of(deb):
    """{path inside the .deb: its bytes' SHA-256, or its link target, and its mode}, control files as DEBIAN/..."""
    root = tempfile.mkdtemp(prefix="pp-reproducible.")
    subprocess.run(["dpkg-deb", "-R", deb, root], check=True)
    listing = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
    found = {"(listing: modes, owners, times)": hashlib.sha256(listing.encode()).hexdigest()}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            key = os.path.relpath(path, root)
            found[key] = os.readlink(path) if os.path.islink(path) else sha256(path)
    subprocess.run(["rm", "-rf", root], check=True)
    return found


def build_once(source, umask, env):
    os.makedirs(os.path.dirname(source), exist_ok=True)
    debian_source.export_tree(source)
    now = time.time()
    for folder, _, names in os.walk(source):
        for name in names:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.utime(path, (now, now))
    timings = debian_source.Timings()
    with sid.Sid() as system:
        system.share(os.path.dirname(source))
        debian_source.build(system, source, timings, umask=umask, env=env)
    return {os.path.basename(deb): deb for deb in debian_source.results(os.path.dirname(source))["deb"]}


def main():
    if os.geteuid() != 0:
        sys.exit("make reproducible needs root (chroot, mount namespaces)")
    sid.cached_root()
    debian_source.fresh_directory(OUT)
    built = [build_once(*b) for b in BUILDS]
    differing = 0
    for name in sorted(set(built[0]) | set(built[1])):
        hashes = [sha256(b[name]) if name in b else "(not built)" for b in built]
        same = hashes[0] == hashes[1]
        print("%s %s\n  %s\n  %s" % ("same" if same else "DIFFERS", name, hashes[0], hashes[1]))
        if same or "(not built)" in hashes:
            differing += not same
            continue
        differing += 1
        first, second = (files_of(b[name]) for b in built)
        for path in sorted(set(first) | set(second)):
            if first.get(path) != second.get(path):
                print("    differs: %s" % path)
    print("reproducible: %s" % ("yes, every .deb bit for bit" if not differing else "NO, %d .deb differ" % differing))
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
