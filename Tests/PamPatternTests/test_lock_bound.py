"""The bounded lock wait, seen from outside: while another process holds a user's state lock (as a
SIGSTOPped su would, if the lock were held across a hash), the module gives up after the bound with
PAM_AUTHINFO_UNAVAIL (the stack goes on to the password) and patternctl says that another process holds
the lock and exits 1. Neither waits for ever, and nothing is counted.
"""

import fcntl
import os
import subprocess
import time
import unittest

from support.formats import failures, state_file
from support.pam import Conversation, PAM_AUTHINFO_UNAVAIL, PAM_SUCCESS, authenticate, code_name, summary
from support.paths import PATTERNCTL
from support.sandbox import FixtureCase
from support.system import in_child

USER = "alice"
PATTERN = "1235789"
BOUND = 5.0  # SafeFile.lockWaitMilliseconds


class LockBoundTest(FixtureCase):
    def setUp(self):
        super().setUp()
        path = state_file(self.fixture.state_dir, USER)
        with open(path, "wb") as f:
            f.write(b"%010d %019d\n" % (1, int(time.time()) - 10))
        os.chmod(path, 0o600)
        self.holder = os.open(path, os.O_RDWR | os.O_CLOEXEC)
        self.addCleanup(os.close, self.holder)
        fcntl.flock(self.holder, fcntl.LOCK_EX)

    def timed(self, function):
        start = time.monotonic()
        result = function()
        return result, time.monotonic() - start

    def test_module_fails_closed_after_the_bound(self):
        service = self.fixture.service()
        result, seconds = self.timed(
            lambda: in_child(
                lambda: summary(authenticate(self.fixture.confdir, service, USER, Conversation([PATTERN.encode()])))
            )
        )
        self.assertEqual(code_name(result["code"]), code_name(PAM_AUTHINFO_UNAVAIL), result)
        self.assertEqual(result["prompts"], [], "prompted while the state could not be read")
        self.assertGreaterEqual(seconds, BOUND - 0.2)
        self.assertLess(seconds, BOUND + 3)
        self.assertEqual(failures(self.fixture.state_dir, USER), 1)
        # The holder lets go: the same pattern works at once.
        fcntl.flock(self.holder, fcntl.LOCK_UN)
        result = in_child(
            lambda: summary(authenticate(self.fixture.confdir, service, USER, Conversation([PATTERN.encode()])))
        )
        self.assertEqual(code_name(result["code"]), code_name(PAM_SUCCESS), result)

    def test_patternctl_says_another_process_holds_the_lock(self):
        for command in ("reset", "status"):
            with self.subTest(command=command):
                done, seconds = self.timed(
                    lambda: subprocess.run(
                        [PATTERNCTL, command, "--store", self.fixture.store, "--state", self.fixture.state_dir, USER],
                        capture_output=True,
                        timeout=30,
                    )
                )
                self.assertEqual(done.returncode, 1, done)
                self.assertIn(b"another process holds the lock", done.stderr)
                self.assertLess(seconds, BOUND + 3)
        self.assertEqual(failures(self.fixture.state_dir, USER), 1)


if __name__ == "__main__":
    unittest.main()
