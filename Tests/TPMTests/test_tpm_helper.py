"""A TPM record in the real store, seen by the real setuid helper and by the module run as root (sudo, su,
login). With a TPM (swtpm, named by tpm_tcti in the real /etc/security/pam_pattern.conf): right, wrong, and the
TPM's limit even with the state file deleted between guesses. Without one (no /dev/tpmrm0): "unavailable",
nothing counted, the stack goes on to the password. Root only, inside support.helper's namespace."""

import os
import shlex
import unittest

from support import helper
from support.paths import BUILD, MODULE
from support.system import TestUser, as_user
from support.tpm import driver, tpm_for_helper

RECORD = "$tpm2$01a50000$000b" + "5a" * 32 + "$" + "0f" * 16
PASSWORD = "tpm-test-Password-1"


def setUpModule():
    helper.take_run_lock()


def tearDownModule():
    helper.release_run_lock()


class TPMRecordWithoutTPMTest(unittest.TestCase):
    USER = "pptpm1"

    def setUp(self):
        if os.path.exists("/dev/tpmrm0"):
            raise unittest.SkipTest(
                "this machine has a TPM: the record here is not one of its indexes either, "
                "but the test is about a machine without one"
            )
        self.user = TestUser(self.USER, password=PASSWORD)
        self.addCleanup(self.user.remove)

    def sandbox(self, **kwargs):
        sandbox = helper.Namespace(self, **kwargs)
        fd = os.open(sandbox.store, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, ("%s:%s:1764460000\n" % (self.USER, RECORD)).encode())
        os.close(fd)
        return sandbox

    def test_helper_answers_unavailable_and_counts_nothing(self):
        sandbox = self.sandbox()
        for _ in range(3):
            done = sandbox.run(
                as_user(self.user, helper.helper_call("verify", self.USER, "printf '%s\\0'" % helper.PATTERN))
            )
            verdict, status = helper.parse_call(done.stdout)
            self.assertEqual((verdict, status), ("unavailable", helper.UNAVAILABLE), done.stderr)
        self.assertEqual(sandbox.failures(self.USER), 0)

    def test_module_as_root_goes_on_to_the_password(self):
        sandbox = self.sandbox()
        confdir = os.path.join(sandbox.root, "pam.d")
        os.mkdir(confdir, 0o755)
        with open(os.path.join(confdir, "tpm-test"), "w") as f:
            f.write("auth sufficient %s\nauth required pam_unix.so\n" % MODULE)
        try_ = os.path.join(BUILD, "pam-try")
        for password, expected in ((PASSWORD, 0), ("not-the-password", 1)):
            command = "printf '%%s\\n%%s\\n' %s %s | %s %s tpm-test %s 1" % (
                helper.PATTERN,
                shlex.quote(password),
                try_,
                shlex.quote(confdir),
                self.USER,
            )
            done = sandbox.run(command)
            output = (done.stdout + done.stderr).decode(errors="replace")
            self.assertEqual(done.returncode, expected, output)
            self.assertIn("Pattern", output)  # the module did prompt, then gave way
            self.assertIn("Password", output)
        self.assertEqual(sandbox.failures(self.USER), 0)


class TPMThroughHelperTest(helper.HelperCase):
    USER = "pptpm2"
    ENROL = False  # the TPM holds this user's pattern: enrolled below
    CONF = "/etc/security/pam_pattern.conf"

    def setUp(self):
        self.tpm = tpm_for_helper(self)
        super().setUp()
        status, self.record = driver("enroll", self.tpm.tcti, self.USER, helper.PATTERN, "3")
        self.assertEqual(status, 0, self.record)
        fd = os.open(self.sandbox.store, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, ("%s:%s:1764460000\n" % (self.USER, self.record)).encode())
        os.close(fd)

    def script(self, steps):
        """Writes the conf in the namespace, then runs each step (a shell line), output parts split by '--'."""
        conf = "deny = 100\nlock_after = 3\ntpm_tcti = %s\n" % self.tpm.tcti
        text = "set +e; rm -f %s; printf %s > %s; chmod 0644 %s\n" % (
            self.CONF,
            shlex.quote(conf),
            self.CONF,
            self.CONF,
        )
        for step in steps:
            text += step + "; echo '--'\n"
        done = self.sandbox.run(text)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.decode().split("--\n")[:-1]

    def verify(self, pattern):
        return as_user(self.user, helper.helper_call("verify", self.USER, "printf '%%s\\0' %s" % pattern))

    def test_right_wrong_and_the_limit_with_the_state_file_deleted(self):
        forget = "rm -f /var/lib/pam_pattern/[0-9a-f]*"
        parts = self.script(
            [
                self.verify(helper.PATTERN),
                self.verify(helper.WRONG_PATTERN),
                forget,
                self.verify(helper.WRONG_PATTERN),
                forget,
                self.verify(helper.WRONG_PATTERN),
                forget,
                self.verify(helper.PATTERN),
            ]
        )
        results = [helper.parse_call(part.encode()) for part in parts if "rc=" in part]
        self.assertEqual(
            results,
            [
                ("accepted", helper.SUCCESS),
                ("wrong allowed 2", helper.WRONG),
                ("wrong allowed 1", helper.WRONG),  # the state file said 0: the TPM's 2 counts
                ("wrong disabled", helper.WRONG),
                ("locked disabled", helper.LOCKED),  # the right pattern, after the limit, with no state file
            ],
        )
        self.assertEqual(driver("counter", self.tpm.tcti, self.record), (0, "3 3"))

    def root_call(self, operation, pattern=None):
        stdin = "printf '%%s\\0' %s" % pattern if pattern else "printf ''"
        return helper.helper_call(operation, self.USER, stdin)

    def test_enrol_change_and_remove_through_the_helper(self):
        first_handle = self.record[6:14]
        parts = self.script(
            [
                self.root_call("tpm-enroll", helper.WRONG_PATTERN),  # a change: new index, then the old one deleted
                "tpm2_getcap -T %s handles-nv-index" % self.tpm.tools_tcti,
                # user:uid:$tpm2$... (the uid is there once the line belongs to an account)
                "grep -cE '^%s:([0-9]+:)?\\$tpm2\\$' /etc/security/pam_pattern/patterns" % self.USER,
                self.verify(helper.WRONG_PATTERN),
                self.verify(helper.PATTERN),
                as_user(self.user, helper.helper_call("tpm-enroll", self.USER, "printf '%s\\0' 1236")),
                as_user(self.user, helper.helper_call("tpm-remove", self.USER)),
                self.root_call("tpm-remove"),
                "tpm2_getcap -T %s handles-nv-index" % self.tpm.tools_tcti,
                "cat /etc/security/pam_pattern/patterns",
                self.root_call("tpm-remove"),
            ]
        )
        self.assertEqual(helper.parse_call(parts[0].encode()), ("accepted", helper.SUCCESS))
        handles = parts[1].split()
        # One pattern index, and the session key the first enrolment made (FILEFORMAT.md).
        self.assertEqual(len([h for h in handles if h.startswith("0x1A5") and h != "0x1A5FFFF"]), 1, parts[1])
        self.assertIn("0x1A5FFFF", handles)
        self.assertNotIn("0x" + first_handle.upper().lstrip("0"), parts[1])
        self.assertEqual(parts[2].strip(), "1")
        self.assertEqual(helper.parse_call(parts[3].encode()), ("accepted", helper.SUCCESS))
        self.assertEqual(helper.parse_call(parts[4].encode())[1], helper.WRONG)
        self.assertEqual(helper.parse_call(parts[5].encode()), ("refused user", helper.REFUSED))
        self.assertEqual(helper.parse_call(parts[6].encode()), ("refused user", helper.REFUSED))
        self.assertEqual(helper.parse_call(parts[7].encode()), ("accepted", helper.SUCCESS))
        self.assertEqual([h for h in parts[8].split() if h.startswith("0x1A5")], ["0x1A5FFFF"], parts[8])
        self.assertEqual(parts[9], "")
        self.assertEqual(helper.parse_call(parts[10].encode()), ("not-enrolled", helper.NOT_ENROLLED))

    def test_the_helper_loads_tpm2_tss_only_for_a_tpm_record(self):
        """tpm2-tss (and the libcrypto it pulls in) is dlopened by the first TPM conversation: the helper checking
        a yescrypt hash never opens it; checking the TPM record it does."""
        hashed = TestUser("pptpm3")
        self.addCleanup(hashed.remove)
        self.sandbox.enrol(hashed.name, helper.PATTERN)
        traces = {}
        steps = []
        for user in (hashed.name, self.USER):
            traces[user] = os.path.join(self.sandbox.root, "%s.trace" % user)
            steps.append(
                "printf '%%s\\0' %s | strace -f -qq -e trace=openat -o %s %s verify %s; echo \"rc=$?\""
                % (helper.PATTERN, traces[user], helper.HELPER_PATH, user)
            )
        parts = self.script(steps)
        for part in parts:
            self.assertEqual(helper.parse_call(part.encode()), ("accepted", helper.SUCCESS), part)
        opened = {}
        for user, path in traces.items():
            with open(path) as f:
                opened[user] = [line for line in f if "libtss2" in line or "libcrypto" in line]
        self.assertEqual(opened[hashed.name], [], "a hash check mapped tpm2-tss or libcrypto")
        self.assertTrue(any("libtss2-esys.so.0" in line for line in opened[self.USER]), opened[self.USER])

    def test_root_module_checks_the_pattern_through_the_helper_and_the_tpm(self):
        confdir = os.path.join(self.sandbox.root, "pam.d")
        os.mkdir(confdir, 0o755)
        with open(os.path.join(confdir, "tpm-test"), "w") as f:
            f.write("auth sufficient %s\nauth required pam_deny.so\n" % MODULE)
        try_ = os.path.join(BUILD, "pam-try")
        steps = [
            "printf '%%s\\n' %s | %s %s tpm-test %s 1 && echo rc=0 || echo rc=$?" % (pattern, try_, confdir, self.USER)
            for pattern in (helper.PATTERN, helper.WRONG_PATTERN)
        ]
        parts = self.script(steps)
        self.assertIn("rc=0", parts[0])
        self.assertIn("rc=1", parts[1])
        self.assertEqual(driver("counter", self.tpm.tcti, self.record), (0, "1 3"))


if __name__ == "__main__":
    unittest.main()
