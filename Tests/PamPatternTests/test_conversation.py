"""The conversation-failure matrix every PAM module must survive: each case returns a
documented non-success code, counts nothing, and the host process survives.

Every case runs in a forked child (harness in_child), so a crash fails the
case with the signal's name instead of killing the test run.
"""

import unittest

from support.formats import failures
from support.pam import (
    CONV_ERR,
    Conversation,
    NULL_ANSWER,
    NULL_RESPONSES,
    PAM_AUTH_ERR,
    PAM_CONV_ERR,
    authenticate,
    code_name,
    summary,
)
from support.sandbox import FixtureCase
from support.system import in_child

USER = "alice"
PATTERN = b"1235789"


class ConversationFailureTest(FixtureCase):
    def run_case(self, conversation_factory, options=""):
        service = self.fixture.service(options)
        fixture = self.fixture

        def case():
            return summary(authenticate(fixture.confdir, service, USER, conversation_factory()))

        return in_child(case)

    def assertRefused(self, outcome, expected):
        self.assertEqual(code_name(outcome["code"]), code_name(expected), outcome)
        self.assertEqual(failures(self.fixture.state_dir, USER), 0, "a failed conversation is not a guess")

    def test_null_conversation_function(self):
        for options in ("", "show_grid", "forward_pass"):
            with self.subTest(options=options):
                self.assertRefused(self.run_case(lambda: Conversation(null_function=True), options), PAM_CONV_ERR)

    def test_conversation_returns_conv_err(self):
        for options in ("", "show_grid", "forward_pass"):
            with self.subTest(options=options):
                outcome = self.run_case(lambda: Conversation([CONV_ERR]), options)
                self.assertRefused(outcome, PAM_CONV_ERR)
                self.assertEqual(len(outcome["prompts"]), 1)

    def test_success_with_null_response_array(self):
        for options in ("", "forward_pass"):
            with self.subTest(options=options):
                self.assertRefused(self.run_case(lambda: Conversation([NULL_RESPONSES]), options), PAM_CONV_ERR)

    def test_success_with_null_response_string(self):
        # Not an empty answer: a NULL string must never become PAM_IGNORE.
        for options in ("", "forward_pass", "nullok"):
            with self.subTest(options=options):
                self.assertRefused(self.run_case(lambda: Conversation([NULL_ANSWER]), options), PAM_CONV_ERR)

    def test_one_mebibyte_answer(self):
        huge = b"1" * (1 << 20)
        outcome = self.run_case(lambda: Conversation([huge]))
        self.assertRefused(outcome, PAM_AUTH_ERR)
        # The one fixed sentence for every non-pattern (how long it was is not said either).
        self.assertEqual(
            [m for s, m in outcome["messages"] if s == 3],
            [b"Not a pattern: type the dots of your pattern as digits 1-9, each dot once."],
        )

    def test_one_mebibyte_answer_is_not_forwarded(self):
        huge = b"x" * (1 << 20)
        self.assertRefused(self.run_case(lambda: Conversation([huge]), "forward_pass"), PAM_AUTH_ERR)

    def test_one_mebibyte_answer_starting_with_the_right_pattern(self):
        # Only the first 65 bytes are looked at, but a long answer is never cut
        # down to a pattern that happens to match.
        huge = PATTERN + b"5" * ((1 << 20) - len(PATTERN))
        self.assertRefused(self.run_case(lambda: Conversation([huge])), PAM_AUTH_ERR)

    def test_failing_info_messages_do_not_matter(self):
        # show_grid's PAM_TEXT_INFO goes through a conversation that then answers
        # the prompt correctly: still a success.
        outcome = self.run_case(lambda: Conversation([PATTERN]), "show_grid")
        self.assertEqual(code_name(outcome["code"]), "PAM_SUCCESS", outcome)


if __name__ == "__main__":
    unittest.main()
