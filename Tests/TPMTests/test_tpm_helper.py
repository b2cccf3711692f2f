"""A TPM record in the real store, seen by the real setuid helper and by the module run as root (sudo, su,
login): on a machine whose TPM cannot be used (none here: no /dev/tpmrm0) the answer is "unavailable",
nothing is counted, and the stack goes on to the password. Root only, inside helperkit's namespace."""
import os
import shlex
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "HelperTests"))
import helperkit as hk  # noqa: E402

RECORD = ("$tpm2$01a50000$000b" + "5a" * 32 + "$" + "0f" * 16)
PASSWORD = "tpm-test-Password-1"


def setUpModule():
    hk.take_run_lock()


def tearDownModule():
    hk.release_run_lock()


class TPMRecordWithoutTPMTest(unittest.TestCase):
    USER = "pptpm1"

    def setUp(self):
        if os.path.exists("/dev/tpmrm0"):
            raise unittest.SkipTest("this machine has a TPM: the record here is not one of its indexes either, "
                                    "but the test is about a machine without one")
        self.user = hk.TestUser(self.USER, password=PASSWORD)
        self.addCleanup(self.user.remove)

    def sandbox(self, **kwargs):
        sandbox = hk.Sandbox(self, **kwargs)
        fd = os.open(sandbox.store, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, ("%s:%s:1764460000\n" % (self.USER, RECORD)).encode())
        os.close(fd)
        return sandbox

    def test_helper_answers_unavailable_and_counts_nothing(self):
        sandbox = self.sandbox()
        for _ in range(3):
            done = sandbox.run(hk.as_user(self.user, hk.helper_call("verify", self.USER,
                                                                    "printf '%s\\0'" % hk.PATTERN)))
            verdict, status = hk.parse_call(done.stdout)
            self.assertEqual((verdict, status), ("unavailable", hk.UNAVAILABLE), done.stderr)
        self.assertEqual(sandbox.failures(self.USER), 0)

    def test_module_as_root_goes_on_to_the_password(self):
        sandbox = self.sandbox()
        confdir = os.path.join(sandbox.root, "pam.d")
        os.mkdir(confdir, 0o755)
        with open(os.path.join(confdir, "tpm-test"), "w") as f:
            f.write("auth sufficient %s\nauth required pam_unix.so\n" % hk.MODULE)
        try_ = os.path.join(hk.BUILD, "pam-try")
        for password, expected in ((PASSWORD, 0), ("not-the-password", 1)):
            command = "printf '%%s\\n%%s\\n' %s %s | %s %s tpm-test %s 1" % (
                hk.PATTERN, shlex.quote(password), try_, shlex.quote(confdir), self.USER)
            done = sandbox.run(command)
            output = (done.stdout + done.stderr).decode(errors="replace")
            self.assertEqual(done.returncode, expected, output)
            self.assertIn("Pattern", output)  # the module did prompt, then gave way
            self.assertIn("Password", output)
        self.assertEqual(sandbox.failures(self.USER), 0)


if __name__ == "__main__":
    unittest.main()
