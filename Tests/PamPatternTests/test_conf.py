"""/etc/security/pam_pattern.conf as the real module reads it, through the real libpam.

- conf= points the module at a file; its throttle is the one enforced, and
  pam.d arguments override it for that service.
- A missing file means the defaults; an unsafe or malformed one fails closed
  (PAM_AUTHINFO_UNAVAIL, no prompt, nothing counted) with a LOG_CRIT line that
  names the file and the line.
- Without conf= the module reads /etc/security/pam_pattern.conf: tried in a
  private mount namespace with a tmpfs over /etc/security.
"""

import os
import subprocess
import sys
import textwrap
import unittest

from support.formats import failures
from support.pam import Conversation, PAM_AUTHINFO_UNAVAIL, PAM_AUTH_ERR, PAM_SUCCESS, authenticate
from support.paths import BUILD, MODULE, PYTHONPATH, ROOT, require_built, require_root
from support.guesses import wrong_patterns
from support.sandbox import FixtureCase
from support.system import LOG_CRIT, capture_syslog, in_child

USER = "alice"
PATTERN = "1235789"
WRONG = "14789"


class ConfTestCase(FixtureCase):
    def setUp(self):
        super().setUp()
        self.conf = os.path.join(self.fixture.root, "pam_pattern.conf")

    def write_conf(self, text, mode=0o644):
        self.fixture.write_conf(textwrap.dedent(text), mode)

    def attempt(self, answer, options=""):
        service = self.fixture.service("conf=%s %s" % (self.conf, options))
        return authenticate(self.fixture.confdir, service, USER, Conversation([answer.encode()]))


class ConfThrottleTests(ConfTestCase):
    def test_deny_from_the_file_is_enforced(self):
        self.write_conf("deny = 2\nunlock_time = 120\n")
        for wrong in wrong_patterns(2, avoid=(PATTERN,)):  # different ones: a repeat is not counted
            self.assertEqual(self.attempt(wrong).code, PAM_AUTH_ERR)
        locked = self.attempt(PATTERN)
        self.assertEqual(locked.code, PAM_AUTH_ERR, locked)
        self.assertEqual(locked.conversation.prompts, [], "a locked pattern is not even asked for")
        self.assertIn(b"2 minutes", locked.conversation.text, locked)
        self.assertEqual(failures(self.fixture.state_dir, USER), 2)

    def test_an_argument_overrides_the_file(self):
        self.write_conf("deny = 2\n")
        for wrong in wrong_patterns(2, avoid=(PATTERN,)):
            self.assertEqual(self.attempt(wrong, "deny=4").code, PAM_AUTH_ERR)
        self.assertEqual(self.attempt(PATTERN, "deny=4").code, PAM_SUCCESS)

    def test_missing_file_means_defaults(self):
        for wrong in wrong_patterns(4, avoid=(PATTERN,)):
            self.assertEqual(self.attempt(wrong).code, PAM_AUTH_ERR)
        self.assertEqual(self.attempt(PATTERN).code, PAM_SUCCESS, "default deny=5 leaves a fifth try")

    def test_layout_from_the_file(self):
        self.write_conf("layout = numpad\n")
        # numpad: key 7 is dot 1, key 1 is dot 7, so "7895123" draws 1235789
        self.assertEqual(self.attempt("7895123").code, PAM_SUCCESS)


class ConfFailsClosedTests(ConfTestCase):
    CASES = {
        "malformed value": ("deny = 2\nunlock_time = soon\n", 0o644, b"line 2: unlock_time must be a whole number"),
        "unknown key": ("# policy\ndenny = 3\n", 0o644, b"line 2: unknown key \"denny\""),
        "argument-only key": ("nullok = yes\n", 0o644, b"line 1: nullok is a module argument"),
        "group-writable": ("deny = 2\n", 0o664, b"writable by group or others"),
    }

    def test_unsafe_or_malformed_file_refuses_without_prompt_or_count(self):
        for name, (text, mode, expected) in self.CASES.items():
            with self.subTest(name):
                self.write_conf(text, mode)
                before = self.fixture.state_snapshot()
                result = self.attempt(PATTERN)
                self.assertEqual(result.code, PAM_AUTHINFO_UNAVAIL, result)
                self.assertEqual(result.conversation.prompts, [])
                self.assertEqual(self.fixture.state_snapshot(), before)

    def test_symlink_and_foreign_owner_refused(self):
        real = os.path.join(self.fixture.root, "real.conf")
        with open(real, "w") as f:
            f.write("deny = 2\n")
        os.symlink(real, self.conf)
        self.assertEqual(self.attempt(PATTERN).code, PAM_AUTHINFO_UNAVAIL)
        os.unlink(self.conf)
        self.write_conf("deny = 2\n")
        os.chown(self.conf, 65534, 65534)
        self.assertEqual(self.attempt(PATTERN).code, PAM_AUTHINFO_UNAVAIL)

    def test_log_names_the_file_and_the_line(self):
        for name, (text, mode, expected) in self.CASES.items():
            with self.subTest(name):
                self.write_conf(text, mode)
                fixture, conf = self.fixture, self.conf

                def actions():
                    service = fixture.service("conf=%s" % conf)
                    authenticate(fixture.confdir, service, USER, Conversation([PATTERN.encode()]))

                try:
                    lines = in_child(lambda: capture_syslog(actions))
                except AssertionError as error:
                    if "SkipTest" in str(error):
                        self.skipTest(str(error))
                    raise
                critical = [text for severity, text in lines if severity == LOG_CRIT]
                self.assertTrue(any(conf.encode() in t and expected in t for t in critical), lines)


class DefaultPathTests(unittest.TestCase):
    """No conf=: the module reads /etc/security/pam_pattern.conf (private mount namespace)."""

    def setUp(self):
        require_built(MODULE)
        require_root("the store and state must be root-owned")

    def test_module_reads_etc_security_pam_pattern_conf(self):
        script = textwrap.dedent("""
            import os, sys
            from support.pam import *
            from support.sandbox import Fixture
            f = Fixture()
            try:
                f.enrol("alice", "1235789")
                def attempt(answer):
                    return authenticate(f.confdir, f.service(), "alice", Conversation([answer.encode()])).code
                codes = []
                codes.append(attempt("14789"))                  # no file yet: defaults
                with open("/etc/security/pam_pattern.conf", "w") as c:
                    c.write("deny = 1\\n")
                codes.append(attempt("1235789"))                # 1 failure, deny=1: locked
                with open("/etc/security/pam_pattern.conf", "w") as c:
                    c.write("deny = x\\n")
                codes.append(attempt("1235789"))                # malformed: fail closed
                os.unlink("/etc/security/pam_pattern.conf")
                codes.append(attempt("1235789"))                # gone: defaults again (deny=5)
                print(codes)
            finally:
                f.close()
        """)
        result = subprocess.run(
            [
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                'mount -t tmpfs -o mode=0755 tmpfs /etc/security && exec "$0" -c "$1"',
                sys.executable,
                script,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, PAM_PATTERN_BUILD=BUILD, PAM_PATTERN_ROOT=ROOT, PYTHONPATH=PYTHONPATH),
        )
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), str([PAM_AUTH_ERR, PAM_AUTH_ERR, PAM_AUTHINFO_UNAVAIL, PAM_SUCCESS]))


if __name__ == "__main__":
    unittest.main()
