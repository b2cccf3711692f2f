"""pam_pattern_helper obeys /etc/security/pam_pattern.conf, and only that file:
its throttle and minimum length apply to a user calling it directly, and an
unsafe or malformed file makes it answer "unavailable" (exit 5) without
counting anything. The file is written inside the private namespace of
support.helper (a tmpfs over /etc/security), never in the real /etc.
"""

import shlex
import unittest

from support import helper

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401
from support.system import as_user
from support.helper import PATTERN, WRONG_PATTERN

CONF = "/etc/security/pam_pattern.conf"


def nul(text):
    return "printf '%%s\\0' '%s'" % text


class HelperConfTest(helper.HelperCase):
    USER = "pphconf1"

    def calls(self, conf_text, calls, mode="0644"):
        """Writes the conf (as root, in the namespace), then makes each (operation, stdin) call as the user."""
        script = "rm -f %s; printf '%%s' %s > %s; chmod %s %s\n" % (CONF, shlex.quote(conf_text), CONF, mode, CONF)
        for operation, stdin_expr in calls:
            script += as_user(self.user, helper.helper_call(operation, self.USER, stdin_expr)) + "; echo '--'\n"
        done = self.sandbox.run(script)
        self.assertEqual(done.returncode, 0, done.stderr)
        return [helper.parse_call(part.encode()) for part in done.stdout.decode().split("--\n")[:-1]]

    def test_throttle_and_minlen_come_from_the_file(self):
        results = self.calls(
            "deny = 2\nunlock_time = 120\nminlen = 6\n",
            [
                ("check", "printf ''"),
                ("verify", nul("12345")),  # 5 dots: malformed under minlen=6, not counted
                ("verify", nul(WRONG_PATTERN)),
                ("verify", nul("147896")),  # a different wrong one: a repeat would not be counted
                ("verify", nul(PATTERN)),  # locked: deny=2
            ],
        )
        self.assertEqual(
            results[:4],
            [
                ("allowed 2", helper.SUCCESS),
                ("malformed minlen 6", helper.MALFORMED),
                ("wrong allowed 1", helper.WRONG),
                ("wrong wait 120", helper.WRONG),
                ("locked wait 120", helper.LOCKED),
            ][:4],
        )
        # The wait is counted from the last failure: a second boundary between the two calls makes it 119.
        self.assertIn(results[4], [("locked wait 120", helper.LOCKED), ("locked wait 119", helper.LOCKED)])
        self.assertEqual(self.sandbox.failures(self.USER), 2)

    def test_unusable_file_answers_unavailable_and_counts_nothing(self):
        for name, text, mode in (
            ("malformed", "deny = 2\nunlock_time = soon\n", "0644"),
            ("group-writable", "deny = 2\n", "0664"),
            ("argument-only key", "nullok = yes\n", "0644"),
        ):
            with self.subTest(name):
                results = self.calls(text, [("verify", nul(WRONG_PATTERN)), ("check", "printf ''")], mode)
                self.assertEqual(results, [("unavailable", helper.UNAVAILABLE)] * 2)
                self.assertEqual(self.sandbox.failures(self.USER), 0)


if __name__ == "__main__":
    unittest.main()
