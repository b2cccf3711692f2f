"""Real su: the attempt record, the "failures since" notice, and Chinese.

- A wrong pattern through real su lands in the attempt record with service
  "su" and su's terminal (shown by `patternctl status`); 18 wrong patterns
  at once through 18 su processes leave the 16 newest.
- A wrong then a right pattern: the right one tells "1 failed pattern
  attempt since your last success, the last from su on /dev/pts/N at ...",
  and the next success tells nothing (marked seen).
- LANG=zh_CN.UTF-8: su shows the module's Chinese prompt and messages, and
  patternctl its own. The
  locale is generated with localedef into a private directory and, with the
  built catalogue, mounted over /usr/lib/locale and
  /usr/share/locale/zh_CN/LC_MESSAGES inside the private mount namespace
  only: nothing on the machine changes.

Same rules as test_real_clients.py (root, the run lock, unique users, /etc
checked unchanged afterwards).
"""

import os
import re
import shlex
import shutil
import tempfile
import threading
import unittest

from support.formats import attempt_record_file
from support.guesses import wrong_patterns
from support import clients, zh_cn
from support.paths import PATTERNCTL, run
from support.zh_cn import CATALOGUE, MESSAGES

# unittest calls these around the module: the shared run flock (users, /etc).
from support.system import release_run_lock as tearDownModule  # noqa: F401
from support.system import take_run_lock as setUpModule  # noqa: F401

CAPACITY = 16


class SuAttemptTest(clients.SuCase):
    SOURCE = "pp15bsrc"
    TARGET = "pp15btgt"
    OPTIONS = "deny=100 lock_after=0"

    def attempts(self):
        """(unseen, [failure lines]): the record's count of untold failures, and `patternctl status`'s list."""
        done = self.patternctl("status", self.TARGET)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        text = done.stdout.decode()
        with open(attempt_record_file(self.state_dir, self.TARGET), "rb") as f:
            unseen = int(re.match(rb"unseen (\d+)\n", f.read()).group(1))
        return unseen, re.findall(r"^  (\d{4}-.*)$", text, re.M)

    def test_wrong_pattern_is_recorded_with_service_and_tty(self):
        session = self.su(clients.WRONG)
        self.assertIn(b"Wrong pattern.", session.output, session)
        unseen, failures = self.attempts()
        self.assertEqual(unseen, 1)
        self.assertEqual(len(failures), 1, failures)
        self.assertRegex(failures[0], r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+  wrong pattern at su on /dev/pts/\d+$")
        self.assertNotIn(clients.WRONG, failures[0])

    def test_wrong_then_right_tells_the_failure_once(self):
        self.su(clients.WRONG)
        tty = self.attempts()[1][0].split()[-1]
        right = self.su(clients.PATTERN)
        self.assertIn(b"SWITCHED-" + self.TARGET.encode(), right.output, right)
        self.assertRegex(
            right.after(clients.PROMPT).decode(errors="replace"),
            r"1 failed pattern attempt since your last success, the last from su on %s at "
            r"\d{4}-\d\d-\d\d \d\d:\d\d" % re.escape(tty),
        )
        self.assertEqual(self.attempts()[0], 0)  # marked seen
        again = self.su(clients.PATTERN)
        self.assertIn(b"SWITCHED-", again.output, again)
        self.assertNotIn(b"failed pattern attempt", again.output, again)

    def test_record_keeps_the_newest_sixteen(self):
        # 18 su processes at once; the state lock serialises their records.
        # Different wrong patterns: one typed again after another completed would not be counted.
        sessions = []
        threads = [
            threading.Thread(target=lambda wrong=wrong: sessions.append(self.su(wrong)))
            for wrong in wrong_patterns(CAPACITY + 2, avoid=(clients.PATTERN,))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertTrue(all(b"Wrong pattern." in s.output for s in sessions), sessions)
        unseen, failures = self.attempts()
        self.assertEqual(unseen, CAPACITY + 2)
        self.assertEqual(len(failures), CAPACITY, failures)
        self.assertTrue(all(" wrong pattern at su on /dev/pts/" in line for line in failures), failures)


class SuChineseTest(SuAttemptTest):
    """su under LANG=zh_CN.UTF-8 shows the module's Chinese text."""

    tools = ("su", "unshare", "mount", "localedef")
    locale_root = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if not os.path.exists(CATALOGUE):
            raise AssertionError("not built: %s (make build)" % CATALOGUE)
        zh_cn.require_source()
        cls.locale_root = tempfile.mkdtemp(prefix="pam-pattern-locale-")
        os.chmod(cls.locale_root, 0o755)
        # The machine's own locales, plus zh_CN.UTF-8 compiled here (never into the real /usr/lib/locale).
        cls.locales = os.path.join(cls.locale_root, "lib-locale")
        shutil.copytree("/usr/lib/locale", cls.locales, symlinks=True)
        zh_cn.compile_into(cls.locales)
        # The machine's Chinese catalogues (su's own, Linux-PAM's) plus the built pam_pattern.mo.
        cls.messages = os.path.join(cls.locale_root, "zh_CN-messages")
        shutil.copytree(MESSAGES, cls.messages, symlinks=True)
        shutil.copy(CATALOGUE, os.path.join(cls.messages, "pam_pattern.mo"))
        for directory, dirs, files in os.walk(cls.locale_root):
            for name in dirs + files:
                path = os.path.join(directory, name)
                if not os.path.islink(path):
                    os.chmod(path, 0o755 if os.path.isdir(path) else 0o644)

    @classmethod
    def tearDownClass(cls):
        if cls.locale_root:
            shutil.rmtree(cls.locale_root, ignore_errors=True)
        super().tearDownClass()

    def su_chinese(self, answer, prompt="图案：".encode()):
        return self.su(
            answer,
            prompt=prompt,
            environment="LANG=zh_CN.UTF-8 ",
            extra_mounts=((self.locales, "/usr/lib/locale"), (self.messages, MESSAGES)),
        )

    def test_wrong_then_right_pattern_in_chinese(self):
        wrong = self.su_chinese(clients.WRONG)
        self.assertEqual(wrong.reached, 1, wrong)  # the Chinese prompt came
        self.assertIn("图案错误。".encode(), wrong.output, wrong)
        self.assertNotIn(b"Wrong pattern", wrong.output, wrong)
        right = self.su_chinese(clients.PATTERN)
        self.assertIn(b"SWITCHED-" + self.TARGET.encode(), right.output, right)
        self.assertIn("自上次成功以来，图案验证失败 1 次，最近一次来自 /dev/pts/".encode(), right.output, right)

    def patternctl_chinese(self, *argv):
        command = " ".join(
            shlex.quote(a)
            for a in [PATTERNCTL, argv[0], "--store", self.store, "--state", self.state_dir] + list(argv[1:])
        )
        script = "mount --bind %s /usr/lib/locale && mount --bind %s %s && LANG=zh_CN.UTF-8 exec %s" % (
            shlex.quote(self.locales),
            shlex.quote(self.messages),
            MESSAGES,
            command,
        )
        return run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script])

    def test_patternctl_speaks_chinese(self):
        missing = self.patternctl_chinese("status", "pp15bnosuchuser")
        self.assertEqual(missing.returncode, 1, missing)
        self.assertIn("没有此用户：“pp15bnosuchuser”".encode(), missing.stderr, missing)
        self.su(clients.WRONG)
        reset = self.patternctl_chinese("reset", self.TARGET)
        self.assertEqual(reset.returncode, 0, reset)
        self.assertIn(("已清除 %s 的 1 次失败尝试" % self.TARGET).encode(), reset.stdout, reset)

    # The English behaviour is tested once, by the parent class.
    test_wrong_pattern_is_recorded_with_service_and_tty = None
    test_wrong_then_right_tells_the_failure_once = None
    test_record_keeps_the_newest_sixteen = None


if __name__ == "__main__":
    unittest.main()
