"""pam_sm_authenticate through the real libpam (pam_start_confdir, a private
service dir, a temp store): every branch of the flow in Authenticate.swift.
"""

import os
import time
import unittest

from support.formats import failures
from support.pam import (
    Conversation,
    PAM_AUTHINFO_UNAVAIL,
    PAM_AUTH_ERR,
    PAM_CONV_ERR,
    PAM_DISALLOW_NULL_AUTHTOK,
    PAM_IGNORE,
    PAM_PROMPT_ECHO_OFF,
    PAM_RHOST,
    PAM_SILENT,
    PAM_SUCCESS,
    PAM_TEXT_INFO,
    PAM_TTY,
    PAM_USER_UNKNOWN,
    authenticate,
    code_name,
    module_line,
    write_service,
)
from support.sandbox import FixtureCase

USER = "alice"
PATTERN = "1235789"  # enrolled canonical pattern (dots)
SHORT_FORM = "1379"  # the same pattern typed with the passed-over dots left out
NUMPAD_KEYS = "7895123"  # the same dots typed on a computer numpad (7 8 9 on top)
WRONG = "14789"
OTHER_WRONG = "36987"
# The module's one sentence for every answer that is not a pattern (never quotes the answer).
NOT_A_PATTERN = b"Not a pattern: type the dots of your pattern as digits 1-9, each dot once."


class AuthenticateTestCase(FixtureCase):
    def auth(self, answers=(), options="", user=USER, **kwargs):
        service = self.fixture.service(options)
        return authenticate(self.fixture.confdir, service, user, Conversation(answers), **kwargs)

    def assertCode(self, result, expected):
        self.assertEqual(code_name(result.code), code_name(expected), result)

    def assertFailDelay(self, result):
        # pam_fail_delay(2 s); libpam randomises the delay it passes to the
        # application's callback by up to 50 % (pam_delay.c).
        self.assertTrue(result.conversation.fail_delays, result)
        self.assertTrue(1_000_000 <= max(result.conversation.fail_delays) <= 3_000_000, result.conversation.fail_delays)

    def assertNoFailDelay(self, result):
        self.assertEqual([d for d in result.conversation.fail_delays if d], [], result)

    def failures(self, user=USER):
        return failures(self.fixture.state_dir, user)


class RightAndWrongTest(AuthenticateTestCase):
    def test_right_pattern_succeeds_with_one_echo_off_prompt(self):
        result = self.auth([PATTERN.encode()])
        self.assertCode(result, PAM_SUCCESS)
        self.assertEqual(result.conversation.messages, [(PAM_PROMPT_ECHO_OFF, b"Pattern: ")])
        self.assertNoFailDelay(result)

    def test_short_form_of_the_same_pattern_succeeds(self):
        self.assertCode(self.auth([SHORT_FORM.encode()]), PAM_SUCCESS)

    def test_wrong_pattern_fails_and_is_counted(self):
        result = self.auth([WRONG.encode()])
        self.assertCode(result, PAM_AUTH_ERR)
        self.assertEqual(self.failures(), 1)
        self.assertEqual(
            result.conversation.errors,
            [
                b"Wrong pattern. 4 tries left before a wait."
                + b" Forgot your pattern? Set a new one with your password: patternctl set --forgot"
            ],
        )
        self.assertFailDelay(result)

    def test_each_wrong_pattern_counts_and_the_right_one_resets(self):
        self.auth([WRONG.encode()])
        result = self.auth([b"2589"])
        self.assertEqual(self.failures(), 2)
        self.assertIn(b"3 tries left", result.conversation.text)
        self.assertCode(self.auth([PATTERN.encode()]), PAM_SUCCESS)
        self.assertEqual(self.failures(), 0)

    def test_right_pattern_of_another_user_is_wrong(self):
        self.fixture.enrol("bob", "7415963")
        self.assertCode(self.auth([b"7415963"]), PAM_AUTH_ERR)
        self.assertCode(self.auth([b"7415963"], user="bob"), PAM_SUCCESS)
        self.assertEqual(self.failures("bob"), 0)


class MalformedTest(AuthenticateTestCase):
    CASES = {
        b"12a5": b"a",  # not a dot (the old message named the character)
        b"1231": b"1",  # a dot used twice (named the dot)
        b"1205": b"0",  # zero
        b"123": b"3",  # too short: names the count
        b"1" * 65: b"64",  # too long: refused before any work
    }

    def test_malformed_fails_with_one_fixed_sentence_and_is_not_counted(self):
        for answer in self.CASES:
            with self.subTest(answer=answer[:10]):
                result = self.auth([answer])
                self.assertCode(result, PAM_AUTH_ERR)
                self.assertEqual(result.conversation.errors, [NOT_A_PATTERN], result)
                self.assertEqual(self.failures(), 0)
        # Nothing was counted: the right pattern still works at deny=1.
        self.assertCode(self.auth([PATTERN.encode()], options="deny=1"), PAM_SUCCESS)

    def test_a_password_typed_at_the_prompt_is_never_quoted_back(self):
        # A password out of habit, and answers whose old explanation named a character, a position or a dot.
        for answer in (b"VictimPw1", b"2112", b"9876x", b"1" * 65, b"12", b"1-2-a"):
            with self.subTest(answer=answer[:10]):
                result = self.auth([answer])
                self.assertCode(result, PAM_AUTH_ERR)
                self.assertEqual(result.conversation.text, NOT_A_PATTERN)

    def test_minlen_makes_a_valid_four_dot_pattern_too_short(self):
        self.fixture.enrol(USER, "1235")
        result = self.auth([b"1235"], options="minlen=6")
        self.assertCode(result, PAM_AUTH_ERR)
        self.assertEqual(result.conversation.errors, [NOT_A_PATTERN])
        self.assertEqual(self.failures(), 0)
        self.assertCode(self.auth([b"1235"]), PAM_SUCCESS)


class EmptyAnswerTest(AuthenticateTestCase):
    def second_factor(self, options):
        """`auth required pam_pattern.so OPTIONS` + `auth required pam_permit.so` (standing in for pam_unix
        with the right password): the whole stack's answer to someone who presses Enter at Pattern:."""
        write_service(
            self.fixture.confdir,
            "two-factors",
            [module_line(self.fixture.options(options), "required"), "auth required pam_permit.so"],
        )
        return authenticate(self.fixture.confdir, "two-factors", USER, Conversation([b""]))

    def test_without_empty_fails_enter_skips_a_required_factor(self):
        # Why the option exists: PAM_IGNORE leaves the module out of the verdict, the password decides.
        self.assertCode(self.second_factor(""), PAM_SUCCESS)

    def test_empty_fails_makes_enter_a_failure_not_counted(self):
        result = self.second_factor("empty_fails")
        self.assertCode(result, PAM_AUTH_ERR)
        self.assertEqual(result.conversation.errors, [b"A pattern is required."])
        self.assertEqual(self.failures(), 0)
        result = self.auth([b""], options="empty_fails")
        self.assertCode(result, PAM_AUTH_ERR)
        self.assertFailDelay(result)
        # The pattern itself still works with the option.
        self.assertCode(self.auth([PATTERN.encode()], options="empty_fails deny=1"), PAM_SUCCESS)

    def test_empty_answer_is_skipped_and_not_counted(self):
        result = self.auth([b""])
        self.assertCode(result, PAM_IGNORE)
        self.assertEqual(result.conversation.errors, [])
        self.assertNoFailDelay(result)
        self.assertEqual(self.failures(), 0)


class EnrolmentTest(AuthenticateTestCase):
    def test_not_enrolled_without_nullok_is_user_unknown_without_prompt(self):
        result = self.auth([], user="carol")
        self.assertCode(result, PAM_USER_UNKNOWN)
        self.assertEqual(result.conversation.prompts, [])

    def test_not_enrolled_with_nullok_is_ignored_without_prompt(self):
        result = self.auth([], options="nullok", user="carol")
        self.assertCode(result, PAM_IGNORE)
        self.assertEqual(result.conversation.prompts, [])

    def test_disallow_null_authtok_flag_overrides_nullok(self):
        result = self.auth([], options="nullok", user="carol", flags=PAM_DISALLOW_NULL_AUTHTOK)
        self.assertCode(result, PAM_USER_UNKNOWN)

    def test_nullok_does_not_skip_an_enrolled_user(self):
        self.assertCode(self.auth([WRONG.encode()], options="nullok"), PAM_AUTH_ERR)

    def test_user_names_no_store_line_can_hold_are_unknown(self):
        for user in ("", "a:b", "a b", "a\nb", "x" * 101):
            with self.subTest(user=user[:12]):
                result = self.auth([], options="nullok", user=user)
                self.assertCode(result, PAM_USER_UNKNOWN)
                self.assertEqual(result.conversation.prompts, [])

    def test_no_user_from_the_application_is_asked_for(self):
        # pam_get_user prompts (echo on) when the application gave no user.
        result = self.auth([b"alice", PATTERN.encode()], user=None)
        self.assertCode(result, PAM_SUCCESS)
        self.assertEqual(len(result.conversation.echo_on_prompts), 1)

    def test_no_user_and_no_answer_is_a_conversation_error(self):
        result = self.auth([], user=None)
        self.assertCode(result, PAM_CONV_ERR)


class RemoteTest(AuthenticateTestCase):
    def test_remote_host_is_refused_without_prompt(self):
        for host in (b"203.0.113.7", b"localhost", b"::1", b"example.org"):
            with self.subTest(host=host):
                result = self.auth([], items={PAM_RHOST: host})
                self.assertCode(result, PAM_AUTH_ERR)
                self.assertEqual(result.conversation.prompts, [])
        self.assertEqual(self.failures(), 0)

    def test_a_tunnelled_ssh_login_from_localhost_is_refused(self):
        # sshd sets PAM_TTY "ssh"; a login through a forward to this host has a loopback PAM_RHOST.
        for host in (b"localhost", b"127.0.0.1", b"::1"):
            for tty in (b"ssh", b"", b"/dev/pts/3", b"localhost:10.0"):
                with self.subTest(host=host, tty=tty):
                    result = self.auth([], items={PAM_RHOST: host, PAM_TTY: tty})
                    self.assertCode(result, PAM_AUTH_ERR)
                    self.assertEqual(result.conversation.prompts, [])
        self.assertEqual(self.failures(), 0)

    def test_a_locker_on_a_local_display_with_rhost_localhost_is_local(self):
        # xsecurelock's authproto_pam: PAM_RHOST=localhost, PAM_TTY=$DISPLAY.
        for tty in (b":0", b":99", b":1.0"):
            with self.subTest(tty=tty):
                result = self.auth([PATTERN.encode()], items={PAM_RHOST: b"localhost", PAM_TTY: tty})
                self.assertCode(result, PAM_SUCCESS)
        result = self.auth([WRONG.encode()], items={PAM_RHOST: b"localhost", PAM_TTY: b":0"})
        self.assertCode(result, PAM_AUTH_ERR)
        self.assertEqual(self.failures(), 1)

    def test_remote_refused_even_for_unenrolled_with_nullok(self):
        result = self.auth([], options="nullok", user="carol", items={PAM_RHOST: b"203.0.113.7"})
        self.assertCode(result, PAM_AUTH_ERR)

    def test_allow_remote_accepts_the_pattern(self):
        result = self.auth([PATTERN.encode()], options="allow_remote", items={PAM_RHOST: b"203.0.113.7"})
        self.assertCode(result, PAM_SUCCESS)

    def test_empty_rhost_is_local(self):
        self.assertCode(self.auth([PATTERN.encode()], items={PAM_RHOST: b""}), PAM_SUCCESS)


class ThrottleTest(AuthenticateTestCase):
    def test_throttled_refuses_without_prompt_then_accepts_after_the_wait(self):
        options = "deny=1 unlock_time=3"  # 3 s: the refusal below must come within the wait, on a busy machine too
        wrong = self.auth([WRONG.encode()], options=options)
        self.assertCode(wrong, PAM_AUTH_ERR)
        # The wrong pattern that starts the wait says it as the refusal after it does: one style for waits.
        self.assertIn(b"Wrong pattern. Too many wrong patterns: try again in 3 seconds.", wrong.conversation.text)
        refused = self.auth([], options=options)
        self.assertCode(refused, PAM_AUTH_ERR)
        self.assertEqual(refused.conversation.prompts, [])
        self.assertEqual(len(refused.conversation.errors), 1)
        self.assertIn(b"try again in ", refused.conversation.errors[0])
        self.assertIn(b"password still works", refused.conversation.errors[0])
        self.assertEqual(self.failures(), 1)  # a refusal is not a guess
        time.sleep(3.2)  # the real module reads the real clock; the wait is 3 s
        self.assertCode(self.auth([PATTERN.encode()], options=options), PAM_SUCCESS)
        self.assertEqual(self.failures(), 0)

    def test_lock_after_disables_the_pattern(self):
        options = "deny=5 lock_after=2"
        self.auth([WRONG.encode()], options=options)
        last = self.auth([OTHER_WRONG.encode()], options=options)  # a different one: a repeat is not counted
        self.assertIn(b"disabled", last.conversation.text)
        refused = self.auth([], options=options)
        self.assertCode(refused, PAM_AUTH_ERR)
        self.assertEqual(refused.conversation.prompts, [])
        self.assertIn(b"disabled", refused.conversation.errors[0])
        self.assertIn(b"password still works", refused.conversation.errors[0])


class LayoutAndPromptTest(AuthenticateTestCase):
    def test_numpad_layout(self):
        self.assertCode(self.auth([NUMPAD_KEYS.encode()], options="layout=numpad"), PAM_SUCCESS)
        self.assertCode(self.auth([b"7913"], options="layout=numpad"), PAM_SUCCESS)
        # The same keys on the phone layout are another pattern.
        self.assertCode(self.auth([NUMPAD_KEYS.encode()]), PAM_AUTH_ERR)

    def test_show_grid_comes_first_as_text_info(self):
        result = self.auth([PATTERN.encode()], options="show_grid")
        self.assertCode(result, PAM_SUCCESS)
        styles = [style for style, _ in result.conversation.messages]
        self.assertEqual(styles, [PAM_TEXT_INFO, PAM_PROMPT_ECHO_OFF])
        grid = result.conversation.messages[0][1]
        self.assertGreaterEqual(grid.count(b"\n"), 2, grid)  # three rows

    def test_custom_prompt_with_spaces(self):
        result = self.auth([PATTERN.encode()], options="[prompt=Draw your pattern: ]")
        self.assertCode(result, PAM_SUCCESS)
        self.assertEqual(result.conversation.prompts, [b"Draw your pattern: "])

    def test_silent_flag_hides_messages_but_still_prompts(self):
        result = self.auth([WRONG.encode()], flags=PAM_SILENT)
        self.assertCode(result, PAM_AUTH_ERR)
        self.assertEqual(result.conversation.messages, [(PAM_PROMPT_ECHO_OFF, b"Pattern: ")])

    def test_unknown_and_bad_options_are_ignored(self):
        result = self.auth([PATTERN.encode()], options="bogus minlen=99 nullok=1 layout=dvorak")
        self.assertCode(result, PAM_SUCCESS)
        self.assertEqual(result.conversation.prompts, [b"Pattern: "])


class StoreProblemTest(AuthenticateTestCase):
    """A store we cannot trust is PAM_AUTHINFO_UNAVAIL, never IGNORE, even with nullok."""

    def assertUnavailable(self, user=USER):
        for options in ("", "nullok"):
            result = self.auth([PATTERN.encode()], options=options, user=user)
            self.assertCode(result, PAM_AUTHINFO_UNAVAIL)
            self.assertEqual(result.conversation.prompts, [], "no prompt for a broken store")

    def test_missing_store_directory(self):
        os.rename(self.fixture.store_dir, self.fixture.store_dir + ".gone")
        self.assertUnavailable()
        self.assertUnavailable(user="carol")

    def test_missing_store_file_in_a_safe_directory_means_nobody_is_enrolled(self):
        os.unlink(self.fixture.store)
        self.assertCode(self.auth([]), PAM_USER_UNKNOWN)
        self.assertCode(self.auth([], options="nullok"), PAM_IGNORE)

    def test_corrupt_store(self):
        with open(self.fixture.store, "ab") as f:
            f.write(b"this is not a store line\n")
        self.assertUnavailable()
        self.assertUnavailable(user="carol")

    def test_torn_store(self):
        with open(self.fixture.store, "ab") as f:
            f.write(b"bob:$y$j9T$abc")  # no newline
        self.assertUnavailable()

    def test_store_readable_by_others(self):
        os.chmod(self.fixture.store, 0o644)
        self.assertUnavailable()

    def test_store_not_owned_by_root(self):
        os.chown(self.fixture.store, 65534, 65534)
        self.assertUnavailable()

    def test_store_directory_writable_by_others(self):
        os.chmod(self.fixture.store_dir, 0o777)
        self.assertUnavailable()

    def test_store_is_a_symlink(self):
        real = os.path.join(self.fixture.store_dir, "real")
        os.rename(self.fixture.store, real)
        os.symlink(real, self.fixture.store)
        self.assertUnavailable()

    def test_store_hard_linked(self):
        os.link(self.fixture.store, os.path.join(self.fixture.store_dir, "second-name"))
        self.assertUnavailable()

    def test_unsafe_state_directory(self):
        os.chmod(self.fixture.state_dir, 0o777)
        result = self.auth([PATTERN.encode()])
        self.assertCode(result, PAM_AUTHINFO_UNAVAIL)
        self.assertEqual(result.conversation.prompts, [])

    def test_state_file_owned_by_a_user(self):
        self.auth([WRONG.encode()])
        path = self.fixture.state_path(USER)
        os.chown(path, 65534, 65534)
        self.assertCode(self.auth([PATTERN.encode()]), PAM_AUTHINFO_UNAVAIL)


if __name__ == "__main__":
    unittest.main()
