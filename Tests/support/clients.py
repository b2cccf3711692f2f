"""Real sudo, su and login through the built module: what the client suites (ClientTests, AttackTests)
share. A ClientCase has a private store and state, makes its users with support.system.TestUser, writes
PAM files that a private mount namespace binds over /etc/pam.d/<client>, and checks in tearDownClass that
/etc is byte-identical to before. Every module using it calls take_run_lock in setUpModule.
"""

import os
import shlex
import time
import unittest

from support.paths import MODULE, PATTERNCTL, require_built, require_tools, run
from support.sandbox import PatternctlClient, PrivateTree
from support.system import LOGIN_RECORDS, PtySession, TestUser, snapshot

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

SETTLE = 60


class ClientCase(PatternctlClient, unittest.TestCase):
    """Shared: root check, /etc snapshot, per-test store/state, enrolment, status."""

    tools = ()
    # Made for each test (removed after it, even when it fails).
    USERS = ()
    # The test runs its client in a private mount namespace (skipped where there is none).
    NAMESPACE = False

    @classmethod
    def setUpClass(cls):
        require_built(MODULE, PATTERNCTL)
        require_tools("useradd", "userdel", *cls.tools)
        cls.before = snapshot()

    @classmethod
    def tearDownClass(cls):
        # The machine is shared: a suite run from another worktree (one that
        # does not take the run flock) may hold its own users and files for a moment. A
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
        # 0755: the bind-mounted PAM file is read from here.
        tree = PrivateTree(prefix="pam-pattern-clients-", mode=0o755, with_confdir=False)
        self.addCleanup(tree.close)
        self.root, self.store_dir, self.state_dir, self.store = tree.root, tree.store_dir, tree.state_dir, tree.store
        if self.NAMESPACE:
            self.require_namespace()
        for name in self.USERS:
            self.make_user(name)

    def make_user(self, name):
        user = TestUser(name)
        self.addCleanup(user.remove)
        return user

    def enrol(self, user, pattern=PATTERN):
        PatternctlClient.enrol(self, user, pattern)

    def assert_locked(self, user):
        """status with the test's throttle options says locked, one failure."""
        fields = self.status(user, "--deny", "1", "--unlock-time", "60")
        self.assertEqual(fields["failures"].split()[0], "1", fields)
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


class SuCase(ClientCase):
    """root -> SOURCE (pam_rootok) -> TARGET (the pattern, enrolled) with real su on a pty; OPTIONS are the
    module's in su's PAM file."""

    SOURCE = TARGET = None
    OPTIONS = ""
    tools = ("su", "unshare", "mount")
    NAMESPACE = True

    def setUp(self):
        self.USERS = (self.SOURCE, self.TARGET)
        super().setUp()
        self.enrol(self.TARGET)
        self.pam_file = os.path.join(self.root, "su.pam")
        self.configure(self.OPTIONS)

    def configure(self, options):
        self.write_pam(self.pam_file, ["auth sufficient pam_rootok.so", self.auth_line(options)])

    def su(self, answer, prompt=PROMPT, extra_mounts=(), environment=""):
        """SOURCE runs `su TARGET` (after `environment`, shell assignments) and answers `prompt`; extra_mounts
        are (source, target) binds made in the namespace first."""
        inner = "%ssu %s -c %s" % (environment, self.TARGET, shlex.quote("echo SWITCHED-$(id -un)"))
        command = "su %s -c %s" % (self.SOURCE, shlex.quote(inner))
        argv = self.namespace_argv("/etc/pam.d/su", self.pam_file, command)
        if extra_mounts:
            argv[-1] = (
                " && ".join("mount --bind %s %s" % (shlex.quote(a), shlex.quote(b)) for a, b in extra_mounts)
                + " && "
                + argv[-1]
            )
        session = PtySession(argv, [(prompt, answer.encode() + b"\n")])
        self.assertFalse(os.WIFSIGNALED(session.status), session)
        return session
