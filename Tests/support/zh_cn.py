"""zh_CN.UTF-8 for the language tests, leaving the machine's locales alone: the locale compiled with localedef
into a directory of the test's own (a LOCPATH, or a copy of /usr/lib/locale mounted over it), and the built
catalogue, which a test mounts over MESSAGES in a private mount namespace."""

import os
import shutil
import subprocess
import unittest

from support.paths import BUILD

# What localedef compiles zh_CN from (Debian package locales).
SOURCE = "/usr/share/i18n/locales/zh_CN"
# Where gettext looks for the zh_CN catalogues, and so where a test mounts the built one.
MESSAGES = "/usr/share/locale/zh_CN/LC_MESSAGES"
CATALOGUE = os.path.join(BUILD, "locale", "zh_CN", "LC_MESSAGES", "pam_pattern.mo")


def require_source():
    """Skips unless zh_CN.UTF-8 can be compiled here and there is a catalogue directory to mount over."""
    if not (shutil.which("localedef") and os.path.exists(SOURCE)):
        raise unittest.SkipTest("no zh_CN locale source (Debian package locales; make deps)")
    if not os.path.isdir(MESSAGES):
        raise unittest.SkipTest("no %s to mount over" % MESSAGES)


def compile_into(directory):
    """Compiles zh_CN.UTF-8 into directory/zh_CN.utf8; fails (does not skip) when localedef cannot."""
    made = subprocess.run(
        ["localedef", "--no-archive", "-i", "zh_CN", "-f", "UTF-8", os.path.join(directory, "zh_CN.utf8")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=120,
    )
    if not os.path.isfile(os.path.join(directory, "zh_CN.utf8", "LC_MESSAGES", "SYS_LC_MESSAGES")):
        raise AssertionError("localedef zh_CN failed: %s" % made.stdout.decode(errors="replace"))
