"""One answer, judged once per pam_authenticate call (StackVerdict.swift): a stack with two pam_pattern lines
(a service file's own line, then the pam-auth-update profile's line in an included common-auth) prompts once
and counts once; a new pam_authenticate call on the same handle is a new answer.
"""

import os

from support.formats import failures
from support.pam import (
    PAM_AUTH_ERR,
    PAM_IGNORE,
    PAM_SUCCESS,
    PAM_TEXT_INFO,
    Conversation,
    authenticate,
    authenticate_calls,
    code_name,
    module_line,
)
from support.sandbox import FixtureCase

USER = "alice"
PATTERN = "1235789"
WRONG = "14789"
OTHER_WRONG = "36987"
# pam_echo marks that the password's place in the stack was reached (pam_unix would prompt there).
PASSWORD_MARKER = b"the password would be asked here"


class StackVerdictTest(FixtureCase):
    def write_stack(self, first_control="sufficient", first_options="nullok", second_options="nullok"):
        """The README's layout: the service's own pattern line, then 'include' of a common-auth as
        pam-auth-update writes it with the profile; the password's place is marked by pam_echo."""
        common = os.path.join(self.fixture.confdir, "pattern-common-auth")
        with open(common, "w") as f:
            f.write(
                "\n".join(
                    [
                        # pam-auth-update writes the profile's "success=end" as a jump past pam_unix.
                        module_line(self.fixture.options(second_options), "[success=2 default=ignore]"),
                        "auth optional pam_echo.so %s" % PASSWORD_MARKER.decode(),
                        "auth requisite pam_deny.so",
                        "auth required pam_permit.so",
                        "",
                    ]
                )
            )
        with open(os.path.join(self.fixture.confdir, "pattern-locker"), "w") as f:
            f.write(
                "\n".join(
                    [
                        module_line(self.fixture.options(first_options), first_control),
                        # pam_start_confdir resolves only an absolute include.
                        "auth include %s" % common,
                        "account required pam_permit.so",
                        "",
                    ]
                )
            )
        return "pattern-locker"

    def failures(self):
        return failures(self.fixture.state_dir, USER)

    def assertCode(self, code, expected, context=None):
        self.assertEqual(code_name(code), code_name(expected), context)

    def test_a_wrong_pattern_is_asked_once_and_counted_once(self):
        conversation = Conversation([WRONG.encode()])
        result = authenticate(self.fixture.confdir, self.write_stack(), USER, conversation)
        self.assertCode(result.code, PAM_AUTH_ERR, result)
        self.assertEqual(len(conversation.prompts), 1, conversation.messages)
        self.assertEqual(conversation.unexpected_prompts, 0)
        self.assertEqual(self.failures(), 1)
        # The second line passed the first one's verdict on: the stack went on to the password.
        self.assertIn((PAM_TEXT_INFO, PASSWORD_MARKER), conversation.messages)
        self.assertEqual(len([m for m in conversation.errors if m.startswith(b"Wrong pattern")]), 1)

    def test_the_second_line_returns_the_first_lines_success(self):
        # The first line only notes success (optional); the profile's line ends the stack with it, unasked.
        conversation = Conversation([PATTERN.encode()])
        result = authenticate(self.fixture.confdir, self.write_stack(first_control="optional"), USER, conversation)
        self.assertCode(result.code, PAM_SUCCESS, result)
        self.assertEqual(len(conversation.prompts), 1, conversation.messages)
        self.assertNotIn((PAM_TEXT_INFO, PASSWORD_MARKER), conversation.messages)
        self.assertEqual(self.failures(), 0)

    def test_an_empty_answer_skips_both_lines(self):
        conversation = Conversation([b""])
        result = authenticate(self.fixture.confdir, self.write_stack(), USER, conversation)
        self.assertCode(result.code, PAM_AUTH_ERR, result)  # pam_deny, after the password's place
        self.assertEqual(len(conversation.prompts), 1, conversation.messages)
        self.assertIn((PAM_TEXT_INFO, PASSWORD_MARKER), conversation.messages)

    def test_lines_with_different_options_share_the_verdict(self):
        stack = self.write_stack(first_options="nullok show_grid", second_options="nullok prompt=Other:")
        conversation = Conversation([WRONG.encode()])
        authenticate(self.fixture.confdir, stack, USER, conversation)
        self.assertEqual(len(conversation.prompts), 1, conversation.messages)
        self.assertEqual(self.failures(), 1)

    def test_each_new_call_on_the_handle_is_a_new_answer(self):
        # i3lock and authproto_pam keep one handle and call pam_authenticate once per typed answer.
        conversation = Conversation([WRONG.encode(), OTHER_WRONG.encode(), PATTERN.encode()])
        codes = authenticate_calls(self.fixture.confdir, self.write_stack(), USER, conversation, calls=3)
        self.assertEqual(
            [code_name(c) for c in codes], [code_name(c) for c in (PAM_AUTH_ERR, PAM_AUTH_ERR, PAM_SUCCESS)]
        )
        self.assertEqual(len(conversation.prompts), 3, conversation.messages)
        self.assertEqual(conversation.unexpected_prompts, 0)
        self.assertEqual(self.failures(), 0)  # the success reset the two counted failures

    def test_two_wrong_calls_count_two(self):
        conversation = Conversation([WRONG.encode(), OTHER_WRONG.encode()])
        authenticate_calls(self.fixture.confdir, self.write_stack(), USER, conversation, calls=2)
        self.assertEqual(len(conversation.prompts), 2, conversation.messages)
        self.assertEqual(self.failures(), 2)

    def test_a_new_call_after_the_first_line_was_skipped_keeps_nothing_stale(self):
        # A user without a pattern: both lines skip (PAM_IGNORE) in each call, no prompt at all.
        conversation = Conversation([])
        codes = authenticate_calls(self.fixture.confdir, self.write_stack(), "carol", conversation, calls=2)
        self.assertEqual(conversation.prompts, [])
        self.assertEqual([code_name(c) for c in codes], [code_name(PAM_AUTH_ERR)] * 2)
        self.assertNotEqual(PAM_IGNORE, codes[0])
