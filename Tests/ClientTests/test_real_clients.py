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

import fcntl
import hashlib
import os
import pty
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("PAM_PATTERN_ROOT", os.path.abspath(os.path.join(HERE, "..", "..")))
sys.path.insert(0, os.path.join(ROOT, "Tests", "PamPatternTests"))
from pamharness import MODULE, PATTERNCTL  # noqa: E402  (after the path change)

# Not weak (patternctl set refuses weak ones), 8 dots; WRONG is a valid pattern too.
PATTERN = "2946138"
WRONG = "24678"
# Not patterns: a letter, and a dot used twice. The module's one fixed sentence for both (never quoting them).
NOT_A_PATTERN_SENTENCE = b"Not a pattern: type the dots of your pattern as digits 1-9, each dot once."
MALFORMED = (("12a4", NOT_A_PATTERN_SENTENCE), ("1231", NOT_A_PATTERN_SENTENCE))
THROTTLE = "deny=1 unlock_time=60"

PROMPT = b"Pattern: "
LOCKED_TEXT = b"Too many wrong patterns: try again in"
NOT_A_PATTERN = b"Not a pattern: "

SERVICE = "pattern-clients-test"
SERVICE_FILE = "/etc/pam.d/" + SERVICE
DROPIN = "/etc/sudoers.d/pam-pattern-clients-test"

# What must be byte-identical after the suite: directories are walked.
WATCHED = (
    "/etc/pam.d",
    "/etc/sudoers.d",
    "/etc/sudoers",
    "/etc/passwd",
    "/etc/shadow",
    "/etc/group",
    "/etc/gshadow",
    "/etc/subuid",
    "/etc/subgid",
)
SETTLE = 60
# Written by login/su; replaced by empty files inside the namespace.
LOGIN_RECORDS = ("/var/log/btmp", "/var/log/wtmp", "/var/log/lastlog", "/var/log/faillog", "/run/utmp", "/var/run/utmp")


def snapshot():
    """{path: sha256 or 'missing' or 'link:target'} for everything in WATCHED."""
    out = {}

    def add(path):
        if os.path.islink(path):
            out[path] = "link:" + os.readlink(path)
        elif os.path.isfile(path):
            with open(path, "rb") as f:
                out[path] = hashlib.sha256(f.read()).hexdigest()
        elif not os.path.exists(path):
            out[path] = "missing"

    for top in WATCHED:
        add(top)
        if os.path.isdir(top) and not os.path.islink(top):
            for directory, dirs, files in os.walk(top):
                for name in sorted(dirs + files):
                    add(os.path.join(directory, name))
                    if name in dirs and not os.path.islink(os.path.join(directory, name)):
                        out[os.path.join(directory, name)] = "dir"
    return out


def remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def run(argv, **kwargs):
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("timeout", 60)
    return subprocess.run(argv, **kwargs)


# Two runs of this suite at once (two worktrees on one machine) would fight
# over the same user names and /etc files: a run waits for the other.
RUN_LOCK = "/run/lock/pam_pattern-real-clients.lock"
RUN_LOCK_WAIT = 300
_run_lock = None


def setUpModule():
    global _run_lock
    if os.geteuid() != 0:
        raise unittest.SkipTest("real-client tests (sudo, su, login) need root: run `make test` as root")
    _run_lock = os.open(RUN_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    deadline = time.monotonic() + RUN_LOCK_WAIT
    while True:
        try:
            fcntl.flock(_run_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise AssertionError(
                    "another run of the real-client suite holds %s for %d s" % (RUN_LOCK, RUN_LOCK_WAIT)
                )
            time.sleep(1)


def tearDownModule():
    if _run_lock is not None:
        os.close(_run_lock)  # releases the flock


class TestUser:
    """A throwaway local user with a home and /bin/sh (login starts it), removed with userdel -r."""

    def __init__(self, name):
        self.name = name
        if run(["id", "-u", name]).returncode == 0:
            raise AssertionError("user %s exists already: refusing to reuse or delete it" % name)
        made = run(["useradd", "-m", "-s", "/bin/sh", name])
        if made.returncode != 0:
            raise AssertionError("useradd %s: %s" % (name, made.stderr.decode()))

    def remove(self):
        # -f: even if a test left a process of the user behind.
        run(["userdel", "-r", "-f", self.name])
        remove("/run/sudo/ts/" + self.name)


class PtySession:
    """One run of argv on a fresh pty (the child leads its own session).

    `steps` is a list of (expected bytes, reply bytes or None): wait until
    the expected text appears after the previous match, then type the reply.
    `on_prompt` (marker, reply) answers every appearance of marker, wherever
    it comes (to type the right pattern should a locked user be prompted
    after all). `stop_on`: give up at once when this text appears (a shell
    prompt where a refusal was expected), instead of waiting for the timeout.
    After the last step: read to EOF (end="eof") or kill the session
    (end="kill", for login, which would ask for a user name again).
    """

    def __init__(self, argv, steps, end="eof", timeout=30, on_prompt=None, stop_on=None):
        self.output = b""
        self.reached = 0  # steps whose expected text was seen
        self.prompts_answered = 0
        self.stopped = False  # stop_on seen
        self.status = None
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.execvp(argv[0], argv)
            finally:
                os._exit(127)
        position = 0
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                if self.reached == len(steps) and end == "kill":
                    break
                ready, _, _ = select.select([fd], [], [], 0.2)
                if not ready:
                    continue
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # EIO: every holder of the pty is gone
                    break
                if not chunk:
                    break
                self.output += chunk
                if on_prompt is not None and self.output.count(on_prompt[0]) > self.prompts_answered:
                    self.prompts_answered += 1
                    os.write(fd, on_prompt[1])
                while self.reached < len(steps):
                    expected, reply = steps[self.reached]
                    found = self.output.find(expected, position)
                    if found < 0:
                        break
                    position = found + len(expected)
                    self.reached += 1
                    if reply is not None:
                        os.write(fd, reply)
                if stop_on is not None and stop_on in self.output:
                    self.stopped = True
                    break
        finally:
            # Kill before closing: closing the master first would SIGHUP the
            # child and hide how it really ended.
            self.timed_out = time.monotonic() >= deadline
            if end == "kill" or self.reached < len(steps) or self.stopped or self.timed_out:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            os.close(fd)
            _, self.status = os.waitpid(pid, 0)

    def after(self, marker):
        """The output after the first `marker` (b"" if it never came)."""
        parts = self.output.split(marker, 1)
        return parts[1] if len(parts) == 2 else b""

    def __repr__(self):
        return "<pty session: %d steps reached, status %r, output %r>" % (self.reached, self.status, self.output)


class ClientCase(unittest.TestCase):
    """Shared: root check, /etc snapshot, per-test store/state, enrolment, status."""

    tools = ()

    @classmethod
    def setUpClass(cls):
        for tool in ("useradd", "userdel") + cls.tools:
            if not shutil.which(tool):
                raise unittest.SkipTest("%s is not installed (make deps)" % tool)
        for binary in (MODULE, PATTERNCTL):
            if not os.path.exists(binary):
                raise AssertionError("not built: %s (make build, or set PAM_PATTERN_BUILD)" % binary)
        cls.before = snapshot()

    @classmethod
    def tearDownClass(cls):
        # The machine is shared: another suite (e.g. test_sudo_su.py, run by
        # someone else) may hold its own users and files for a moment. A
        # difference that goes away within SETTLE seconds was not ours; one
        # that stays fails the class.
        deadline = time.monotonic() + SETTLE
        while True:
            after = snapshot()
            changed = sorted(p for p in set(cls.before) | set(after) if cls.before.get(p) != after.get(p))
            if not changed or time.monotonic() >= deadline:
                break
            time.sleep(1)
        if changed:
            raise AssertionError("left changed under /etc: %s" % ", ".join(changed))

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="pam-pattern-clients-")
        self.addCleanup(shutil.rmtree, self.root, True)
        os.chmod(self.root, 0o755)  # the bind-mounted PAM file is read from here
        self.store_dir = os.path.join(self.root, "store")
        self.state_dir = os.path.join(self.root, "state")
        os.mkdir(self.store_dir, 0o700)
        os.mkdir(self.state_dir, 0o700)
        self.store = os.path.join(self.store_dir, "patterns")

    def make_user(self, name):
        user = TestUser(name)
        self.addCleanup(user.remove)
        return user

    def patternctl(self, *argv, stdin=b""):
        return run(
            [PATTERNCTL] + list(argv[:1]) + ["--store", self.store, "--state", self.state_dir] + list(argv[1:]),
            input=stdin,
        )

    def enrol(self, user, pattern=PATTERN):
        done = self.patternctl("set", "--cost", "1", user, stdin=("%s\n%s\n" % (pattern, pattern)).encode())
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def status(self, user, *extra):
        """`patternctl status` as {field: value}."""
        done = self.patternctl("status", *extra, user)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        fields = {}
        for line in done.stdout.decode().splitlines():
            key, _, value = line.partition(": ")
            fields[key] = value
        return fields

    def failures(self, user):
        return int(self.status(user)["failures"])

    def assert_locked(self, user):
        """status with the test's throttle options says locked, one failure."""
        fields = self.status(user, "--deny", "1", "--unlock-time", "60")
        self.assertEqual(fields["failures"], "1", fields)
        self.assertTrue(fields["locked"].startswith("until "), fields)

    def auth_line(self, options=""):
        return "auth required %s store=%s state=%s %s" % (MODULE, self.store, self.state_dir, options)

    def write_pam(self, path, auth_lines):
        with open(path, "w") as f:
            f.write(
                "# pam_pattern real-client test (removed by the test)\n"
                + "".join(line.rstrip() + "\n" for line in auth_lines)
                + "account required pam_permit.so\n"
                "session required pam_permit.so\n"
            )
        os.chmod(path, 0o644)

    def namespace_argv(self, pam_target, pam_source, command):
        """unshare a private mount namespace, bind the PAM file and empty login records, exec command."""
        records = os.path.join(self.root, "records")
        os.makedirs(records, exist_ok=True)
        mounts = ["mount --bind %s %s" % (shlex.quote(pam_source), shlex.quote(pam_target))]
        for path in LOGIN_RECORDS:
            if os.path.isfile(path) and not os.path.islink(path):
                empty = os.path.join(records, path.strip("/").replace("/", "_"))
                open(empty, "wb").close()
                mounts.append("mount --bind %s %s" % (shlex.quote(empty), shlex.quote(path)))
        script = " && ".join(mounts) + " && exec " + command
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script]

    def require_namespace(self):
        probe = run(["unshare", "--mount", "--propagation", "private", "true"])
        if probe.returncode != 0:
            self.skipTest("no private mount namespace here: %s" % probe.stderr.decode().strip())


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
        self.assert_refused(self.sudo(WRONG))
        self.assertEqual(self.failures(self.USER), 1)

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


class SuTest(ClientCase):
    """root -> SOURCE (pam_rootok) -> TARGET (the pattern) with real su on a pty."""

    SOURCE = "ppcli2"
    TARGET = "ppcli3"
    tools = ("su", "unshare", "mount")

    def setUp(self):
        super().setUp()
        self.require_namespace()
        self.make_user(self.SOURCE)
        self.make_user(self.TARGET)
        self.enrol(self.TARGET)
        self.pam_file = os.path.join(self.root, "su.pam")
        self.configure("")

    def configure(self, options):
        self.write_pam(self.pam_file, ["auth sufficient pam_rootok.so", self.auth_line(options)])

    def su(self, answer):
        inner = "su %s -c %s" % (self.TARGET, shlex.quote("echo SWITCHED-$(id -un)"))
        command = "su %s -c %s" % (self.SOURCE, shlex.quote(inner))
        argv = self.namespace_argv("/etc/pam.d/su", self.pam_file, command)
        session = PtySession(argv, [(PROMPT, answer.encode() + b"\n")])
        self.assertFalse(os.WIFSIGNALED(session.status), session)
        return session

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
    tools = ("login", "unshare", "mount")
    SHELL_PROMPT = b"$ "  # dash's PS1
    SHELL_CHECK = b"echo LOGGED-IN-$((6*7)); exit\n"
    # login's own delay after a failure (pam_fail_delay, FAIL_DELAY) is a few
    # seconds per attempt; the timeouts leave room for it.
    TIMEOUT = 20

    def setUp(self):
        super().setUp()
        self.require_namespace()
        self.make_user(self.USER)
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
