"""Local attacks on another user's pattern, made the way an unprivileged user would make them.

Every attack runs real `su VICTIM` started BY AN UNPRIVILEGED USER (setpriv drops root to the attacker's
uid/gid/groups before su runs; su is setuid root, so the module runs as root but with what the attacker
gave it: signals, resource limits). Each run is in a private mount namespace in which a test PAM file
is bind-mounted over /etc/pam.d/su (the real file is never written), on a pty.

- A stopped su: the attacker types a guess and SIGSTOPs su (su's real uid is theirs, so the kernel
  allows it) while it hashes. The victim's next login must not wait longer than the lock bound, and
  root's `patternctl status` must answer.
- A revoked pattern: the attacker types the victim's (leaked) pattern; while that attempt hashes (su
  stopped right after the failure was recorded) or waits for the state lock (held by the test), root
  runs `patternctl remove` or `set`. The attempt must be refused.
- A file-size limit: `prlimit --fsize=5 su VICTIM` and `--fsize=25` (hard limits too: nobody may raise
  them in these containers). The state must stay whole and the victim's pattern must keep working;
  with only the soft limit low the guess is still counted.

Users ppatk1 (attacker) and ppatk2 (victim) are made per test and removed with userdel -r even when a
test fails; the whole suite holds the real-client flock (/run/lock/pam_pattern-real-clients.lock), like
Tests/ClientTests. Root only.
"""

import fcntl
import os
import pwd
import shlex
import subprocess
import threading
import time
import unittest

from support import clients, formats
from support.paths import PATTERNCTL, run
from support.system import Terminal

# unittest calls these around the module: the shared run flock (users, /etc).
from support.system import release_run_lock as tearDownModule  # noqa: F401
from support.system import take_run_lock as setUpModule  # noqa: F401

PATTERN = clients.PATTERN
WRONG = clients.WRONG
OTHER_PATTERN = "3816729"
PROMPT = clients.PROMPT
# The longest any lock wait may take (the module's and patternctl's bound), plus room for su's own work.
LOCK_BOUND = 5.0
SLACK = 4.0
# A cost whose hash takes long enough (~0.5 s here, 256 MiB) to stop su inside it deterministically.
SLOW_COST = "9"


class AttackCase(clients.ClientCase):
    ATTACKER = "ppatk1"
    VICTIM = "ppatk2"
    USERS = (ATTACKER, VICTIM)
    tools = ("su", "unshare", "mount", "setpriv", "prlimit")
    NAMESPACE = True

    def setUp(self):
        super().setUp()
        self.pam_file = os.path.join(self.root, "su.pam")
        # No pam_rootok: every su here is run by an unprivileged user anyway.
        self.write_pam(self.pam_file, [self.auth_line()])

    def enrol_slow(self, pattern=PATTERN):
        done = self.patternctl(
            "set", "--cost", SLOW_COST, self.VICTIM, stdin=("%s\n%s\n" % (pattern, pattern)).encode()
        )
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def as_user(self, user, command):
        """argv running `command` (a list) as `user`, dropped from root the way setpriv does it."""
        entry = pwd.getpwnam(user)
        return ["setpriv", "--reuid=%d" % entry.pw_uid, "--regid=%d" % entry.pw_gid, "--init-groups"] + command

    def su_by(self, user, limits=()):
        """A Terminal: `user` runs `[prlimit LIMITS] su VICTIM -c ...` in the namespace."""
        inner = list(limits) and (["prlimit"] + list(limits) + ["--"])
        command = self.as_user(user, inner + ["su", self.VICTIM, "-c", "echo SWITCHED-$(id -un)"])
        argv = self.namespace_argv("/etc/pam.d/su", self.pam_file, " ".join(shlex.quote(a) for a in command))
        terminal = Terminal(argv)
        self.addCleanup(terminal.kill)
        return terminal

    def ctl(self, *argv, stdin=b""):
        """patternctl with a timeout just over the lock bound: a hang is a failure, not a 60 s wait."""
        return run(
            [PATTERNCTL] + list(argv[:1]) + ["--store", self.store, "--state", self.state_dir] + list(argv[1:]),
            input=stdin,
            timeout=LOCK_BOUND + SLACK + 5,
        )

    def state_path(self):
        return formats.state_file(self.state_dir, self.VICTIM)

    def state_bytes(self):
        return formats.read_state(self.state_dir, self.VICTIM)

    def wait_for_failures(self, count, timeout=20):
        """Polls the state file (no lock) until it records `count` failures, then up to 50 ms more for the
        recording attempt to let go of the lock: the guess is then hashing (~0.5 s at SLOW_COST). A code that
        keeps the lock across the hash is still inside it when the 50 ms are over."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            data = self.state_bytes()
            if data and len(data) >= 10 and data[:10].isdigit() and int(data[:10]) == count:
                self.wait_for_unlocked(0.05)
                return True
            time.sleep(0.002)
        return False

    def wait_for_unlocked(self, seconds):
        deadline = time.monotonic() + seconds
        fd = os.open(self.state_path(), os.O_RDONLY | os.O_CLOEXEC)
        try:
            while time.monotonic() < deadline:
                try:
                    fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    return
                except BlockingIOError:
                    time.sleep(0.001)
        finally:
            os.close(fd)

    def signal_as(self, user, sig, pid):
        """The attacker sends the signal themselves (the kernel allows it: su's real uid is theirs)."""
        done = run(self.as_user(user, ["kill", "-%s" % sig, str(pid)]))
        self.assertEqual(done.returncode, 0, done.stderr)

    def victim_logs_in(self, pattern=PATTERN):
        """The victim's own su with the right pattern: (seconds to the prompt, switched?)."""
        victim = self.su_by(self.VICTIM)
        prompted = victim.expect(PROMPT, LOCK_BOUND + SLACK + 20)
        waited = time.monotonic() - victim.started
        if not prompted:
            victim.kill()
            return waited, False, victim.output
        victim.send(pattern.encode() + b"\n")
        switched = victim.expect(b"SWITCHED-" + self.VICTIM.encode(), 20)
        victim.finish()
        return waited, switched, victim.output

    def assert_state_whole(self):
        data = self.state_bytes()
        if data is None or data == b"":
            return
        self.assertEqual(len(data), 31, "torn state file: %r" % data)
        self.assertRegex(data.decode("ascii", "replace"), r"^[0-9]{10} [0-9]{19}\n$")
        self.assertLessEqual(int(data[11:30]), int(time.time()) + 5, "last failure in the future: %r" % data)


class StoppedSuTest(AttackCase):
    def test_stopped_su_does_not_freeze_the_victim(self):
        self.enrol_slow()
        attacker = self.su_by(self.ATTACKER)
        self.assertTrue(attacker.expect(PROMPT, 20), attacker.output)
        attacker.send(WRONG.encode() + b"\n")
        self.assertTrue(self.wait_for_failures(1), "the guess was never recorded: %r" % attacker.output)
        self.signal_as(self.ATTACKER, "STOP", attacker.pid)
        # root can still look at the victim
        started = time.monotonic()
        try:
            status = self.ctl("status", self.VICTIM)
        except subprocess.TimeoutExpired:
            self.fail("patternctl status hung behind the stopped su")
        self.assertLess(time.monotonic() - started, LOCK_BOUND + SLACK)
        self.assertEqual(status.returncode, 0, status.stdout + status.stderr)
        waited, switched, output = self.victim_logs_in()
        self.assertLess(waited, LOCK_BOUND + SLACK, "the victim's login waited %.1f s: %r" % (waited, output))
        self.assertTrue(switched, output)
        self.assert_state_whole()


class RevokedPatternTest(AttackCase):
    def revoke_while_stopped(self, revoke):
        self.enrol_slow()
        attacker = self.su_by(self.ATTACKER)
        self.assertTrue(attacker.expect(PROMPT, 20), attacker.output)
        attacker.send(PATTERN.encode() + b"\n")  # the victim's own (leaked) pattern
        self.assertTrue(self.wait_for_failures(1), "the guess was never recorded: %r" % attacker.output)
        self.signal_as(self.ATTACKER, "STOP", attacker.pid)
        done = revoke()
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.signal_as(self.ATTACKER, "CONT", attacker.pid)
        attacker.finish()
        self.assertNotIn(b"SWITCHED-", attacker.output, "a revoked pattern was accepted: %r" % attacker.output)
        self.assertNotEqual(os.waitstatus_to_exitcode(attacker.status), 0, attacker.output)

    def test_pattern_removed_while_the_attempt_hashes_is_refused(self):
        self.revoke_while_stopped(lambda: self.ctl("remove", self.VICTIM))

    def test_pattern_changed_while_the_attempt_hashes_is_refused(self):
        self.revoke_while_stopped(
            lambda: self.ctl(
                "set", "--cost", "1", self.VICTIM, stdin=("%s\n%s\n" % (OTHER_PATTERN, OTHER_PATTERN)).encode()
            )
        )

    def test_pattern_removed_while_the_attempt_waits_for_the_lock_is_refused(self):
        self.enrol_slow()
        # A state file to hold: one recorded failure.
        with open(self.state_path(), "wb") as f:
            f.write(b"%010d %019d\n" % (1, int(time.time())))
        os.chmod(self.state_path(), 0o600)
        attacker = self.su_by(self.ATTACKER)
        self.assertTrue(attacker.expect(PROMPT, 20), attacker.output)
        holder = os.open(self.state_path(), os.O_RDWR | os.O_CLOEXEC)
        # Let go 2 s after the remove began: the remove takes the pattern out of the store at once, then clears
        # the failure count under this same lock (patternctl remove), so it must not wait for the whole test.
        closed = []

        def let_go():
            if not closed:
                closed.append(True)
                os.close(holder)

        release = threading.Timer(2.0, let_go)
        try:
            fcntl.flock(holder, fcntl.LOCK_EX)
            attacker.send(PATTERN.encode() + b"\n")
            time.sleep(1.0)  # the attempt now waits for the lock
            release.start()
            done = self.ctl("remove", self.VICTIM)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        finally:
            release.cancel()
            release.join()
            let_go()
        attacker.finish()
        self.assertNotIn(b"SWITCHED-", attacker.output, "a removed pattern was accepted: %r" % attacker.output)


class FileSizeLimitTest(AttackCase):
    def attack(self, limit, with_state):
        self.enrol(self.VICTIM)
        if with_state:
            with open(self.state_path(), "wb") as f:
                f.write(b"%010d %019d\n" % (1, int(time.time()) - 3600))
            os.chmod(self.state_path(), 0o600)
        before = self.state_bytes()
        attacker = self.su_by(self.ATTACKER, ["--fsize=%s" % limit])
        self.assertTrue(attacker.expect(PROMPT, 20), attacker.output)
        attacker.send(WRONG.encode() + b"\n")
        attacker.finish()
        self.assertNotIn(b"SWITCHED-", attacker.output)
        # su ends on its own ("Authentication failure"), not by SIGXFSZ in the middle of the state write.
        self.assertTrue(
            os.WIFEXITED(attacker.status),
            "su killed by signal %d: %r" % (os.WTERMSIG(attacker.status), attacker.output),
        )
        self.assert_state_whole()
        after = self.state_bytes()
        waited, switched, output = self.victim_logs_in()
        self.assertTrue(
            switched,
            "the victim's pattern stopped working after prlimit --fsize=%s: %r (state %r)"
            % (limit, output, self.state_bytes()),
        )
        return before, after

    def test_fsize_5_on_a_new_state_file(self):
        self.attack("5", with_state=False)

    def test_fsize_25_on_a_new_state_file(self):
        self.attack("25", with_state=False)

    def test_fsize_5_on_an_existing_state_file(self):
        # RLIMIT_FSIZE limits every write past its offset, in place too: the 31-byte rewrite cannot be made,
        # so the guess is refused before it is counted or hashed, and the file is left as it was.
        before, after = self.attack("5", with_state=True)
        self.assertEqual(after, before)

    def test_only_the_soft_limit_low_the_guess_is_still_counted(self):
        # The module raises the soft limit up to the hard one for its own write: counted, not refused.
        _, after = self.attack("5:unlimited", with_state=False)
        self.assertIsNotNone(after)
        self.assertEqual(int(after[:10]), 1, after)


if __name__ == "__main__":
    unittest.main()
