"""Any of the last 5 distinct wrong patterns typed again within 5 minutes is answered "wrong" and not counted
(RepeatedGuess.swift, as Android's 2025 rate limiter), through the real libpam; different guesses are all
counted, and the remembered guesses are keyed tags, never the digits, under a key kept beside the store, not in
the state directory.
"""

import os
import re
import subprocess
import time

from support.formats import attempt_record_file, failures
from support.pam import PAM_AUTH_ERR, PAM_SUCCESS, Conversation, authenticate, code_name
from support.sandbox import FixtureCase

USER = "alice"
PATTERN = "1235789"
WRONG = "14789"
OTHER_WRONG = "36987"
THIRD_WRONG = "74123"
# Six distinct wrong patterns besides the ones above.
SIX_WRONGS = ["2759", "3816", "4927", "6183", "7296", "8349"]


class RepeatedGuessTest(FixtureCase):
    def auth(self, answer, options="deny=100 lock_after=0"):
        service = self.fixture.service(options, name="pattern-repeat")
        return authenticate(self.fixture.confdir, service, USER, Conversation([answer.encode()]))

    def guesses(self, *answers, options="deny=100 lock_after=0"):
        results = [self.auth(answer, options) for answer in answers]
        return [code_name(result.code) for result in results], results

    def failures(self):
        return failures(self.fixture.state_dir, USER)

    def key_path(self):
        return os.path.join(
            os.path.dirname(self.fixture.store), ".%s.repeat-key" % os.path.basename(self.fixture.store)
        )

    def test_the_same_wrong_pattern_three_times_costs_one_try(self):
        codes, results = self.guesses(WRONG, WRONG, WRONG)
        self.assertEqual(codes, [code_name(PAM_AUTH_ERR)] * 3)
        self.assertEqual(self.failures(), 1)
        # Each is told it is wrong, with the same tries left.
        for result in results:
            self.assertEqual(
                result.conversation.errors,
                [
                    b"Wrong pattern. 99 tries left before a wait. Forgot your pattern? Set a new one with your password: "
                    b"patternctl set --forgot"
                ],
                result,
            )

    def test_three_different_wrong_patterns_cost_three(self):
        self.guesses(WRONG, OTHER_WRONG, THIRD_WRONG)
        self.assertEqual(self.failures(), 3)

    def test_back_and_forth_between_two_wrong_patterns_costs_two_tries(self):
        codes, results = self.guesses(WRONG, OTHER_WRONG, WRONG, OTHER_WRONG)
        self.assertEqual(codes, [code_name(PAM_AUTH_ERR)] * 4)
        self.assertEqual(self.failures(), 2)
        for result in results[1:]:
            self.assertEqual(
                result.conversation.errors,
                [
                    b"Wrong pattern. 98 tries left before a wait. Forgot your pattern? Set a new one with your password: "
                    b"patternctl set --forgot"
                ],
                result,
            )

    def test_six_distinct_wrong_patterns_cost_six_and_the_first_is_forgotten(self):
        self.guesses(*SIX_WRONGS)
        self.assertEqual(self.failures(), 6)
        # Only the last five are remembered: the sixth back is counted, the fifth back is free.
        self.guesses(SIX_WRONGS[0])
        self.assertEqual(self.failures(), 7)
        self.guesses(SIX_WRONGS[2])
        self.assertEqual(self.failures(), 7)

    def test_a_repeat_after_five_minutes_is_counted(self):
        self.guesses(WRONG, OTHER_WRONG)
        # The record says when each was judged wrong: make WRONG's 301 s old, OTHER_WRONG's 299 s.
        path = attempt_record_file(self.fixture.state_dir, USER)
        with open(path, "rb") as f:
            record = f.read()
        lines = re.findall(rb"^repeat [0-9a-f]{64} (\d+)$", record, re.M)
        self.assertEqual(len(lines), 2, record)
        now = int(time.time())
        times = iter([b"%d" % (now - 301), b"%d" % (now - 299)])
        record = re.sub(rb"^(repeat [0-9a-f]{64}) \d+$", lambda m: m.group(1) + b" " + next(times), record, flags=re.M)
        with open(path, "wb") as f:
            f.write(record)
        self.guesses(OTHER_WRONG)
        self.assertEqual(self.failures(), 2)
        self.guesses(WRONG)
        self.assertEqual(self.failures(), 3)

    def test_a_record_written_before_times_were_kept_still_reads(self):
        # The record as the last release wrote it: one "repeat TAG" line, no time. It is read (the listed
        # attempts stay), and its tag counts as expired: the repeat is counted once more, then free.
        self.guesses(WRONG)
        path = attempt_record_file(self.fixture.state_dir, USER)
        with open(path, "rb") as f:
            record = f.read()
        old = re.sub(rb"^(repeat [0-9a-f]{64}) \d+$", rb"\1", record, flags=re.M)
        self.assertNotEqual(old, record)
        with open(path, "wb") as f:
            f.write(old)
        codes, _ = self.guesses(WRONG, WRONG)
        self.assertEqual(codes, [code_name(PAM_AUTH_ERR)] * 2)
        self.assertEqual(self.failures(), 2)
        with open(path, "rb") as f:
            self.assertEqual(len(f.read().splitlines()), 1 + 1 + 2, "the attempts listed before stay")

    def test_a_repeat_after_a_success_is_counted(self):
        codes, _ = self.guesses(WRONG, PATTERN, WRONG)
        self.assertEqual(codes, [code_name(c) for c in (PAM_AUTH_ERR, PAM_SUCCESS, PAM_AUTH_ERR)])
        self.assertEqual(self.failures(), 1)

    def test_a_repeat_after_a_reset_is_counted(self):
        self.guesses(WRONG)
        done = subprocess.run(self.fixture.ctl_argv("reset", USER), capture_output=True, timeout=60)
        self.assertEqual(done.returncode, 0, done)
        self.guesses(WRONG)
        self.assertEqual(self.failures(), 1)

    def test_repeats_do_not_reach_a_lockout(self):
        # deny=2: two wrong guesses start a wait; one mistake typed five times does not.
        self.guesses(WRONG, WRONG, WRONG, WRONG, WRONG, options="deny=2 unlock_time=60")
        self.assertEqual(self.failures(), 1)
        self.assertEqual(code_name(self.auth(PATTERN, "deny=2 unlock_time=60").code), code_name(PAM_SUCCESS))

    def test_a_new_pattern_equal_to_the_remembered_wrong_one_opens(self):
        # Root sets the pattern to what was just typed wrong (the state is not reset by writing the store):
        # the remembered tag belongs to the old record, so the guess is checked, not answered "wrong".
        self.guesses(WRONG)
        self.fixture.enrol(USER, WRONG)
        self.assertEqual(code_name(self.auth(WRONG).code), code_name(PAM_SUCCESS))

    def test_the_tag_is_keyed_and_never_the_digits(self):
        self.guesses(WRONG)
        with open(attempt_record_file(self.fixture.state_dir, USER), "rb") as f:
            record = f.read()
        self.assertNotIn(WRONG.encode(), record)
        tag = [line for line in record.splitlines() if line.startswith(b"repeat ")]
        self.assertEqual(len(tag), 1, record)
        self.assertRegex(tag[0], rb"^repeat [0-9a-f]{64} \d+$")
        # The key: beside the store, root-only, 32 bytes; none in the state directory.
        st = os.stat(self.key_path())
        self.assertEqual((st.st_uid, st.st_mode & 0o7777, st.st_nlink, st.st_size), (0, 0o600, 1, 32))
        self.assertFalse(any("key" in name for name in os.listdir(self.fixture.state_dir)))
        # Another key: the remembered tag no longer matches, so the repeat is counted.
        os.unlink(self.key_path())
        self.guesses(WRONG)
        self.assertEqual(self.failures(), 2)
        self.assertTrue(os.path.exists(self.key_path()))

    def test_an_unsafe_key_is_not_used(self):
        self.guesses(WRONG)
        os.chmod(self.key_path(), 0o644)
        self.guesses(WRONG)
        self.assertEqual(self.failures(), 2)
