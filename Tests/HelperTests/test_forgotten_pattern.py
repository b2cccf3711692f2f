"""A person who forgot their pattern sets a new one with their account password:
`patternctl set --forgot`, through the helper's `enroll`, typed on a real pty
with the pam-auth-update profile on (pam_pattern first in common-auth, which
/etc/pam.d/patternctl includes: the module must not take the password for a
pattern there). Each step is checked for what it counted:

- a wrong current pattern, and a locked one, are refused with words that name
  the route (`patternctl set --forgot`), or say that only an administrator
  can help when `self_enroll = no`;
- the route works while the pattern is locked, counts no pattern guess (a
  wrong password leaves the pattern's count as it was; the right one starts
  the new pattern with none), and the store then holds the new pattern;
- `self_enroll = no` refuses it before anything is asked or counted;
- an entry that is not a pattern at "Current pattern:" is asked again, not
  the end of the command.
"""

import unittest

from support import helper
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401
from support.system import as_user
from test_self_service import FIRST, PASSWORD, SECOND, SelfServiceCase

ROUTE = "Forgot your pattern? Set a new one with your password: patternctl set --forgot"
NO_ROUTE = "Forgot your pattern? Only an administrator can set a new one."


class ForgottenPatternTest(SelfServiceCase):
    USER = "ppforgot1"

    def namespace(self):
        return helper.Namespace(self, profile=True)

    def test_a_locked_pattern_is_replaced_after_the_password_counting_no_guess(self):
        self.sandbox.enrol(self.USER, FIRST)
        conf = "cost = 2\ndeny = 1\n"
        (wrong, wrong_out), (locked, locked_out), (bad_password, bad_password_out) = self.session(
            [
                (["set"], [("Current pattern: ", SECOND)]),
                (["set"], []),
                (
                    ["set", "--forgot"],
                    [("Password: ", "not-the-password"), ("New pattern: ", SECOND), ("Again: ", SECOND)],
                ),
            ],
            conf=conf,
        )
        self.assertEqual((wrong, locked, bad_password), (1, 1, 1), wrong_out + locked_out + bad_password_out)
        # Every refusal of the current pattern names the way out.
        self.assertIn(ROUTE, wrong_out)
        self.assertIn(ROUTE, locked_out)
        self.assertIn("wrong password; nothing was changed", bad_password_out)
        self.assertNotIn("tries left", bad_password_out, "the password's tries are not the pattern's")
        facts = self.sandbox.status(self.USER, "--deny", "1")  # root's view, under the conf's throttle
        self.assertEqual(facts["failures"].split()[0], "1", "the wrong password counted no pattern guess")
        self.assertTrue(facts["failures"].startswith("1 wrong try since the last success"), facts)
        self.assertTrue(facts["locked"].startswith("until "), facts)

        ((right, right_out),) = self.session(
            [
                (
                    ["set", "--forgot"],
                    [("Password: ", PASSWORD), ("New pattern: ", SECOND), ("Again: ", SECOND)],
                ),
            ],
            conf=conf,
        )
        self.assertEqual(right, 0, right_out)
        self.assertIn("in place of the forgotten one", right_out)
        self.assertIn("Pattern changed", right_out)
        facts = self.root_status()
        self.assertEqual((facts["failures"].split()[0], facts["locked"]), ("0", "no"), facts)
        # The store holds the new pattern: it opens a change, the old one does not.
        (old, old_out), (new, new_out) = self.session(
            [
                (["remove"], [("Current pattern: ", FIRST)]),
                (["remove"], [("Current pattern: ", SECOND)]),
            ],
            conf="cost = 2\n",
        )
        self.assertEqual((old, new), (1, 0), old_out + new_out)
        self.assertIn("Removed your pattern", new_out)

    def test_self_enroll_no_refuses_the_route_and_the_refusals_say_so(self):
        self.sandbox.enrol(self.USER, FIRST)
        (wrong, wrong_out), (forgot, forgot_out) = self.session(
            [(["set"], [("Current pattern: ", SECOND)]), (["set", "--forgot"], [])],
            conf="self_enroll = no\ncost = 2\n",
        )
        self.assertEqual((wrong, forgot), (1, 1), wrong_out + forgot_out)
        self.assertIn(NO_ROUTE, wrong_out)
        self.assertNotIn("--forgot", wrong_out)
        self.assertIn("self_enroll = no", forgot_out)
        self.assertNotIn("Password:", forgot_out)
        self.assertEqual(self.root_status()["failures"].split()[0], "1", "only the wrong current pattern counted")
        # A direct call gets no further.
        script = helper.helper_call("enroll", self.USER, "printf '%%s\\0' %s %s" % (PASSWORD, SECOND))
        done = self.sandbox.run(
            "printf 'self_enroll = no\\n' > /etc/security/pam_pattern.conf\n" + as_user(self.user, script)
        )
        self.assertEqual(helper.parse_call(done.stdout), ("refused policy", helper.REFUSED))

    def test_an_entry_that_is_not_a_pattern_is_asked_again(self):
        self.sandbox.enrol(self.USER, FIRST)
        ((code, out),) = self.session(
            [
                (
                    ["set"],
                    [
                        ("Current pattern: ", "12"),
                        ("Current pattern: ", FIRST),
                        ("New pattern: ", SECOND),
                        ("Again: ", SECOND),
                    ],
                ),
            ],
            conf="cost = 2\n",
        )
        self.assertEqual(code, 0, out)
        self.assertIn("at least 4 are needed. Try again, or press Enter alone to cancel.", out)
        self.assertNotIn(".;", out)
        self.assertEqual(self.root_status()["failures"].split()[0], "0", "the short entry was not counted")


if __name__ == "__main__":
    unittest.main()
