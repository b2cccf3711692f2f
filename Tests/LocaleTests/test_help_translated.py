"""patternctl's help screens are translated whole: under LANG=zh_CN.UTF-8 no line of prose is left in
English, so a help text written without localized() (or missing from po/zh_CN.po) fails here.

zh_CN.UTF-8 is compiled with localedef into a temp directory (LOCPATH), and the built catalogue is mounted
over /usr/share/locale/zh_CN/LC_MESSAGES in a private mount namespace: nothing of the machine changes."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

from support.paths import BUILD, PATTERNCTL, require_built, require_root

CATALOGUE = os.path.join(BUILD, "locale", "zh_CN", "LC_MESSAGES", "pam_pattern.mo")
MESSAGES = "/usr/share/locale/zh_CN/LC_MESSAGES"
# Lines that are the same in every language: empty, the grid, the field names `status` prints.
UNTRANSLATED = re.compile(r"^(|    [1-9] [1-9] [1-9]|  [a-z ]+: [A-Z|a-z ()\[\]]+)$")


class HelpTranslationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL, CATALOGUE)
        require_root("a private mount namespace")
        if not (shutil.which("localedef") and os.path.exists("/usr/share/i18n/locales/zh_CN")):
            raise unittest.SkipTest("no zh_CN locale source (Debian package locales; make deps)")
        if not os.path.isdir(MESSAGES):
            raise unittest.SkipTest("no %s to mount over" % MESSAGES)
        cls.root = tempfile.mkdtemp(prefix="patternctl-help-locale-")
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
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

    def help(self, command, chinese):
        """`patternctl [COMMAND] --help` in English (C.UTF-8) or in Chinese."""
        argv = [PATTERNCTL] + ([command] if command else []) + ["--help"]
        if chinese:
            script = 'mount --bind "$1" %s && shift && exec "$@"' % MESSAGES
            argv = ["unshare", "-m", "sh", "-c", script, "sh", self.messages] + argv
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "zh_CN.UTF-8" if chinese else "C.UTF-8"}
        env["LOCPATH"] = self.locales
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual((done.returncode, done.stderr), (0, ""), done)
        return done.stdout.split("\n")

    def test_every_help_screen_is_translated(self):
        english = self.help(None, chinese=False)
        commands = [line.split()[0] for line in english[english.index("Commands:") + 1 :] if line.startswith("  ")]
        commands = commands[: commands.index("help") + 1]
        self.assertIn("set", commands)
        for command in [None] + commands:
            with self.subTest(command=command):
                english, chinese = self.help(command, False), self.help(command, True)
                self.assertNotEqual(english, chinese)
                left = [line for line in chinese if line in english and not UNTRANSLATED.match(line)]
                self.assertEqual(left, [], "English lines in the Chinese help")
                # Option and command names are not translated.
                labels = [line.split("  ")[1] for line in english if re.match(r"^  (-[a-z], )?--[a-z]", line)]
                for label in labels:
                    self.assertTrue(any(line.startswith("  " + label + " ") for line in chinese), label)


if __name__ == "__main__":
    unittest.main()
