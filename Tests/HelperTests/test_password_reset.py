"""A password success ends the pattern's wait, as pam_faillock's `authsucc`: the stack the shipped
pam-auth-update profiles produce (pam-configs/pattern before the password, pam-configs/pattern-reset's
`reset_on_success` line after it, in common-auth's "Additional" block), run by pam-auth-update itself in a
private namespace (support.helper.Namespace, profile=True), with real su, real sudo and a locker's stack run
as the person through the setuid helper (pamtester, as test_lockers_with_profile.py drives xscreensaver's).

Each test: wrong patterns until the pattern is locked (each with a wrong password too, so the stack fails),
then the right password: the client lets the person in, and `patternctl status` says 0 failures, not locked.
A wrong password after the lock leaves the count as it was. Root only (users, namespaces, setuid).
"""

import os
import shlex
import shutil
import unittest

from support import helper
from support.guesses import wrong_patterns
from support.helper import PATTERN
from support.system import as_user

DENY = 5


def setUpModule():
    for tool in ("pamtester", "pam-auth-update", "expect", "su", "sudo"):
        if not shutil.which(tool):
            raise unittest.SkipTest("%s is not installed (make deps)" % tool)
    helper.take_run_lock()


def tearDownModule():
    helper.release_run_lock()


class PasswordResetTest(helper.HelperCase):
    USER = "ppreset1"
    PASSWORD = "Reset-test-pw-31"
    WRONG_PASSWORD = "not-the-password"

    def namespace(self):
        sandbox = helper.Namespace(self, pam_d={"ppreset-locker": ["@include common-auth"]}, profile=True)
        # A sudoers drop-in for the user, seen in the namespace only.
        sandbox.overlays["/etc/sudoers.d"] = "sudoers_d"
        for layer in ("up", "work"):
            os.makedirs(os.path.join(sandbox.root, "overlay", "sudoers_d", layer))
        dropin = os.path.join(sandbox.root, "overlay", "sudoers_d", "up", "ppreset")
        with open(dropin, "w") as f:
            f.write("Defaults:%s !lecture, passwd_tries=1\n%s ALL=(ALL) ALL\n" % (self.USER, self.USER))
        os.chmod(dropin, 0o440)
        return sandbox

    def wrongs(self):
        return wrong_patterns(DENY, avoid=(PATTERN,))

    def facts(self):
        """(failures, locked) as root's `patternctl status` says them."""
        fields = self.sandbox.status(self.USER)
        return fields["failures"].split()[0], fields["locked"]

    def assert_locked(self):
        failures, locked = self.facts()
        self.assertEqual(failures, str(DENY))
        self.assertTrue(locked.startswith("until "), locked)

    def expect(self, command, dialogue):
        """`command` run as the user on a pty by expect, answering each (prompt, answer); its output with EXIT=."""
        lines = ["set timeout 30", "log_user 1", "spawn -noecho sh -c %s" % self.tcl(command)]
        for prompt, answer in dialogue:
            lines.append('expect {\n  -exact "%s" {}\n  timeout {puts "TIMEOUT"; exit 99}\n}' % prompt)
            lines.append('send -- "%s\\r"' % answer)
        lines += ["expect eof", "lassign [wait] pid spawnid os_error value", 'puts "EXIT=$value"']
        path = self.sandbox.write_file("dialogue-%d.exp" % len(os.listdir(self.sandbox.root)), "\n".join(lines))
        done = self.sandbox.run(as_user(self.user, "expect -f %s" % shlex.quote(path)), timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.decode(errors="replace")

    @staticmethod
    def lines(answers):
        """Shell text printing each answer on a line of its own."""
        return "printf '%s\\n' " + " ".join(shlex.quote(a) for a in answers)

    @staticmethod
    def tcl(text):
        return "{" + text + "}"

    def su(self, dialogue):
        return self.expect("su %s -c 'echo SWITCHED-$(id -un)'" % self.USER, dialogue)

    def sudo(self, answers):
        """sudo -S as the user, each PAM prompt answered by the next line; its output and rc."""
        command = "%s | sudo -S -k -p '' /usr/bin/id -un; echo rc=$?" % self.lines(answers)
        done = self.sandbox.run(as_user(self.user, command), timeout=120)
        return (done.stdout + done.stderr).decode(errors="replace")

    def locker(self, answers):
        """The locker's stack (common-auth, as xsecurelock's authproto_pam runs it) through pamtester as the user."""
        command = "%s | pamtester ppreset-locker %s authenticate; echo rc=$?" % (self.lines(answers), self.USER)
        done = self.sandbox.run(
            as_user(self.user, command),
            timeout=120,
        )
        return (done.stdout + done.stderr).decode(errors="replace")

    def test_su_the_password_after_a_locked_pattern_clears_the_count(self):
        for wrong in self.wrongs():
            out = self.su([("Pattern or password: ", wrong), ("Password: ", self.WRONG_PASSWORD)])
            self.assertNotIn("SWITCHED-", out)
        self.assert_locked()
        out = self.su([("Password: ", self.WRONG_PASSWORD)])
        self.assertNotIn("SWITCHED-", out)
        self.assert_locked()
        out = self.su([("Password: ", self.PASSWORD)])
        self.assertIn("SWITCHED-" + self.USER, out)
        self.assertEqual(self.facts(), ("0", "no"))

    def test_sudo_the_password_after_a_locked_pattern_clears_the_count(self):
        for wrong in self.wrongs():
            self.assertIn("rc=1", self.sudo([wrong, self.WRONG_PASSWORD]))
        self.assert_locked()
        self.assertIn("rc=1", self.sudo([self.WRONG_PASSWORD]))
        self.assert_locked()
        out = self.sudo([self.PASSWORD])
        self.assertIn("root\nrc=0", out)
        self.assertEqual(self.facts(), ("0", "no"))

    def test_at_a_locker_the_helper_checks_the_password_before_it_clears(self):
        for wrong in self.wrongs():
            self.assertIn("rc=1", self.locker([wrong, self.WRONG_PASSWORD]))
        self.assert_locked()
        # A wrong password fails the stack: the reset line is never reached.
        self.assertIn("rc=1", self.locker([self.WRONG_PASSWORD]))
        self.assert_locked()
        out = self.locker([self.PASSWORD])
        self.assertIn("rc=0", out)
        self.assertEqual(self.facts(), ("0", "no"))

    def test_the_profiles_put_the_reset_after_pam_deny(self):
        done = self.sandbox.run("grep -v '^#' /etc/pam.d/common-auth")
        lines = [line.split() for line in done.stdout.decode().splitlines() if line.strip()]
        deny = next(i for i, line in enumerate(lines) if "pam_deny.so" in line)
        reset = next(i for i, line in enumerate(lines) if "reset_on_success" in line)
        self.assertLess(deny, reset, lines)
        self.assertEqual(lines[reset][:2], ["auth", "optional"], lines)


if __name__ == "__main__":
    unittest.main()
