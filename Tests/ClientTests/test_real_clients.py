"""Real clients: sudo, su and login authenticate through pam_pattern.so.

For each client: the right pattern, a wrong one (counted), malformed answers
("12a4", "1231": refused with the module's message, NOT counted) and a
throttled user (deny=1: after one wrong pattern the RIGHT one is refused
without a prompt, and nothing more is counted). The throttle state is read
back with `patternctl status`, the way an administrator would.

How each client is reached without changing the real configuration:
- sudo: a sudoers drop-in (`pam_service=`, validated with visudo -cf) points
  the test user's sudo at a test service file in /etc/pam.d. Both files exist
  only during the test. sudo passes PAM_SILENT, so the module's messages do
  not show; the tests assert on outcomes and state.
- su and login: a private mount namespace (unshare --mount --propagation
  private) in which a test PAM file is bind-mounted over /etc/pam.d/su or
  /etc/pam.d/login, and empty files over the login records (btmp, wtmp,
  lastlog, faillog) so the machine's logs get no test entries. The real
  files are never written. Driven through a pty.

Users are made per test (useradd -m, a real /bin/sh shell) and removed with
userdel -r in cleanups that run even when a test fails. tearDownClass checks
that /etc/pam.d, /etc/sudoers.d, /etc/passwd, /etc/shadow, /etc/group (and
friends) are byte-identical to before the class ran.

Root only: skipped with one clear line otherwise (setUpModule). Run time
about 40 s, mostly the clients' own delay after a failure (~2 s each).
"""

import os
import pwd
import shlex
import shutil
import signal
import unittest

from support.clients import (
    DROPIN,
    LOCKED_TEXT,
    MALFORMED,
    NOT_A_PATTERN,
    PATTERN,
    PROMPT,
    SERVICE,
    SERVICE_FILE,
    THROTTLE,
    WRONG,
    ClientCase,
    SuCase,
)
from support.guesses import wrong_patterns
from support.paths import run
from support.system import PtySession, remove

# unittest calls these around the module: the shared run flock (users, /etc).
from support.system import release_run_lock as tearDownModule  # noqa: F401
from support.system import take_run_lock as setUpModule  # noqa: F401


class SudoTest(ClientCase):
    """sudo -S through a pam_service= drop-in; USER types the pattern on stdin."""

    USER = "ppcli1"
    tools = ("sudo", "visudo", "su")

    def setUp(self):
        super().setUp()
        for path in (SERVICE_FILE, DROPIN):
            if os.path.exists(path):
                self.fail("%s exists already: refusing to overwrite" % path)
        self.make_user(self.USER)
        self.enrol(self.USER)
        self.addCleanup(remove, SERVICE_FILE)
        self.configure("")
        self.addCleanup(remove, DROPIN)
        staged = os.path.join(self.root, "sudoers")
        with open(staged, "w") as f:
            f.write(
                "Defaults:%(u)s pam_service=%(s)s\n"
                "Defaults:%(u)s !lecture, passwd_tries=1\n"
                "%(u)s ALL=(ALL) ALL\n" % {"u": self.USER, "s": SERVICE}
            )
        os.chmod(staged, 0o440)
        checked = run(["visudo", "-cf", staged])
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        shutil.copyfile(staged, DROPIN + ".tmp")
        os.chmod(DROPIN + ".tmp", 0o440)
        os.rename(DROPIN + ".tmp", DROPIN)

    def configure(self, options):
        self.write_pam(SERVICE_FILE + ".tmp", [self.auth_line(options)])
        os.rename(SERVICE_FILE + ".tmp", SERVICE_FILE)

    def sudo(self, answer):
        """USER runs `sudo -S -k id -un` with `answer` on stdin. No -p: sudo then
        writes the module's own prompt ("Pattern: ", not "Password:") to
        stderr, so the tests can see whether the module prompted at all."""
        command = "printf '%%s\\n' %s | sudo -S -k /usr/bin/id -un" % shlex.quote(answer)
        result = run(["su", self.USER, "-c", command])
        self.assertFalse(result.returncode < 0, "sudo killed by signal %d" % -result.returncode)
        return result

    def assert_refused(self, result, prompted=True):
        self.assertEqual(result.stderr.count(PROMPT), 1 if prompted else 0, result)
        self.assertNotEqual(result.returncode, 0, result)
        self.assertNotIn(b"root", result.stdout, result)
        # sudo itself said no (not a crash, not a usage error).
        self.assertIn(b"incorrect password attempt", result.stderr, result)

    def test_right_pattern_runs_the_command_as_root(self):
        result = self.sudo(PATTERN)
        self.assertEqual(result.returncode, 0, result)
        self.assertEqual(result.stdout.strip(), b"root")
        self.assertEqual(result.stderr, PROMPT)
        self.assertEqual(self.failures(self.USER), 0)

    def test_wrong_pattern_is_refused_and_counted(self):
        result = self.sudo(WRONG)
        self.assert_refused(result)
        self.assertEqual(self.failures(self.USER), 1)
        # sudo (1.9.13 here) always passes PAM_SILENT, and the module honours it like pam_unix and
        # pam_faillock: no "Wrong pattern" text. (sudo >= 1.9.16 has `Defaults !pam_silent` to show it.)
        self.assertNotIn(b"Wrong pattern", result.stderr)

    def test_under_pam_silent_the_prompt_says_what_the_messages_cannot(self):
        # sudo 1.9.13 passes PAM_SILENT: no message gets through, only the prompt. After a failure it carries
        # the tries left; a locked pattern's missing prompt, with forward_pass, is a password prompt saying why.
        self.assert_refused(self.sudo(WRONG))
        right = self.sudo(PATTERN)
        self.assertEqual(right.stdout.strip(), b"root", right)
        self.assertEqual(right.stderr, b"Pattern (4 tries before a wait): ", right)
        self.configure("deny=1 unlock_time=600 forward_pass")
        # Another wrong pattern: the same one again within 5 minutes would cost nothing (the repeat rule).
        self.sudo(wrong_patterns(1, avoid=(PATTERN, WRONG))[0])
        locked = self.sudo("not my password")
        self.assertNotIn(b"root", locked.stdout, locked)
        self.assertRegex(locked.stderr, rb"Password \(pattern locked: try again in \d+ minutes?( \d+ seconds?)?\): ")
        self.assertNotIn(b"Pattern", locked.stderr, locked)

    def test_every_file_written_under_sudo_is_root_root(self):
        """sudo runs PAM as root with the person's own group (their gid, not 0): the throttle state, the attempt
        records and their locks the module makes there are root:root all the same (FILEFORMAT.md)."""
        self.assertNotEqual(pwd.getpwnam(self.USER).pw_gid, 0)
        self.assert_refused(self.sudo(WRONG))
        self.assertEqual(self.sudo(PATTERN).stdout.strip(), b"root")
        owners = {}
        for top in (self.state_dir, self.store_dir):
            for directory, names, files in os.walk(top):
                for name in [directory] + [os.path.join(directory, f) for f in files]:
                    st = os.lstat(name)
                    owners[name] = (st.st_uid, st.st_gid)
        self.assertGreater(len([p for p in owners if p.startswith(self.state_dir + "/")]), 1, owners)
        self.assertEqual({p: o for p, o in owners.items() if o != (0, 0)}, {})

    def test_short_form_works_too(self):
        # "1379" is the short form of the Z (1235789): the dots passed over are taken, as on a phone.
        done = self.patternctl("set", "--cost", "1", "--allow-weak", self.USER, stdin=b"1235789\n1235789\n")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        result = self.sudo("1379")
        self.assertEqual(result.stdout.strip(), b"root", result)

    def test_sudo_survives_a_broken_store(self):
        with open(self.store, "ab") as f:
            f.write(b"garbage\n")
        result = self.sudo(PATTERN)
        self.assertNotEqual(result.returncode, 0, result)
        self.assertNotIn(b"root", result.stdout, result)
        # sudo itself reported the failure: it was not killed by a signal.
        self.assertGreater(result.returncode, 0, result)

    def test_malformed_pattern_is_refused_and_not_counted(self):
        for answer, _ in MALFORMED:
            with self.subTest(answer=answer):
                self.assert_refused(self.sudo(answer))
                self.assertEqual(self.failures(self.USER), 0)

    def test_throttled_user_is_refused_even_with_the_right_pattern(self):
        self.configure(THROTTLE)
        self.assert_refused(self.sudo(WRONG))
        self.assert_locked(self.USER)
        self.assert_refused(self.sudo(PATTERN), prompted=False)
        # Not counted again: refused before any prompt or hash.
        self.assert_locked(self.USER)
        # The refusal was the throttle: after a reset the same pattern works.
        done = self.patternctl("reset", self.USER)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        again = self.sudo(PATTERN)
        self.assertEqual(again.stdout.strip(), b"root", again)


class SuTest(SuCase):
    """root -> SOURCE (pam_rootok) -> TARGET (the pattern) with real su on a pty."""

    SOURCE = "ppcli2"
    TARGET = "ppcli3"

    def assert_refused(self, session):
        self.assertNotEqual(os.waitstatus_to_exitcode(session.status), 0, session)
        self.assertNotIn(b"SWITCHED-", session.output, session)
        self.assertIn(b"Authentication failure", session.output, session)

    def test_right_pattern_switches_user(self):
        session = self.su(PATTERN)
        self.assertEqual(session.reached, 1, session)
        self.assertEqual(os.waitstatus_to_exitcode(session.status), 0, session)
        self.assertIn(b"SWITCHED-" + self.TARGET.encode(), session.after(PROMPT), session)
        self.assertEqual(self.failures(self.TARGET), 0)

    def test_wrong_pattern_is_refused_and_counted(self):
        session = self.su(WRONG)
        self.assertEqual(session.reached, 1, session)
        self.assert_refused(session)
        self.assertIn(b"Wrong pattern.", session.output)
        self.assertEqual(self.failures(self.TARGET), 1)

    def test_malformed_pattern_is_refused_and_not_counted(self):
        for answer, phrase in MALFORMED:
            with self.subTest(answer=answer):
                session = self.su(answer)
                self.assertEqual(session.reached, 1, session)
                self.assert_refused(session)
                self.assertIn(NOT_A_PATTERN, session.output)
                self.assertIn(phrase, session.output)
                self.assertNotIn(b"Wrong pattern", session.output)
                self.assertEqual(self.failures(self.TARGET), 0)

    def test_throttled_user_is_refused_without_a_prompt(self):
        self.configure(THROTTLE)
        first = self.su(WRONG)
        self.assert_refused(first)
        self.assertIn(b"Wrong pattern. Too many wrong patterns", first.output)
        self.assert_locked(self.TARGET)
        locked = self.su(PATTERN)
        self.assertEqual(locked.reached, 0, "prompted while locked: %r" % locked)
        self.assert_refused(locked)
        self.assertIn(LOCKED_TEXT, locked.output)
        self.assert_locked(self.TARGET)


class LoginTest(ClientCase):
    """/bin/login on a pty: user name at "login:", pattern at "Pattern:", then a shell command."""

    USER = "ppcli4"
    USERS = (USER,)
    tools = ("login", "unshare", "mount")
    NAMESPACE = True
    SHELL_PROMPT = b"$ "  # dash's PS1
    SHELL_CHECK = b"echo LOGGED-IN-$((6*7)); exit\n"
    # login's own delay after a failure (pam_fail_delay, FAIL_DELAY) is a few
    # seconds per attempt; the timeouts leave room for it.
    TIMEOUT = 20

    def setUp(self):
        super().setUp()
        self.enrol(self.USER)
        self.pam_file = os.path.join(self.root, "login.pam")
        self.configure("")

    def configure(self, options):
        self.write_pam(self.pam_file, [self.auth_line(options)])

    def login(self, steps, end, on_prompt=None):
        """Runs login; a session expected to fail (end="kill") stops at a shell prompt."""
        argv = self.namespace_argv("/etc/pam.d/login", self.pam_file, "login")
        session = PtySession(
            argv,
            steps,
            end=end,
            timeout=self.TIMEOUT,
            on_prompt=on_prompt,
            stop_on=self.SHELL_PROMPT if end == "kill" else None,
        )
        self.assertFalse(os.WIFSIGNALED(session.status) and os.WTERMSIG(session.status) != signal.SIGKILL, session)
        return session

    def attempt(self, answer):
        """The steps of one login attempt that is expected to fail."""
        return [(b"login: ", self.USER.encode() + b"\n"), (PROMPT, answer.encode() + b"\n"), (b"Login incorrect", None)]

    def test_right_pattern_logs_in(self):
        session = self.login(
            [
                (b"login: ", self.USER.encode() + b"\n"),
                (PROMPT, PATTERN.encode() + b"\n"),
                (self.SHELL_PROMPT, self.SHELL_CHECK),
            ],
            end="eof",
        )
        self.assertEqual(session.reached, 3, session)
        self.assertIn(b"LOGGED-IN-42", session.output, session)
        self.assertNotIn(b"Login incorrect", session.output)
        self.assertEqual(self.failures(self.USER), 0)

    def test_wrong_pattern_is_refused_and_counted(self):
        session = self.login(self.attempt(WRONG), end="kill")
        self.assertEqual(session.reached, 3, session)
        self.assertIn(b"Wrong pattern.", session.output)
        self.assertNotIn(b"LOGGED-IN", session.output)
        self.assertEqual(self.failures(self.USER), 1)

    def test_malformed_pattern_is_refused_and_not_counted(self):
        # Both answers in one login session: login asks again after a failure.
        steps = []
        for answer, _ in MALFORMED:
            steps += self.attempt(answer)
        session = self.login(steps, end="kill")
        self.assertEqual(session.reached, len(steps), session)
        for _, phrase in MALFORMED:
            self.assertIn(phrase, session.output)
        self.assertEqual(session.output.count(NOT_A_PATTERN), len(MALFORMED), session)
        self.assertNotIn(b"Wrong pattern", session.output)
        self.assertNotIn(b"LOGGED-IN", session.output)
        self.assertEqual(self.failures(self.USER), 0)

    def test_throttled_user_is_refused_without_a_prompt(self):
        self.configure(THROTTLE)
        # One session: a wrong pattern, then the user name again (login's retry).
        steps = self.attempt(WRONG) + [(b"login: ", self.USER.encode() + b"\n"), (b"Login incorrect", None)]
        session = self.login(steps, end="kill")
        self.assertEqual(session.reached, len(steps), session)
        second = session.output.split(b"Login incorrect", 1)[1]
        self.assertIn(LOCKED_TEXT, second, session)
        self.assertNotIn(PROMPT, second, "prompted while locked: %r" % session)
        self.assert_locked(self.USER)
        # A fresh login process, the RIGHT pattern typed should a prompt come:
        # still no prompt, refused.
        fresh = self.login(
            [(b"login: ", self.USER.encode() + b"\n"), (b"Login incorrect", None)],
            end="kill",
            on_prompt=(PROMPT, PATTERN.encode() + b"\n"),
        )
        self.assertEqual(fresh.reached, 2, fresh)
        self.assertNotIn(PROMPT, fresh.output, fresh)
        self.assertIn(b"Login incorrect", fresh.output, fresh)
        self.assertIn(LOCKED_TEXT, fresh.output)
        self.assertNotIn(b"LOGGED-IN", fresh.output)
        self.assert_locked(self.USER)


if __name__ == "__main__":
    unittest.main()
