"""Debian unstable (sid), where Debian's own Swift (swiftlang >= 6.2) is: the system the source package is built,
installed, linted and autopkgtested in (Tests/DebianSourceTests, `make reproducible`).

The same cached chroot as Debian 13's (support.debian13: debootstrap from the mirror apt uses here, built under a
temporary name and renamed when complete, a stamp naming its packages; an overlay per test in a private mount
namespace), in BUILD/sid. It holds the source package's Build-Depends (so `apt-get build-dep` there downloads
nothing unless debian/control asks for more) and the tools the suite runs. The mirror's sid Release file may be
past its Valid-Until: apt in the system is told not to check it.
"""

import os

from support import debian13
from support.paths import BUILD

CACHE = os.path.join(BUILD, "sid")
STAMP = os.path.join(CACHE, "ready")
SUITE = "sid"
APT_CONFIG = 'Acquire::Check-Valid-Until "false";\n'
# debian/control's Build-Depends (Tests/DebianSourceTests checks they are all here), then what the suite runs:
# dpkg-buildpackage's tools, lintian, autopkgtest, and what the installed flows use (su, sudo, useradd).
BUILD_DEPENDS = (
    "debhelper swiftlang libpam0g-dev libcrypt-dev libtss2-dev libbsd-dev gettext libx11-dev libxrandr-dev "
    "libxft-dev python3 lld"
).split()
PACKAGES = (
    BUILD_DEPENDS + "build-essential dpkg-dev lintian autopkgtest sudo passwd login util-linux libpam-runtime".split()
)


def cached_root():
    return debian13.cached_root(cache=CACHE, suite=SUITE, packages=PACKAGES, apt_config=APT_CONFIG)


class Sid(debian13.Debian13):
    """An overlay of the cached sid root in a private mount namespace (support.debian13.Debian13)."""

    def __init__(self, lower=None, writable=False):
        super().__init__(lower=lower or cached_root(), writable=writable)
