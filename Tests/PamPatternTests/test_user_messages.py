"""What the module says (UserMessages.swift), as golden text through the real
libpam: every refusal of the person's pattern ends with the way out for a
forgotten one (or says only an administrator can help, with
`self_enroll = no`); no sentence ends in ".;"; under PAM_SILENT, where only
the prompt is shown, the prompt says the tries left before a wait and, with
forward_pass, a locked pattern's missing prompt is a password prompt that
says why; a service named by `quiet_services` in pam_pattern.conf is sent no
message at all, as under PAM_SILENT, with the same verdicts and counts as a
service that is told everything; in PAM service "patternctl"
(pam_pattern_helper's password check) no pattern is asked for or counted.
"""

import os
import unittest

from support.pam import (
    Conversation,
    PAM_AUTH_ERR,
    PAM_ERROR_MSG,
    PAM_IGNORE,
    PAM_PROMPT_ECHO_OFF,
    PAM_SILENT,
    PAM_SUCCESS,
    PAM_TEXT_INFO,
    authenticate,
    code_name,
    module_line,
    write_service,
)
from support.formats import failures
from support.sandbox import FixtureCase

USER = "alice"
PATTERN = "1235789"
WRONGS = ["14789", "36987", "3816729", "2946138"]
ROUTE = b"Forgot your pattern? Set a new one with your password: patternctl set --forgot"
NO_ROUTE = b"Forgot your pattern? Only an administrator can set a new one."


class UserMessagesTest(FixtureCase):
    def auth(self, answers=(), options="", flags=0, service="pattern-test", **kwargs):
        name = self.fixture.service(options, name=service)
        return authenticate(self.fixture.confdir, name, USER, Conversation(answers), flags=flags, **kwargs)

    def assertCode(self, result, expected):
        self.assertEqual(code_name(result.code), code_name(expected), result)

    def test_refusals_are_golden_and_name_the_way_out(self):
        options = "deny=2 unlock_time=60 lock_after=3"
        first = self.auth([WRONGS[0].encode()], options=options)
        second = self.auth([WRONGS[1].encode()], options=options)
        locked = self.auth([], options=options)
        self.assertEqual(first.conversation.errors, [b"Wrong pattern. 1 try left before a wait. " + ROUTE])
        self.assertEqual(
            second.conversation.errors,
            [b"Wrong pattern. Too many wrong patterns: try again in 1 minute. Your password still works. " + ROUTE],
        )
        self.assertEqual(len(locked.conversation.errors), 1, locked)
        self.assertRegex(
            locked.conversation.errors[0],
            rb"^Too many wrong patterns: try again in (1 minute|[1-5]?\d seconds)\. Your password still works\. "
            + ROUTE.replace(b"?", rb"\?")
            + b"$",
        )
        for result in (first, second, locked):
            self.assertNotIn(b".;", b"".join(result.conversation.errors))

    def test_disabled_and_self_enroll_no(self):
        conf = self.fixture.write_conf("self_enroll = no\n")
        options = "conf=%s deny=5 lock_after=1" % conf
        disabled = self.auth([WRONGS[0].encode()], options=options)
        self.assertEqual(
            disabled.conversation.errors,
            [
                b"Wrong pattern. Your pattern is now disabled after too many wrong tries; an administrator can "
                b"re-enable it. Your password still works. " + NO_ROUTE
            ],
        )
        refused = self.auth([], options=options)
        self.assertEqual(
            refused.conversation.errors,
            [
                b"Your pattern is disabled after too many wrong tries; an administrator can re-enable it "
                b"(patternctl reset). Your password still works. " + NO_ROUTE
            ],
        )

    def test_silent_prompt_says_the_tries_left(self):
        options = "deny=3 unlock_time=60"
        fresh = self.auth([b""], options=options, flags=PAM_SILENT)
        self.assertEqual(fresh.conversation.prompts, [b"Pattern: "], "no failure yet: the plain prompt")
        self.auth([WRONGS[0].encode()], options=options, flags=PAM_SILENT)
        after_one = self.auth([WRONGS[1].encode()], options=options, flags=PAM_SILENT)
        self.assertEqual(after_one.conversation.prompts, [b"Pattern (2 tries before a wait): "])
        self.assertEqual(after_one.conversation.errors, [], "PAM_SILENT: no message")
        after_two = self.auth([b""], options=options, flags=PAM_SILENT)
        self.assertEqual(after_two.conversation.prompts, [b"Pattern (1 try before a wait): "])
        with_password = self.auth([b""], options=options + " forward_pass", flags=PAM_SILENT)
        self.assertEqual(with_password.conversation.prompts, [b"Pattern or password (1 try before a wait): "])
        # Not silent: the message says it, the prompt stays plain.
        loud = self.auth([b""], options=options)
        self.assertEqual(loud.conversation.prompts, [b"Pattern: "])

    def test_silent_locked_pattern_with_forward_pass_asks_for_the_password_saying_why(self):
        options = "deny=1 unlock_time=60 forward_pass"
        self.auth([WRONGS[0].encode()], options=options)
        # The next module sees the token (pam_exec expose_authtok writes what it got), as pam_unix
        # try_first_pass would.
        token_file = os.path.join(self.fixture.root, "token")
        script = os.path.join(self.fixture.root, "capture-token")
        with open(script, "w") as f:
            f.write("#!/bin/sh\ncat > '%s'\nexit 0\n" % token_file)
        os.chmod(script, 0o700)
        write_service(
            self.fixture.confdir,
            "forward",
            [
                module_line(self.fixture.options(options), "sufficient"),
                "auth required pam_exec.so quiet expose_authtok %s" % script,
            ],
        )
        locked = authenticate(self.fixture.confdir, "forward", USER, Conversation([b"my password"]), flags=PAM_SILENT)
        self.assertCode(locked, PAM_SUCCESS)  # the password module after it took the handed-on password
        self.assertEqual(len(locked.conversation.prompts), 1, locked)
        self.assertRegex(
            locked.conversation.prompts[0],
            rb"^Password \(pattern locked: try again in (1 minute|[1-5]?\d seconds)\): $",
        )
        with open(token_file, "rb") as f:
            self.assertEqual(f.read().rstrip(b"\0"), b"my password", "handed on to the password module")
        self.assertEqual(failures(self.fixture.state_dir, USER), 1, "a locked pattern counts nothing")
        # Without PAM_SILENT the message says why and there is no prompt of the module's.
        loud = self.auth([], options=options)
        self.assertEqual(loud.conversation.prompts, [])
        self.assertEqual(len(loud.conversation.errors), 1, loud)

    def test_the_helpers_password_check_asks_for_no_pattern(self):
        result = self.auth([PATTERN.encode()], service="patternctl")
        self.assertCode(result, PAM_IGNORE)
        self.assertNotIn(PAM_PROMPT_ECHO_OFF, [style for style, _ in result.conversation.messages])
        self.assertEqual(failures(self.fixture.state_dir, USER), 0)


class QuietServicesTest(FixtureCase):
    """`quiet_services = sddm` (for SDDM before 0.20, which can lose the prompt that follows a message): the same
    attempts through service "sddm" and through another service, one user each, on the same configuration."""

    LOUD, QUIET = ("bob", "login-test"), (USER, "sddm")

    def setUp(self):
        super().setUp()
        self.fixture.enrol(self.LOUD[0], PATTERN)
        self.conf = self.fixture.write_conf("deny = 2\nunlock_time = 60\nquiet_services = kde, sddm\n")

    def attempts(self, user, service):
        """Not a pattern, a wrong one, the right one (after a failure), two wrong ones (the second starts a
        wait), then one while the pattern waits: each attempt's code, messages and the failures counted after it."""
        self.fixture.service("conf=%s show_grid" % self.conf, name=service)
        steps = []
        for answers in (
            [b"96a3"],
            [WRONGS[0].encode()],
            [PATTERN.encode()],
            [WRONGS[1].encode()],
            [WRONGS[2].encode()],
            [],
        ):
            result = authenticate(self.fixture.confdir, service, user, Conversation(answers))
            steps.append((result.code, result.conversation.messages, failures(self.fixture.state_dir, user)))
        return steps

    def test_a_quiet_service_gets_only_the_prompts_with_the_same_verdicts_and_counts(self):
        loud = self.attempts(*self.LOUD)
        quiet = self.attempts(*self.QUIET)
        codes = [PAM_AUTH_ERR, PAM_AUTH_ERR, PAM_SUCCESS, PAM_AUTH_ERR, PAM_AUTH_ERR, PAM_AUTH_ERR]
        self.assertEqual([code for code, _, _ in loud], codes, loud)
        self.assertEqual([code for code, _, _ in quiet], codes, quiet)
        self.assertEqual([count for _, _, count in quiet], [0, 1, 0, 1, 2, 2])
        self.assertEqual([count for _, _, count in loud], [count for _, _, count in quiet])
        # Told everything elsewhere: the grid, not a pattern, wrong, the failure since, the wait, the wait again.
        said = [
            [text for style, text in messages if style in (PAM_ERROR_MSG, PAM_TEXT_INFO)] for _, messages, _ in loud
        ]
        self.assertTrue(all(said), loud)
        self.assertIn(b"Not a pattern", said[0][-1])
        self.assertIn(b"Wrong pattern. 1 try left before a wait.", said[1][-1])
        self.assertIn(b"1 failed pattern attempt since your last success", said[2][-1])
        self.assertIn(b"try again in 1 minute", said[4][-1])
        self.assertIn(b"Too many wrong patterns", said[5][0])
        # Told nothing in "sddm": no grid, no error, no notice; the prompt still goes out wherever it did.
        for (_, loud_messages, _), (_, messages, _) in zip(loud, quiet):
            self.assertEqual([style for style, _ in messages if style != PAM_PROMPT_ECHO_OFF], [], messages)
            self.assertEqual(
                len(messages), len([1 for style, _ in loud_messages if style == PAM_PROMPT_ECHO_OFF]), quiet
            )
        self.assertEqual(len(quiet[-1][1]), 0, "a waiting pattern is not asked for")

    def test_only_the_named_services_are_quiet(self):
        for service, told in (("sddm", False), ("kde", False), ("sddm-greeter", True), ("sdd", True), ("SDDM", False)):
            with self.subTest(service=service):
                self.fixture.service("conf=%s" % self.conf, name=service.lower())
                # libpam lower-cases the service name, so "SDDM" is service "sddm".
                result = authenticate(self.fixture.confdir, service, USER, Conversation([b"96a3"]))
                self.assertEqual(result.code, PAM_AUTH_ERR, result)
                self.assertEqual(bool(result.conversation.errors), told, result)


if __name__ == "__main__":
    unittest.main()
