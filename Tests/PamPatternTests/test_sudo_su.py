"""Real sudo and real su load the module.

sudo: a throwaway user, a sudoers drop-in that points the user's sudo at a
test PAM service (pam_pattern, then pam_deny), `sudo -S` fed the pattern.
su: a private mount namespace in which a test file is bind-mounted over
/etc/pam.d/su, so the real file is never changed; driven through a pty from
one non-root test user to another.

Everything made under /etc (sudoers drop-in, pam.d service, users) is removed
in cleanups that run even when a test fails.
"""

import os
import pty
import select
import shutil
import time
import unittest

from pamharness import MODULE, Fixture, SystemUser, require_module, require_root, run

PATTERN = "1235789"
WRONG = "14789"
SUDO_USER = "pptestsudo"
SU_FROM = "pptestsua"
SU_TO = "pptestsub"
SERVICE = "pattern-test"
SERVICE_FILE = "/etc/pam.d/" + SERVICE
DROPIN = "/etc/sudoers.d/pam-pattern-test"


def remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


class SudoTest(unittest.TestCase):
    def setUp(self):
        require_root(self)
        require_module()
        for tool in ("sudo", "visudo", "useradd", "userdel", "su"):
            if not shutil.which(tool):
                self.skipTest("%s is not installed (make deps)" % tool)
        if os.path.exists(SERVICE_FILE) or os.path.exists(DROPIN):
            self.fail("%s or %s exists already: refusing to overwrite" % (SERVICE_FILE, DROPIN))
        self.fixture = Fixture()
        self.addCleanup(self.fixture.close)
        self.user = SystemUser(SUDO_USER)
        self.addCleanup(self.user.remove)
        self.fixture.enrol(SUDO_USER, PATTERN)

        self.addCleanup(remove, SERVICE_FILE)
        with open(SERVICE_FILE, "w") as f:
            f.write(
                "# pam_pattern test service (removed by the test)\n"
                "auth sufficient %s %s\n"
                "auth required pam_deny.so\n"
                "account required pam_permit.so\n"
                "session required pam_permit.so\n" % (MODULE, self.fixture.options())
            )

        self.addCleanup(remove, DROPIN)
        self.install_dropin()

    def install_dropin(self, extra=""):
        """Validates the drop-in with visudo -cf before it goes live."""
        staged = os.path.join(self.fixture.root, "sudoers")
        with open(staged, "w") as f:
            f.write(
                "Defaults:%(u)s pam_service=%(s)s\n"
                "Defaults:%(u)s !lecture, passwd_tries=1\n"
                "%(extra)s"
                "%(u)s ALL=(ALL) ALL\n" % {"u": SUDO_USER, "s": SERVICE, "extra": extra}
            )
        os.chmod(staged, 0o440)
        checked = run(["visudo", "-cf", staged])
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        shutil.copyfile(staged, DROPIN + ".tmp")
        os.chmod(DROPIN + ".tmp", 0o440)
        os.rename(DROPIN + ".tmp", DROPIN)

    def sudo(self, answer):
        command = "printf '%s\\n' | sudo -S -k -p '' /usr/bin/id -un" % answer
        return run(["su", SUDO_USER, "-c", command])

    def test_right_pattern_runs_the_command_as_root(self):
        result = self.sudo(PATTERN)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), b"root")

    def test_short_form_works_too(self):
        result = self.sudo("1379")
        self.assertEqual(result.stdout.strip(), b"root", result.stderr)

    def test_wrong_pattern_does_not(self):
        result = self.sudo(WRONG)
        self.assertNotEqual(result.returncode, 0)
        self.assertNotIn(b"root", result.stdout)
        # sudo (1.9.13 here) always passes PAM_SILENT, and the module honours it
        # like pam_unix and pam_faillock: no "Wrong pattern" text. (sudo >= 1.9.16
        # has `Defaults !pam_silent` to show module messages.)
        self.assertNotIn(b"Wrong pattern", result.stderr)

    def test_sudo_survives_a_broken_store(self):
        with open(self.fixture.store, "ab") as f:
            f.write(b"garbage\n")
        result = self.sudo(PATTERN)
        self.assertNotEqual(result.returncode, 0)
        self.assertNotIn(b"root", result.stdout)
        # sudo itself reported the failure: it was not killed by a signal.
        self.assertGreater(result.returncode, 0)


class SuTest(unittest.TestCase):
    def setUp(self):
        require_root(self)
        require_module()
        for tool in ("unshare", "su", "useradd"):
            if not shutil.which(tool):
                self.skipTest("%s is not installed" % tool)
        probe = run(["unshare", "--mount", "--propagation", "private", "true"])
        if probe.returncode != 0:
            self.skipTest("no private mount namespace here: %s" % probe.stderr.decode().strip())
        self.fixture = Fixture()
        self.addCleanup(self.fixture.close)
        self.source = SystemUser(SU_FROM)
        self.addCleanup(self.source.remove)
        self.target = SystemUser(SU_TO)
        self.addCleanup(self.target.remove)
        self.fixture.enrol(SU_TO, PATTERN)
        self.pam_file = os.path.join(self.fixture.root, "su.pam")
        with open(self.pam_file, "w") as f:
            f.write(
                "auth sufficient pam_rootok.so\n"
                "auth sufficient %s %s\n"
                "auth required pam_deny.so\n"
                "account required pam_permit.so\n"
                "session required pam_permit.so\n" % (MODULE, self.fixture.options())
            )
        os.chmod(self.pam_file, 0o644)

    def su(self, answer, timeout=30):
        """root -> SU_FROM (pam_rootok) -> SU_TO (the pattern), on a pty."""
        inner = "su %s -c 'id -un'" % SU_TO
        script = "mount --bind '%s' /etc/pam.d/su && exec su %s -c \"%s\"" % (self.pam_file, SU_FROM, inner)
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.execvp("unshare", ["unshare", "--mount", "--propagation", "private", "sh", "-c", script])
            finally:
                os._exit(127)
        output = b""
        sent = False
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.5)
                if not ready:
                    continue
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # EIO: the child closed the pty
                    break
                if not chunk:
                    break
                output += chunk
                if not sent and b"Pattern: " in output:
                    os.write(fd, answer.encode() + b"\n")
                    sent = True
        finally:
            os.close(fd)
            _, status = os.waitpid(pid, 0)
        return status, output, sent

    def test_right_pattern_switches_user(self):
        status, output, prompted = self.su(PATTERN)
        self.assertTrue(prompted, output)
        self.assertFalse(os.WIFSIGNALED(status), output)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, output)
        self.assertIn(SU_TO.encode(), output.split(b"Pattern: ", 1)[1])

    def test_wrong_pattern_is_refused(self):
        status, output, prompted = self.su(WRONG)
        self.assertTrue(prompted, output)
        self.assertFalse(os.WIFSIGNALED(status), output)
        self.assertNotEqual(os.waitstatus_to_exitcode(status), 0, output)
        self.assertNotIn(SU_TO.encode() + b"\r\n", output.split(b"Pattern: ", 1)[1])
        self.assertIn(b"Wrong pattern", output)


if __name__ == "__main__":
    unittest.main()
