"""patternctl and the real module agree, through the real libpam (pam_start_confdir).

- A pattern set with `patternctl set` (from stdin) is accepted by pam_pattern.so.
- Failed attempts made through the module lock the user; `patternctl status`
  shows the lock and `patternctl reset` clears it, after which the module
  prompts and accepts again.

Drives the module with support.pam (ctypes over libpam) in a support.sandbox Fixture.
"""

import os
import re
import unittest

from support import cli
from support.cli import GOOD, USER_A, run
from support.guesses import wrong_patterns
from support.pam import PAM_SUCCESS, Conversation, authenticate, code_name
from support.paths import PATTERNCTL, require_built
from support.sandbox import FixtureCase

WRONG = "1236987"
# Counted failures need different wrong patterns: the same one typed again is not counted.
WRONGS = wrong_patterns(3, avoid=(GOOD,))


class ModuleAgreesTests(FixtureCase):
    ENROL = None  # patternctl enrols

    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)

    def ctl(self, command, *argv, stdin=""):
        paths = ["--store", self.fixture.store, "--state", self.fixture.state_dir]
        return run(command, *paths, *argv, stdin=stdin)

    def attempt(self, service, pattern):
        conversation = Conversation([pattern.encode()])
        return authenticate(self.fixture.confdir, service, USER_A, conversation)

    def status(self, *extra):
        result = self.ctl("status", *extra, USER_A)
        self.assertEqual(result.code, 0, result)
        return dict(line.split(": ", 1) for line in result.out.splitlines() if ": " in line and line[:1] != " ")

    def test_module_accepts_the_pattern_set_by_patternctl(self):
        made = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(made.code, 0, made)
        service = self.fixture.service()
        accepted = self.attempt(service, GOOD)
        self.assertEqual(accepted.code, PAM_SUCCESS, accepted)
        refused = self.attempt(service, WRONG)
        self.assertNotEqual(refused.code, PAM_SUCCESS, refused)
        self.assertEqual(self.status()["failures"].split()[0], "1")

    def test_numpad_pattern_set_by_patternctl_works_with_layout_numpad(self):
        # Typed on a numpad, 3574126 draws dots 9 5 1 4 7 8 6; the phone layout needs those digits.
        typed = "3574126"
        made = self.ctl(
            "set", "--layout", "numpad", "--cost", "1", "--allow-weak", USER_A, stdin="%s\n%s\n" % (typed, typed)
        )
        self.assertEqual(made.code, 0, made)
        # set draws it with the numpad's labels (7 8 9 on top) and names the start by its key.
        self.assertIn("Start at [3];", made.out)
        self.assertRegex(made.out, r"\n 7 +8 +9\n")
        self.assertRegex(made.out, r"\n 1[^\n]*2 +\[3\]\n")
        numpad = self.fixture.service("layout=numpad", name="pattern-numpad")
        self.assertEqual(self.attempt(numpad, typed).code, PAM_SUCCESS)
        phone = self.fixture.service(name="pattern-phone")
        # show answers in the layout asked for: the phone's digits of the same drawing.
        canonical = re.search(r"canonical: (\d+)", run("show", "--layout", "numpad", typed).out).group(1)
        self.assertEqual(canonical, "3574126")
        phone_digits = canonical.translate(str.maketrans("789123", "123789"))
        self.assertEqual(self.attempt(phone, phone_digits).code, PAM_SUCCESS)
        self.assertEqual(self.attempt(numpad, canonical).code, PAM_SUCCESS)

    def test_module_shows_numpad_keys_and_names_no_phone_digit(self):
        # With layout=numpad the grid the module shows is labelled with the numpad's keys;
        # a refused answer gets one fixed sentence that names no dot in any layout.
        made = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(made.code, 0, made)
        texts = {}
        for options, name in (("layout=numpad show_grid", "pattern-numpad"), ("show_grid", "pattern-phone")):
            result = self.attempt(self.fixture.service(options, name=name), "1471")
            self.assertNotEqual(result.code, PAM_SUCCESS, result)
            texts[name] = [m for _, m in result.conversation.messages]
        self.assertIn(b"| 7 8 9 |", texts["pattern-numpad"][0])
        self.assertIn(b"| 1 2 3 |", texts["pattern-phone"][0])
        self.assertEqual(texts["pattern-numpad"][2:], texts["pattern-phone"][2:])
        self.assertIn(b"Not a pattern", b"".join(texts["pattern-numpad"][2:]))
        self.assertNotRegex(b"".join(texts["pattern-numpad"][2:]), rb"[Dd]ot [1-9]")

    def test_reset_clears_a_lock_made_through_the_module(self):
        made = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(made.code, 0, made)
        throttle = "deny=3 unlock_time=3600 lock_after=6"
        service = self.fixture.service(throttle)
        for wrong_pattern in WRONGS:
            wrong = self.attempt(service, wrong_pattern)
            self.assertNotEqual(wrong.code, PAM_SUCCESS, wrong)
        # Locked: the module refuses even the right pattern, without prompting.
        locked = self.attempt(service, GOOD)
        self.assertNotEqual(locked.code, PAM_SUCCESS, locked)
        self.assertEqual(locked.conversation.prompts, [], "no prompt while locked: %r" % locked)

        facts = self.status("--deny", "3", "--unlock-time", "3600", "--lock-after", "6")
        self.assertEqual(facts["failures"].split()[0], "3")
        self.assertRegex(facts["locked"], r"^until %s \(\d+ s\)$" % cli.LOCAL_UTC)

        reset = self.ctl("reset", USER_A)
        self.assertEqual(reset.code, 0, reset)
        facts = self.status("--deny", "3", "--unlock-time", "3600", "--lock-after", "6")
        self.assertEqual((facts["failures"].split()[0], facts["locked"]), ("0", "no"))
        accepted = self.attempt(service, GOOD)
        self.assertEqual(accepted.code, PAM_SUCCESS, "%s after reset: %r" % (code_name(accepted.code), accepted))

    def test_reset_clears_a_disabled_pattern(self):
        made = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(made.code, 0, made)
        service = self.fixture.service("deny=2 unlock_time=1 lock_after=2")
        for wrong_pattern in WRONGS[:2]:
            self.assertNotEqual(self.attempt(service, wrong_pattern).code, PAM_SUCCESS)
        self.assertEqual(self.status("--deny", "2", "--unlock-time", "1", "--lock-after", "2")["locked"], "disabled")
        self.assertNotEqual(self.attempt(service, GOOD).code, PAM_SUCCESS)
        self.assertEqual(self.ctl("reset", USER_A).code, 0)
        self.assertEqual(self.attempt(service, GOOD).code, PAM_SUCCESS)

    def test_status_agrees_with_the_module_under_a_non_default_conf(self):
        conf = os.path.join(self.fixture.root, "pam_pattern.conf")
        with open(conf, "w") as f:
            f.write("deny = 2\nunlock_time = 120\nlock_after = 9\n")
        os.chmod(conf, 0o644)
        made = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(made.code, 0, made)
        service = self.fixture.service("conf=%s" % conf)
        first = self.attempt(service, WRONGS[0])
        self.assertNotEqual(first.code, PAM_SUCCESS)
        # One failure of deny=2: the module still asks, and status says not locked.
        self.assertEqual(self.status("--conf", conf)["locked"], "no")
        self.assertNotEqual(self.attempt(service, WRONGS[1]).code, PAM_SUCCESS)
        locked = self.attempt(service, GOOD)
        self.assertEqual(locked.conversation.prompts, [], "the module is locked: %r" % locked)
        self.assertIn(b"2 minutes", locked.conversation.text)
        facts = self.status("--conf", conf)
        self.assertEqual(facts["failures"].split()[0], "2")
        seconds = int(re.match(r"^until %s \((\d+) s\)$" % cli.LOCAL_UTC, facts["locked"]).group(2))
        self.assertTrue(115 <= seconds <= 120, facts)
        # Without the file patternctl would use deny=5 and disagree: the file is what makes them agree.
        self.assertEqual(self.status()["locked"], "no")


if __name__ == "__main__":
    unittest.main()
