"""patternctl run under LANG=zh_CN.UTF-8 with the built catalogue, changing nothing of the machine.

zh_CN.UTF-8 is compiled with localedef into a temp directory (LOCPATH), and the built catalogue is mounted
over /usr/share/locale/zh_CN/LC_MESSAGES in a private mount namespace."""

import os
import shutil
import subprocess
import tempfile
import unittest

from support.paths import BUILD, PATTERNCTL, require_built, require_root

CATALOGUE = os.path.join(BUILD, "locale", "zh_CN", "LC_MESSAGES", "pam_pattern.mo")
MESSAGES = "/usr/share/locale/zh_CN/LC_MESSAGES"
NOBODY = 65534


class ChineseLocaleCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL, CATALOGUE)
        require_root("a private mount namespace")
        if not (shutil.which("localedef") and os.path.exists("/usr/share/i18n/locales/zh_CN")):
            raise unittest.SkipTest("no zh_CN locale source (Debian package locales; make deps)")
        if not os.path.isdir(MESSAGES):
            raise unittest.SkipTest("no %s to mount over" % MESSAGES)
        cls.root = tempfile.mkdtemp(prefix="patternctl-locale-")
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
        os.chmod(cls.root, 0o755)  # patternctl run as nobody reads the locale too
        cls.locales = os.path.join(cls.root, "locales")
        os.mkdir(cls.locales)
        made = subprocess.run(
            ["localedef", "--no-archive", "-i", "zh_CN", "-f", "UTF-8", os.path.join(cls.locales, "zh_CN.utf8")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=120,
        )
        if not os.path.isdir(os.path.join(cls.locales, "zh_CN.utf8")):
            raise AssertionError("localedef zh_CN failed: %s" % made.stdout.decode(errors="replace"))
        cls.messages = os.path.join(cls.root, "messages")
        os.mkdir(cls.messages)
        shutil.copy(CATALOGUE, cls.messages)

    def patternctl(self, *arguments, chinese, as_nobody=False, stdin=""):
        """`patternctl ARGUMENTS` in English (C.UTF-8) or in Chinese, as root or as nobody."""
        argv = [PATTERNCTL, *arguments]
        if as_nobody:
            argv = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups", *argv]
        if chinese:
            script = 'mount --bind "$1" %s && shift && exec "$@"' % MESSAGES
            argv = ["unshare", "-m", "sh", "-c", script, "sh", self.messages, *argv]
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "zh_CN.UTF-8" if chinese else "C.UTF-8"}
        env["LOCPATH"] = self.locales
        return subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, timeout=60)
