"""forward_pass: one prompt for "pattern or password"; an answer that is not
the user's pattern reaches the next module as PAM_AUTHTOK. forward_non_pattern
(the profile's): the same prompt, but only an answer that is not a pattern is
handed on; a wrong pattern is told and counted, and pam_unix asks for the
password itself.

Observed two ways: pam_exec expose_authtok (writes the token it received to a
file, and would prompt on its own if there were none), and real pam_unix
try_first_pass with a throwaway user whose password is known.
"""

import os
import unittest

from support.guesses import wrong_patterns
from support.formats import failures
from support.pam import Conversation, authenticate, code_name, module_line, write_service
from support.sandbox import FixtureCase
from support.system import TestUser, release_run_lock, take_run_lock

USER = "alice"
PATTERN = b"1235789"
WRONG = b"14789"


class ForwardPassExecTest(FixtureCase):
    def setUp(self):
        super().setUp()
        self.token_file = os.path.join(self.fixture.root, "token")
        script = os.path.join(self.fixture.root, "capture-token")
        with open(script, "w") as f:
            f.write("#!/bin/sh\ncat > '%s'\nexit 0\n" % self.token_file)
        os.chmod(script, 0o700)
        write_service(
            self.fixture.confdir,
            "forward",
            [
                module_line(self.fixture.options("forward_pass"), "sufficient"),
                "auth required pam_exec.so quiet expose_authtok %s" % script,
            ],
        )

    def auth(self, answers):
        return authenticate(self.fixture.confdir, "forward", USER, Conversation(answers))

    def token(self):
        if not os.path.exists(self.token_file):
            return None
        with open(self.token_file, "rb") as f:
            return f.read().rstrip(b"\0")

    def test_password_is_forwarded_uncounted_with_one_prompt(self):
        result = self.auth([b"correct horse battery"])
        self.assertEqual(code_name(result.code), "PAM_SUCCESS", result)  # pam_exec accepted it
        self.assertEqual(result.conversation.prompts, [b"Pattern or password: "])
        self.assertEqual(result.conversation.unexpected_prompts, 0)
        self.assertEqual(self.token(), b"correct horse battery")
        self.assertEqual(failures(self.fixture.state_dir, USER), 0)
        self.assertEqual(result.conversation.errors, [], "a password is not 'a malformed pattern'")

    def test_wrong_pattern_is_counted_and_forwarded(self):
        result = self.auth([WRONG])
        self.assertEqual(result.conversation.prompts, [b"Pattern or password: "])
        self.assertEqual(result.conversation.unexpected_prompts, 0)
        self.assertEqual(self.token(), WRONG)
        self.assertEqual(failures(self.fixture.state_dir, USER), 1)

    def test_right_pattern_succeeds_and_is_not_forwarded(self):
        result = self.auth([PATTERN])
        self.assertEqual(code_name(result.code), "PAM_SUCCESS", result)
        self.assertIsNone(self.token(), "the pattern must not reach the next module")
        self.assertEqual(failures(self.fixture.state_dir, USER), 0)

    def test_without_forward_pass_nothing_is_forwarded(self):
        write_service(
            self.fixture.confdir,
            "forward",
            [
                module_line(self.fixture.options(""), "sufficient"),
                "auth required pam_exec.so quiet expose_authtok /bin/true",
            ],
        )
        result = self.auth([b"hunter2", b"second prompt answer"])
        # pam_exec found no token and had to ask itself.
        self.assertEqual(len(result.conversation.prompts), 2, result)


class ForwardPassUnixTest(FixtureCase):
    """The real use: pam_pattern forward_pass, then pam_unix try_first_pass."""

    NAME = "pptestfwd"
    PASSWORD = "Plain-Password-42"
    ENROL = None
    OPTION = "forward_pass"

    @classmethod
    def setUpClass(cls):
        take_run_lock("a throwaway user for pam_unix")

    @classmethod
    def tearDownClass(cls):
        release_run_lock()

    def setUp(self):
        super().setUp()
        self.user = TestUser(self.NAME, self.PASSWORD, home=False)
        self.addCleanup(self.user.remove)
        self.fixture.enrol(self.NAME, PATTERN.decode())
        write_service(
            self.fixture.confdir,
            "unix",
            [
                module_line(self.fixture.options(self.OPTION), "sufficient"),
                "auth required pam_unix.so try_first_pass",
            ],
        )

    def auth(self, answers):
        return authenticate(self.fixture.confdir, "unix", self.NAME, Conversation(answers))

    def test_password_typed_once_reaches_pam_unix(self):
        result = self.auth([self.PASSWORD.encode()])
        self.assertEqual(code_name(result.code), "PAM_SUCCESS", result)
        self.assertEqual(result.conversation.prompts, [b"Pattern or password: "])

    def test_pattern_alone_succeeds(self):
        result = self.auth([PATTERN])
        self.assertEqual(code_name(result.code), "PAM_SUCCESS", result)
        self.assertEqual(len(result.conversation.prompts), 1)

    def test_wrong_password_fails(self):
        # try_first_pass: pam_unix tries the forwarded token, then asks once more.
        result = self.auth([b"not-the-password", b"still-not-it"])
        self.assertEqual(code_name(result.code), "PAM_AUTH_ERR", result)

    def test_locked_pattern_still_lets_the_password_in(self):
        for wrong in wrong_patterns(2, avoid=(PATTERN.decode(),)):  # different ones: a repeat is not counted
            self.auth([wrong.encode(), b"x"])
        # deny=5 by default; lock it hard with lock_after=2 in a new service.
        write_service(
            self.fixture.confdir,
            "unix",
            [
                module_line(self.fixture.options(self.OPTION + " lock_after=2"), "sufficient"),
                "auth required pam_unix.so try_first_pass",
            ],
        )
        result = self.auth([self.PASSWORD.encode()])
        self.assertEqual(code_name(result.code), "PAM_SUCCESS", result)
        # No pattern prompt while locked: the only prompt is pam_unix's own.
        self.assertEqual(len(result.conversation.prompts), 1, result)
        self.assertNotIn(b"Pattern or password: ", result.conversation.prompts)
        self.assertIn(b"password still works", result.conversation.text)


class ForwardNonPatternUnixTest(ForwardPassUnixTest):
    """The profile's line: pam_pattern forward_non_pattern, then pam_unix try_first_pass."""

    NAME = "pptestfnp"
    OPTION = "forward_non_pattern"

    def test_wrong_pattern_is_told_counted_and_not_forwarded(self):
        # pam_unix asks its own question: the wrong drawing never becomes a failed password (no fail delay, the
        # tries left said, the password still welcome in the same run).
        result = self.auth([WRONG, self.PASSWORD.encode()])
        self.assertEqual(code_name(result.code), "PAM_SUCCESS", result)
        self.assertEqual(result.conversation.prompts, [b"Pattern or password: ", b"Password: "])
        self.assertIn(b"Wrong pattern. 4 tries left before a wait.", result.conversation.text)
        self.assertEqual(failures(self.fixture.state_dir, self.NAME), 1)

    def test_password_typed_once_is_not_counted_and_not_called_malformed(self):
        result = self.auth([self.PASSWORD.encode()])
        self.assertEqual(code_name(result.code), "PAM_SUCCESS", result)
        self.assertEqual(result.conversation.prompts, [b"Pattern or password: "])
        self.assertNotIn(b"Not a pattern", result.conversation.text)
        self.assertEqual(failures(self.fixture.state_dir, self.NAME), 0)


if __name__ == "__main__":
    unittest.main()
