"""The Debian packages of this tree: `make deb` run once per test process, its .deb files by package name.

`make deb` prints one path per binary package (the Makefile's DEB_LISTS): pam-pattern, whose files are
packaging/install.list's and the pad's and the drawing window's (Sources/Surfaces/*/package.list),
pam-pattern-kde, the KDE lock screen's (Sources/Surfaces/kde/package.list), pam-pattern-sddm, the SDDM
login screen's (Sources/Surfaces/sddm/package.list), pam-pattern-wayland, the Wayland lock screen's
(Sources/Surfaces/wayland/package.list), pam-pattern-gnome, the GNOME Shell extension's
(Sources/Surfaces/gnome/package.list), and pam-pattern-lightdm, the LightDM greeter's
(Sources/Surfaces/lightdm/package.list). Every suite that installs or extracts a package uses
these bytes.
"""

import atexit
import os
import shutil
import subprocess
import tempfile

from support.paths import ROOT

BASE, KDE, SDDM = "pam-pattern", "pam-pattern-kde", "pam-pattern-sddm"
WAYLAND, LIGHTDM = "pam-pattern-wayland", "pam-pattern-lightdm"
GNOME = "pam-pattern-gnome"


def deb_lists():
    """{package: its install lists, space-separated}, as the Makefile's DEB_LISTS names them."""
    out = subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", ROOT, "print-deb-lists"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if out.returncode != 0:
        raise AssertionError("make print-deb-lists failed:\n%s%s" % (out.stdout, out.stderr))
    return {line.split(":", 1)[0]: line.split(":", 1)[1].replace(",", " ") for line in out.stdout.split()}


# Each binary package and the install lists its files come from.
LISTS = deb_lists()


def make(*args):
    r = subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", ROOT, *args], capture_output=True, text=True, timeout=600
    )
    if r.returncode != 0:
        raise AssertionError("make %s failed:\n%s%s" % (" ".join(args), r.stdout, r.stderr))
    return r.stdout


def by_package(output):
    """{package: absolute .deb path} from `make deb`'s output (its name is PACKAGE_VERSION_ARCH.deb)."""
    found = {}
    for line in output.split():
        if line.endswith(".deb"):
            found[os.path.basename(line).split("_", 1)[0]] = os.path.join(ROOT, line)
    if sorted(found) != sorted(LISTS):
        raise AssertionError("make deb built %s, not one package each of %s" % (sorted(found), sorted(LISTS)))
    return found


_built = {}


def built(version=None):
    """{package: .deb} of this tree, made once per process (`version`: DEB_VERSION, another build's). Made again
    when a file of it is gone; another version's files are removed when the process ends, not by the class that
    asked first (a later class in the same process gets the same paths: test_debian13's classes run before
    test_package's and deleted the version+1 build under it)."""
    found = _built.get(version)
    if found is None or not all(os.path.exists(path) for path in found.values()):
        found = _built[version] = by_package(make("deb", *(["DEB_VERSION=" + version] if version else [])))
        if version:
            atexit.register(_remove, list(found.values()))
    return found


def _remove(paths):
    for path in paths:
        if os.path.exists(path):
            os.unlink(path)


def install_rows(package):
    """(source, destination, mode) of every file of `package`, Debian layout; the directories apart."""
    rows, directories = [], []
    out = make("print-install-list", "LAYOUT=debian", "INSTALL_LIST=" + LISTS[package])
    for line in out.splitlines():
        src, dst, mode = line.split()
        if src == "-":
            directories.append((dst, int(mode, 8)))
        else:
            rows.append((os.path.join(ROOT, src), dst, int(mode, 8)))
    return rows, directories


def unpacked_files(root):
    """The files a .deb unpacked at `root` installs, as absolute paths, sorted (its control archive, extracted
    to root/DEBIAN, left out)."""
    return sorted(
        "/" + os.path.relpath(os.path.join(p, f), root)
        for p, _, fs in os.walk(root)
        if not p.startswith(os.path.join(root, "DEBIAN"))
        for f in fs
    )


def assert_lintian_clean(test, deb, fail_on):
    """lintian (this machine's) on a copy of `deb`, as nobody, failing `test` on any tag of the `fail_on`
    levels ("error,warning", or with ",info": then it also reports info tags)."""
    copy = tempfile.mkdtemp(prefix="pp-lintian.")
    test.addCleanup(shutil.rmtree, copy, ignore_errors=True)
    shutil.copy(deb, copy)
    os.chmod(copy, 0o755)
    info = ["--info"] if "info" in fail_on else []
    r = subprocess.run(
        ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "env", "HOME=" + copy]
        + ["lintian", "--fail-on", fail_on]
        + info
        + [os.path.join(copy, os.path.basename(deb))],
        capture_output=True,
        text=True,
        timeout=300,
    )
    test.assertEqual(r.returncode, 0, r.stdout + r.stderr)
    levels = "".join(level[0].upper() for level in fail_on.split(","))
    test.assertNotRegex(r.stdout, r"(?m)^[%s]: " % levels, r.stdout)
