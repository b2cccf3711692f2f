"""What the module logs through pam_syslog: failed attempts at LOG_NOTICE,
broken stores at LOG_CRIT, bad options at LOG_ERR, and never the typed digits,
the canonical pattern or the hash (CVE-2019-12209 style leaks).

syslog(3) writes to /dev/log. A forked child gets a private mount namespace
with a tmpfs on /dev and binds its own datagram socket at /dev/log, so the
test sees every line and the host's logging is untouched.
"""

import unittest

from support.pam import Conversation, PAM_SILENT, authenticate
from support.sandbox import FixtureCase
from support.system import LOG_CRIT, LOG_ERR, LOG_NOTICE, capture_syslog, in_child

USER = "alice"
PATTERN = "1235789"
WRONG = "14789"
MALFORMED = "96a3"


class LoggingTest(FixtureCase):
    def setUp(self):
        super().setUp()
        self.hash = self.fixture.hashes[USER.encode()]

    def logged(self, attempts):
        fixture = self.fixture

        def actions():
            for options, user, answers, *flags in attempts:
                authenticate(
                    fixture.confdir,
                    fixture.service(options),
                    user,
                    Conversation(answers),
                    flags=flags[0] if flags else 0,
                )

        try:
            return in_child(lambda: capture_syslog(actions))
        except AssertionError as error:
            if "SkipTest" in str(error):
                self.skipTest(str(error))
            raise

    def assertNoSecrets(self, lines):
        for _, text in lines:
            for secret in (PATTERN.encode(), WRONG.encode(), MALFORMED.encode(), b"1379", self.hash):
                self.assertNotIn(secret, text)

    def test_wrong_and_malformed_attempts_are_notices_without_digits(self):
        lines = self.logged(
            [
                ("", USER, [WRONG.encode()]),
                ("", USER, [MALFORMED.encode()]),
                ("", USER, [b"1379"]),
            ]
        )
        self.assertNoSecrets(lines)
        notices = [text for severity, text in lines if severity == LOG_NOTICE]
        self.assertTrue(any(b"wrong pattern for user alice" in t for t in notices), lines)
        self.assertTrue(any(b"malformed pattern from user alice" in t for t in notices), lines)
        ours = [t for _, t in lines if b"pam_pattern" in t]
        self.assertTrue(ours and all(b"pam_pattern(pattern-test:auth)" in t for t in ours), lines)

    def test_lock_under_pam_silent_is_logged_with_the_wait(self):
        # sudo before 1.9.16 passes PAM_SILENT: the person is not told, so the log must say who and how long.
        lines = self.logged(
            [
                ("deny=1 unlock_time=60", USER, [WRONG.encode()], PAM_SILENT),
                ("deny=1 unlock_time=60", USER, [], PAM_SILENT),
            ]
        )
        self.assertNoSecrets(lines)
        locked = [
            text for severity, text in lines if severity == LOG_NOTICE and b"pattern locked for user alice" in text
        ]
        self.assertEqual(len(locked), 1, lines)
        self.assertRegex(locked[0], rb"\(too many wrong patterns; next try in (59|60) s\); not told \(PAM_SILENT\)")

    def test_lock_in_a_quiet_service_is_logged_with_the_wait(self):
        # quiet_services: the person at SDDM 0.19 is not told either; the log says so and why.
        conf = self.fixture.write_conf("quiet_services = pattern-test\n")
        options = "conf=%s deny=1 unlock_time=60" % conf
        lines = self.logged([(options, USER, [WRONG.encode()]), (options, USER, [])])
        self.assertNoSecrets(lines)
        self.assertTrue(any(severity == LOG_NOTICE and b"wrong pattern for user alice" in t for severity, t in lines))
        locked = [
            text for severity, text in lines if severity == LOG_NOTICE and b"pattern locked for user alice" in text
        ]
        self.assertEqual(len(locked), 1, lines)
        self.assertRegex(locked[0], rb"\(too many wrong patterns; next try in (59|60) s\); not told \(quiet_services\)")

    def test_broken_store_is_critical(self):
        with open(self.fixture.store, "ab") as f:
            f.write(b"garbage\n")
        lines = self.logged([("", USER, [])])
        self.assertNoSecrets(lines)
        self.assertTrue(any(severity == LOG_CRIT and b"store" in text for severity, text in lines), lines)

    def test_unknown_option_is_an_error(self):
        lines = self.logged([("bogus_option", USER, [PATTERN.encode()])])
        self.assertTrue(
            any(severity == LOG_ERR and b"unknown option \"bogus_option\"" in text for severity, text in lines), lines
        )

    def test_debug_logs_decisions_without_digits(self):
        lines = self.logged([("debug", USER, [PATTERN.encode()]), ("debug", USER, [WRONG.encode()])])
        self.assertNoSecrets(lines)
        self.assertTrue(any(b"result: accepted" in text for _, text in lines), lines)

    def test_hostile_user_name_cannot_forge_log_lines(self):
        lines = self.logged([("", "bob\nroot", [])])
        for _, text in lines:
            self.assertNotIn(b"\nroot", text)


if __name__ == "__main__":
    unittest.main()
