"""A guess against a TPM record through GuessGate, as the setuid helper makes it (build/tpm-driver guess):
the throttle first, then the TPM; the throttle's count follows the TPM's; "unavailable" counts nothing."""

import os
import shutil
import tempfile
import unittest

from support import formats
from support.tpm import SoftwareTPM, driver, require_swtpm

Z = "1235789"
OTHER = "1236"
ACCEPTED, WRONG, REFUSED, UNAVAILABLE = 0, 1, 2, 3


class TPMGuessTest(unittest.TestCase):
    def setUp(self):
        require_swtpm()
        if os.geteuid() != 0:
            raise unittest.SkipTest("the store and state checks need root-owned files")
        self.tpm = SoftwareTPM()
        self.addCleanup(self.tpm.close)
        self.work = tempfile.mkdtemp(prefix="pam_pattern-tpmguess.")
        self.addCleanup(shutil.rmtree, self.work, True)
        self.store = os.path.join(self.work, "store", "patterns")
        self.state = os.path.join(self.work, "state")
        os.mkdir(os.path.dirname(self.store), 0o700)
        os.mkdir(self.state, 0o700)

    def enroll(self, user="alice", digits=Z, limit=5):
        status, record = driver("enroll", self.tpm.tcti, user, digits, str(limit))
        self.assertEqual(status, 0, record)
        fd = os.open(self.store, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.write(fd, ("%s:%s:1764460000\n" % (user, record)).encode())
        os.close(fd)
        return record

    def guess(self, digits, deny=100, lock_after=5, user="alice"):
        return driver("guess", self.tpm.tcti, self.store, self.state, user, digits, str(deny), str(lock_after))

    def state_failures(self, user="alice"):
        """alice's recorded failures (None without a state file); the directory also holds other files."""
        path = formats.state_file(self.state, user)
        if not os.path.exists(path):
            return None
        with open(path) as f:
            return int(f.read()[:10])

    def delete_state(self):
        for name in os.listdir(self.state):
            os.unlink(os.path.join(self.state, name))

    def tpm_count(self, record):
        status, out = driver("counter", self.tpm.tcti, record)
        self.assertEqual(status, 0, out)
        return tuple(int(x) for x in out.split())

    def test_right_wrong_and_the_store_holds_no_hash(self):
        record = self.enroll()
        with open(self.store) as f:
            self.assertNotIn("$y$", f.read())
        self.assertEqual(self.guess(OTHER), (WRONG, "wrong allowed 4"))  # lock_after 5 - 1
        self.assertEqual(self.state_failures(), 1)
        self.assertEqual(self.tpm_count(record), (1, 5))
        self.assertEqual(self.guess(Z), (ACCEPTED, "accepted"))
        self.assertEqual(self.state_failures(), 0)
        self.assertEqual(self.tpm_count(record), (0, 5))

    def test_limit_holds_with_the_state_file_deleted_between_guesses(self):
        record = self.enroll(limit=3)
        for _ in range(3):
            status, out = self.guess(OTHER, lock_after=3)
            self.assertIn(status, (WRONG,), out)
            self.delete_state()
        self.assertEqual(self.tpm_count(record), (3, 3))
        self.assertEqual(self.guess(Z, lock_after=3), (REFUSED, "refused disabled"))
        self.assertEqual(self.state_failures(), 3)  # the throttle now shows it too
        self.delete_state()
        self.assertEqual(self.guess(Z, lock_after=3), (REFUSED, "refused disabled"))

    def test_throttle_count_becomes_the_tpms_when_larger(self):
        record = self.enroll(limit=10)
        for _ in range(3):  # wrong tries the state file never saw (it was deleted, say)
            self.assertEqual(driver("check", self.tpm.tcti, "alice", OTHER, record)[0], 1)
        status, out = self.guess(OTHER, deny=3, lock_after=10)
        self.assertEqual(status, WRONG, out)
        self.assertTrue(out.startswith("wrong wait "), out)  # 4 failures, not 1: past deny=3
        self.assertEqual(self.state_failures(), 4)

    def test_throttle_runs_first_and_the_tpm_is_not_touched_during_a_wait(self):
        record = self.enroll()
        status, out = self.guess(OTHER, deny=1)
        self.assertTrue(out.startswith("wrong wait "), out)
        self.assertEqual(self.tpm_count(record), (1, 5))
        self.tpm.kill()  # a wait must not need the TPM at all
        status, out = self.guess(Z, deny=1)
        self.assertEqual(status, REFUSED, out)
        self.assertTrue(out.startswith("refused wait "), out)
        self.tpm.start()
        self.assertEqual(self.tpm_count(record), (1, 5))

    def test_unavailable_counts_nothing_killed_tpm(self):
        self.enroll()
        self.tpm.kill()
        status, out = self.guess(Z, deny=1)
        self.assertEqual(status, UNAVAILABLE, out)
        self.assertIn("TPM", out)
        self.assertIn(self.state_failures(), (None, 0))
        self.tpm.start()
        # Had it counted, deny=1 would now make this wait.
        self.assertEqual(self.guess(Z, deny=1), (ACCEPTED, "accepted"))

    def test_unavailable_counts_nothing_cleared_tpm(self):
        self.enroll()
        self.tpm.tool("tpm2_clear", "-c", "p")
        for _ in range(3):
            status, out = self.guess(Z, deny=1)
            self.assertEqual(status, UNAVAILABLE, out)
        self.assertIn(self.state_failures(), (None, 0))

    def test_store_line_copied_to_another_machine_is_unavailable(self):
        self.enroll()
        other = SoftwareTPM()
        self.addCleanup(other.close)
        driver("enroll", other.tcti, "alice", Z, "5")  # even an index at the same handle there
        status, out = driver("guess", other.tcti, self.store, self.state, "alice", Z, "100", "5")
        self.assertEqual(status, UNAVAILABLE, out)
        self.assertIn(self.state_failures(), (None, 0))


if __name__ == "__main__":
    unittest.main()
