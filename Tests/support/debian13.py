"""A Debian 13 (trixie) system to install the package in: a chroot made by debootstrap from the Debian mirror
apt uses here, cached under the build directory, and for each test an overlay of it in a private mount namespace.

The cache (BUILD/debian13/root) is debootstrap --variant=minbase plus PACKAGES, built once (about 2.5 min,
mostly downloads) under a temporary name and renamed when complete, so an interrupted build is never used; its
stamp names the packages, and a changed list builds it again. `make clean` removes it.

Root: a holder process (`unshare --mount`) in whose private mount namespace the cache is the lower layer of an
overlay (the upper layer in a temporary directory), with /proc and a private /dev (tmpfs, the few device nodes
bound from the host's, /dev/pts, /dev/shm) mounted in it. Commands run there by nsenter + chroot. Every mount
exists only in that namespace: when its processes are killed (close()), the mounts are gone, also after a
failure, and the host's mount table never held one (test_debian13 checks both).
"""

import fcntl
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from support.paths import BUILD

CACHE = os.path.join(BUILD, "debian13")
CACHED_ROOT = os.path.join(CACHE, "root")
STAMP = os.path.join(CACHE, "ready")
SUITE = "trixie"
# What the tests run there (sudo, su, the lockers, Xvfb and xdotool, swtpm's tools for purge, lintian, Plasma 6's
# greeter and shell package structure, its stock desktop shell (plasma-desktop-data: what plasma6-lock-screen
# copies), SDDM 0.21 and the QML its theme imports, and Qt's SVG images, which the on-screen keyboard's style draws
# with: plasma-workspace brings its QML module) and what the packages depend on
# and recommend, so installing them needs no download.
PACKAGES = (
    "sudo passwd login util-linux python3 xvfb xsecurelock i3lock xdotool x11-utils x11-apps tpm2-tools lintian "
    "libpam-runtime libx11-6 libxrandr2 libxft2 libtss2-esys-3.0.2-0t64 libtss2-sys1t64 libtss2-rc0t64 "
    "libtss2-tcti-swtpm0t64 plasma-workspace plasma-desktop-data sddm qml-module-qtquick2 qml-module-qtquick-window2 "
    "qml-module-qtquick-controls2 qml-module-qtqml-models2 qml6-module-qtquick qml6-module-qtquick-window "
    "qml6-module-qtquick-controls qml6-module-qtqml-models qt6-svg-plugins "
    # pattern-lock's: sway 1.10 (ext-session-lock-v1) headless, grim, wtype, and the libraries the locker links.
    "sway grim wtype libwayland-client0 libcairo2 libxkbcommon0 "
    # the LightDM greeter's: the daemon
    "lightdm"
    # GNOME Shell 48's (GNOMETests): the shell without the desktop, its private buses' daemon, gjs, libgdm's typelib
    # and python3-gi for the stand-in for GDM and logind, dconf-cli for the greeter's keyfile.
    " gnome-shell mutter dbus-x11 gnome-settings-daemon at-spi2-core gjs gir1.2-gdm-1.0 python3-gi dconf-cli"
).split()


def set_up_module():
    """A Debian 13 suite's setUpModule: skips unless root, fails without the tools, builds the cache if missing."""
    if os.geteuid() != 0:
        raise unittest.SkipTest("needs root: debootstrap, chroot, mount namespaces")
    for tool in ("debootstrap", "unshare", "nsenter", "chroot"):
        if shutil.which(tool) is None:
            raise AssertionError("%s is not installed (make deps)" % tool)
    cached_root()


def host_mirror():
    """The Debian mirror apt uses on this machine (deb822 sources or sources.list)."""
    deb822 = "/etc/apt/sources.list.d/debian.sources"
    if os.path.exists(deb822):
        with open(deb822) as f:
            found = re.search(r"(?m)^URIs:\s*(\S+)", f.read())
        if found:
            return found.group(1)
    with open("/etc/apt/sources.list") as f:
        found = re.search(r"(?m)^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+\S+\s+main", f.read())
    if not found:
        raise AssertionError("no Debian mirror found in apt's sources")
    return found.group(1)


def _stamp_text(suite, packages):
    return "%s %s\n%s\n" % (suite, host_mirror(), " ".join(packages))


def cached_root(cache=CACHE, suite=SUITE, packages=PACKAGES, apt_config=""):
    """The cache's root directory, built first if missing or made for another package list. Another Debian
    release (support.sid) names its own cache directory, suite, packages and apt configuration (apt.conf lines
    kept in the system, e.g. for a mirror's expired Release file)."""
    root, stamp = os.path.join(cache, "root"), os.path.join(cache, "ready")
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time per build directory
        if os.path.exists(stamp):
            with open(stamp) as f:
                if f.read() == _stamp_text(suite, packages):
                    return root
        _build(root, stamp, suite, packages, apt_config)
    return root


def _build(root, stamp, suite, packages, apt_config):
    if shutil.which("debootstrap") is None:
        raise AssertionError("debootstrap is not installed (make deps)")
    for stale in (stamp, root, root + ".new"):
        if os.path.isdir(stale):
            shutil.rmtree(stale)
        elif os.path.exists(stale):
            os.unlink(stale)
    new = root + ".new"
    mirror = host_mirror()
    run_logged(["debootstrap", "--variant=minbase", suite, new, mirror], "debootstrap", timeout=900)
    # Packages, in a namespace of their own (proc and dev for the maintainer scripts).
    with open(os.path.join(new, "etc/apt/sources.list"), "w") as f:
        f.write("deb %s %s main\n" % (mirror, suite))
    if apt_config:
        with open(os.path.join(new, "etc/apt/apt.conf.d/50pam-pattern-tests"), "w") as f:
            f.write(apt_config)
    script = (
        "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends %s"
        " >/dev/null && apt-get clean" % " ".join(packages)
    )
    with Debian13(lower=new, writable=True) as system:
        system.sh(script, timeout=1800)
    os.rename(new, root)
    with open(stamp, "w") as f:
        f.write(_stamp_text(suite, packages))


def run_logged(argv, what, timeout):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s%s" % (what, r.returncode, r.stdout[-3000:], r.stderr[-3000:]))
    return r


def mounts_under(*directories):
    """Mount points of the host's mount table at or below any of the directories."""
    with open("/proc/self/mountinfo") as f:
        points = [line.split()[4] for line in f]
    return [p for p in points if any(p == d or p.startswith(d.rstrip("/") + "/") for d in directories)]


def processes_in(namespace):
    """PIDs whose mount namespace is `namespace` (what /proc/PID/ns/mnt links to)."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink("/proc/%s/ns/mnt" % name) == namespace:
                found.append(int(name))
        except OSError:
            pass
    return found


class Debian13:
    """An overlay of the cached trixie root in a private mount namespace (see the module docstring); `writable`
    mounts the lower directory itself instead (to build the cache). A context manager; close() is idempotent."""

    def __init__(self, lower=None, writable=False):
        self.lower_root = lower or cached_root()
        self.dir = tempfile.mkdtemp(prefix="pp-debian13.")
        self.merged = self.lower_root if writable else os.path.join(self.dir, "merged")
        # What the tests' own mounts and tools write to, not the package: PackageTests.leftovers skips it.
        self.scratch = ["/tmp/", "/root/"]
        self.holder = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sleep", "infinity"])
        try:
            deadline = time.monotonic() + 10
            while self.namespace() == os.readlink("/proc/self/ns/mnt"):
                if time.monotonic() > deadline:
                    raise AssertionError("the namespace holder never left the host's mount namespace")
                time.sleep(0.02)
            m = shlex.quote(self.merged)
            steps = ["set -e"]
            if not writable:
                for part in ("upper", "work", "merged"):
                    os.makedirs(os.path.join(self.dir, part))
                steps.append(
                    "mount -t overlay overlay -o lowerdir=%s,upperdir=%s,workdir=%s %s"
                    % (
                        shlex.quote(self.lower_root),
                        shlex.quote(self.upper("/")),
                        shlex.quote(os.path.join(self.dir, "work")),
                        m,
                    )
                )
            steps += [
                "mount -t proc proc %s/proc" % m,
                "mount -t tmpfs -o mode=0755 tmpfs %s/dev" % m,
                "for n in null zero full random urandom tty ptmx; do touch %s/dev/$n; mount --bind /dev/$n %s/dev/$n; done"
                % (m, m),
                "mkdir %s/dev/pts %s/dev/shm" % (m, m),
                "mount --bind /dev/pts %s/dev/pts && mount -t tmpfs -o mode=1777 tmpfs %s/dev/shm" % (m, m),
                "mount -t tmpfs -o mode=0755 tmpfs %s/run && mkdir -p %s/run/lock" % (m, m),
                "cp /etc/resolv.conf %s/etc/resolv.conf 2>/dev/null || true" % m,
            ]
            self.host(" && ".join(steps[1:]))
        except BaseException:
            self.close()
            raise

    def namespace(self):
        """The holder's mount namespace (what /proc/PID/ns/mnt links to)."""
        return os.readlink("/proc/%d/ns/mnt" % self.holder.pid)

    # -- what PackageTests' Namespace offers -----------------------------------

    LAYERS = ("/",)
    # A system of its own: nothing of the host's to lock or to check afterwards.
    ON_HOST = False

    def lower(self, layer):
        return self.lower_root

    def upper(self, layer):
        return os.path.join(self.dir, "upper")

    def path(self, p):
        """A path inside the system, seen from outside."""
        return "/proc/%d/root%s%s" % (self.holder.pid, self.merged, p)

    def enter(self, argv):
        """argv run inside the system, as root."""
        return ["nsenter", "-t", str(self.holder.pid), "-m", "--", "chroot", self.merged, *argv]

    def run(self, argv, input=None, check=True, timeout=120):
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "LC_ALL": "C"}
        r = subprocess.run(self.enter(argv), input=input, capture_output=True, text=True, timeout=timeout, env=env)
        if check and r.returncode != 0:
            raise AssertionError("%s failed (%d):\n%s%s" % (argv, r.returncode, r.stdout, r.stderr))
        return r

    def sh(self, script, **kw):
        return self.run(["bash", "-euo", "pipefail", "-c", script], **kw)

    def share(self, path, read_only=False):
        """The host's directory `path` at the same path inside (the package's .deb, a swtpm socket)."""
        target = self.merged + path
        top = "/" + path.strip("/").split("/")[0]
        if not os.path.lexists(self.lower_root + top):
            self.scratch.append(top + "/")
            self.scratch.append(top)
        self.host(
            "mkdir -p %s && mount --bind %s %s%s"
            % (
                shlex.quote(target),
                shlex.quote(path),
                shlex.quote(target),
                " && mount -o remount,bind,ro %s" % shlex.quote(target) if read_only else "",
            )
        )
        return path

    def host(self, script, timeout=120):
        """A shell script in the namespace, outside the chroot (the mounts)."""
        r = subprocess.run(
            ["nsenter", "-t", str(self.holder.pid), "-m", "--", "sh", "-c", script],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if r.returncode != 0:
            raise AssertionError("%s failed (%d):\n%s%s" % (script, r.returncode, r.stdout, r.stderr))
        return r

    def close(self):
        """Ends every process in the namespace (the holder last), so its mounts are gone with it."""
        if self.holder is not None:
            try:
                namespace = self.namespace()
            except OSError:  # the holder is gone already, and its namespace with it unless something else holds it
                namespace = None
            for _ in range(50 if namespace else 0):
                others = [p for p in processes_in(namespace) if p != self.holder.pid]
                if not others:
                    break
                for pid in others:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                time.sleep(0.05)
            self.holder.send_signal(signal.SIGKILL)
            self.holder.wait()
            self.holder = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
