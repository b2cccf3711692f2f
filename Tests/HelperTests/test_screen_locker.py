"""A real screen locker: i3lock under Xvfb, run by an unprivileged user, with the shipped pam.d/i3lock
(the pattern, then Debian's "auth include login"), unlocked by typing with xdotool. The module runs as the
user, so every check goes through pam_pattern_helper (setuid root at its real path, support.helper's namespace).
Also pamtester run by the user against the same service.

Root only; needs xvfb, i3lock, xdotool, pamtester (make deps).
"""

import os
import shutil
import unittest

from support import helper, i3lock
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import MODULE, ROOT
from support.system import as_user

PASSWORD = "Lock-test-pw-42"


def setUpModule():
    for tool in ("Xvfb", "i3lock", "xdotool", "pamtester"):
        if not shutil.which(tool):
            raise unittest.SkipTest("%s is not installed (make deps)" % tool)
    helper.take_run_lock()


def tearDownModule():
    helper.release_run_lock()


class ScreenLockerTest(helper.HelperCase):
    USER = "pphlock1"
    PASSWORD = PASSWORD

    def namespace(self):
        with open(os.path.join(ROOT, "pam.d", "i3lock")) as f:
            # The shipped file, with the module named by the built path.
            lines = f.read().replace("pam_pattern.so", MODULE).splitlines()
        return helper.Namespace(self, service="i3lock", pam_lines=lines)

    def test_the_pattern_unlocks(self):
        self.assertEqual(i3lock.session(self.sandbox, self.user, PATTERN), ["step 1 unlocked rc=0"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_wrong_pattern_keeps_it_locked_and_counts(self):
        self.assertEqual(
            i3lock.session(self.sandbox, self.user, WRONG_PATTERN, PATTERN), ["step 1 locked", "step 2 unlocked rc=0"]
        )
        # Counted by the wrong try, reset by the right one: check the count in between with a second session.
        # Two different wrong patterns: the same one again would be answered "wrong" without a count.
        self.assertEqual(
            i3lock.session(self.sandbox, self.user, WRONG_PATTERN, "147896"), ["step 1 locked", "step 2 locked"]
        )
        self.assertEqual(self.sandbox.failures(self.USER), 2)

    def test_a_locked_pattern_falls_through_to_the_password(self):
        # Five wrong guesses through the helper lock the pattern (deny=5).
        self.assertEqual(sorted(r[0] for r in self.drive("parallel", count=5)), [helper.WRONG] * 5)
        status = self.sandbox.status(self.USER)
        self.assertTrue(status["locked"].startswith("until "), status)
        # The right pattern no longer unlocks (and is not counted); the password does.
        self.assertEqual(
            i3lock.session(self.sandbox, self.user, PATTERN, PASSWORD), ["step 1 locked", "step 2 unlocked rc=0"]
        )
        self.assertEqual(self.sandbox.failures(self.USER), 5)

    def test_pamtester_run_by_the_user(self):
        command = "printf '%%s\\n' %s | pamtester i3lock %s authenticate; echo rc=$?"
        done = self.sandbox.run(as_user(self.user, command % (PATTERN, self.USER)))
        self.assertIn(b"successfully authenticated", done.stdout + done.stderr, done)
        self.assertIn(b"rc=0", done.stdout)
        self.assertEqual(self.sandbox.failures(self.USER), 0)
        done = self.sandbox.run(as_user(self.user, command % (WRONG_PATTERN, self.USER)))
        self.assertIn(b"Wrong pattern. 4 tries left", done.stdout + done.stderr, done)
        self.assertNotIn(b"rc=0", done.stdout)
        self.assertEqual(self.sandbox.failures(self.USER), 1)


if __name__ == "__main__":
    unittest.main()
