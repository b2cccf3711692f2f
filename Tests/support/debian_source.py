"""The Debian source package at the top of the tree (debian/), built the way Debian builds it: in the cached sid
system (support.sid), `apt-get build-dep` then `dpkg-buildpackage -us -uc`, from a copy of the tree's files (the
ones git tracks or would, so the tree's own build/ with its cached systems never goes into the source package).

Used by Tests/DebianSourceTests and `make reproducible` (Tools/reproducible.py), which builds it twice.
"""

import os
import shutil
import subprocess
import time

from support.paths import BUILD, ROOT


def tree_files():
    """The tree's files as git sees them: tracked, and untracked but not ignored (a new file not committed yet)."""
    r = subprocess.run(
        ["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    )
    return [name for name in r.stdout.decode().split("\0") if name and os.path.lexists(os.path.join(ROOT, name))]


def export_tree(dest):
    """The tree's files copied into `dest` (made; symbolic links kept as links)."""
    os.makedirs(dest)
    listing = "\0".join(tree_files()).encode()
    pack = subprocess.Popen(
        ["tar", "-C", ROOT, "--null", "-T", "-", "-cf", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    unpack = subprocess.Popen(["tar", "-C", dest, "-xf", "-"], stdin=pack.stdout)
    pack.stdout.close()
    pack.communicate(listing)
    if unpack.wait() != 0 or pack.returncode != 0:
        raise AssertionError("copying the tree into %s failed" % dest)


class Timings:
    """What each step took, printed as the suite's and `make reproducible`'s account of its time."""

    def __init__(self):
        self.steps = []

    def run(self, what, function):
        began = time.monotonic()
        try:
            return function()
        finally:
            self.steps.append((what, time.monotonic() - began))
            print("== %s: %.0f s" % (what, self.steps[-1][1]), flush=True)


def build(system, source, timings, umask="0022", env=""):
    """The source package built in `system` (a support.sid.Sid) from the directory `source` (a path inside it
    whose parent receives the results): build-dep, then dpkg-buildpackage. Returns dpkg-buildpackage's output."""
    timings.run(
        "apt-get build-dep",
        lambda: system.sh("cd %s && apt-get build-dep -y -q ./" % source, timeout=1800),
    )
    return timings.run(
        "dpkg-buildpackage",
        lambda: (
            system.sh(
                "cd %s && umask %s && env %s dpkg-buildpackage -us -uc 2>&1" % (source, umask, env), timeout=5400
            ).stdout
        ),
    )


def results(directory):
    """The files dpkg-buildpackage left in `directory`, by kind: {"deb": [...], "dsc": ..., "changes": ...}."""
    found = {"deb": []}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if name.endswith(".deb"):
            found["deb"].append(path)
        elif name.endswith((".dsc", ".changes", ".buildinfo")):
            found[name.rsplit(".", 1)[1]] = path
    return found


def read(path):
    with open(path) as f:
        return f.read()


def fresh_directory(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def previous_release():
    """The release before debian/changelog's version: the newest v* tag that HEAD descends from and that names
    another version (None in a clone without one)."""
    version = subprocess.run(
        ["dpkg-parsechangelog", "-l", os.path.join(ROOT, "debian", "changelog"), "-SVersion"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tags = subprocess.run(
        ["git", "-C", ROOT, "tag", "--merged", "HEAD", "--sort=-v:refname", "-l", "v[0-9]*"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return next((tag for tag in tags if tag != "v" + version), None)


def previous_release_debs(tag, timings):
    """{package: .deb} of the release `tag`, built by that release's own `make deb` (the swift.org route) from
    the tagged tree, cached in BUILD/previous-release/TAG like the sid system: under a temporary name, renamed
    when complete, a stamp naming the tagged commit."""
    cache = os.path.join(BUILD, "previous-release", tag)
    stamp = os.path.join(cache, "ready")
    commit = subprocess.run(
        ["git", "-C", ROOT, "rev-parse", tag + "^{commit}"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not (os.path.exists(stamp) and read(stamp) == commit):
        new = fresh_directory(cache + ".new")
        tree = os.path.join(new, "src")
        os.makedirs(tree)
        archive = subprocess.Popen(["git", "-C", ROOT, "archive", commit], stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", tree], stdin=archive.stdout, check=True)
        archive.stdout.close()
        if archive.wait() != 0:
            raise AssertionError("git archive %s failed" % tag)
        made = timings.run(
            "make deb of %s (the previous release)" % tag,
            lambda: subprocess.run(["make", "-s", "-C", tree, "deb"], capture_output=True, text=True, timeout=3600),
        )
        if made.returncode != 0:
            raise AssertionError("make deb of %s failed:\n%s%s" % (tag, made.stdout[-3000:], made.stderr[-3000:]))
        for line in made.stdout.split():
            if line.endswith(".deb"):
                shutil.copy(os.path.join(tree, line), new)
        shutil.rmtree(tree)
        with open(os.path.join(new, "ready"), "w") as f:
            f.write(commit)
        shutil.rmtree(cache, ignore_errors=True)
        os.rename(new, cache)
    return {name.split("_")[0]: os.path.join(cache, name) for name in os.listdir(cache) if name.endswith(".deb")}
