"""patternctl run under LANG=zh_CN.UTF-8 with the built catalogue, changing nothing of the machine.

zh_CN.UTF-8 is compiled with localedef into a temp directory (LOCPATH), and the built catalogue is mounted
over /usr/share/locale/zh_CN/LC_MESSAGES in a private mount namespace."""

import os
import shutil
import subprocess
import tempfile
import unittest

from support import zh_cn
from support.paths import PATTERNCTL, require_built, require_root
from support.zh_cn import CATALOGUE, MESSAGES

NOBODY = 65534


class ChineseLocaleCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL, CATALOGUE)
        require_root("a private mount namespace")
        zh_cn.require_source()
        cls.root = tempfile.mkdtemp(prefix="patternctl-locale-")
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
        os.chmod(cls.root, 0o755)  # patternctl run as nobody reads the locale too
        cls.locales = os.path.join(cls.root, "locales")
        os.mkdir(cls.locales)
        zh_cn.compile_into(cls.locales)
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
