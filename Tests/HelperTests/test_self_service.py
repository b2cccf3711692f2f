"""A user managing their own pattern without root: `patternctl set`, `remove`
and `status` through the setuid helper, typed on a real pty (expect), inside
support.helper's private namespace (helper setuid at its real path, store and state
at their default paths, the shipped /etc/pam.d/patternctl, a conf written in a
tmpfs over /etc/security). Each refusal is checked for what it counted:

- first pattern: a wrong password is refused and counted; a mismatch and a
  weak pattern are refused and not counted; the right password sets it;
  self_enroll = no refuses before anything is asked or counted;
- change: a wrong current pattern is refused and counted, the right one
  lets the new one (twice) replace it;
- remove: a wrong current pattern counted, the right one removes it;
- status: the user's own facts, as root's status shows them;
- calling the helper directly gains nothing: no pattern for a wrong
  password, no weak pattern, the throttle applies to the current pattern.
(test_forgotten_pattern: a new pattern in place of a forgotten one.)
"""

import json
import os
import shlex
import unittest

from support import helper
from support.formats import attempt_record_file

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401
from support.paths import PATTERNCTL, ROOT
from support.system import as_user

PASSWORD = "pp-Secret-42"
FIRST = "2946138"
SECOND = "8426519"
WEAK = "1235789"


class SelfServiceCase(helper.HelperCase):
    """patternctl run by the user on a pty, in the helper's namespace; no tests of its own."""

    PASSWORD = PASSWORD
    ENROL = False

    def setUp(self):
        super().setUp()
        # /etc/pam.d writable in the namespace too (an overlay, as support.helper does for /etc/security).
        self.sandbox.overlays["/etc/pam.d"] = "etc_pam_d"
        for layer in ("up", "work"):
            os.makedirs(os.path.join(self.sandbox.root, "overlay", "etc_pam_d", layer))
        self.patternctl = os.path.join(self.sandbox.root, "patternctl")
        with open(PATTERNCTL, "rb") as src, open(self.patternctl, "wb") as dst:
            dst.write(src.read())
        os.chmod(self.patternctl, 0o755)

    def session(self, steps, conf=""):
        """Runs expect scripts as the user, one per (argv, dialogue) step, on a pty; returns [(exit, output)].
        dialogue: [(expected prompt, answer)]."""
        prefix = "rm -f /etc/pam.d/patternctl; cp %s /etc/pam.d/patternctl\n" % shlex.quote(
            os.path.join(ROOT, "pam.d", "patternctl")
        )
        prefix += "rm -f /etc/security/pam_pattern.conf; printf '%%s' %s > /etc/security/pam_pattern.conf\n" % (
            shlex.quote(conf)
        )
        script = prefix
        for index, (argv, dialogue) in enumerate(steps):
            lines = ["set timeout 30", "log_user 1", "spawn %s %s" % (self.patternctl, " ".join(argv))]
            for prompt, answer in dialogue:
                lines.append(
                    'expect {\n  -exact "%s" {}\n  timeout {puts "TIMEOUT"; exit 99}\n  eof {puts "EOF"; exit 98}\n}'
                    % prompt
                )
                lines.append('send -- "%s\\r"' % answer)
            lines.append("expect eof")
            lines.append('lassign [wait] pid spawnid os_error value')
            lines.append('puts "EXIT=$value"')
            path = os.path.join(self.sandbox.root, "dialogue-%d.exp" % index)
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            os.chmod(path, 0o644)
            script += as_user(self.user, "expect -f %s" % shlex.quote(path)) + "; echo '==STEP=='\n"
        done = self.sandbox.run(script, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr.decode(errors="replace"))
        results = []
        for part in done.stdout.decode(errors="replace").split("==STEP==")[:-1]:
            code = int(part.rsplit("EXIT=", 1)[1].split()[0]) if "EXIT=" in part else None
            results.append((code, part))
        self.assertEqual(len(results), len(steps), done.stdout)
        return results

    def root_status(self):
        return self.sandbox.status(self.USER)


class SelfServiceTest(SelfServiceCase):
    USER = "ppself1"

    def test_first_pattern_after_the_password(self):
        results = self.session(
            [
                (["set"], [("Password: ", "wrong-password"), ("New pattern: ", FIRST), ("Again: ", FIRST)]),
                (
                    ["set"],
                    [
                        ("Password: ", PASSWORD),
                        ("New pattern: ", FIRST),
                        ("Again: ", "2946183"),
                        ("New pattern: ", FIRST),
                        ("Again: ", "2946183"),
                        ("New pattern: ", FIRST),
                        ("Again: ", "2946183"),
                        # Asked again until the person gives up: Enter alone cancels.
                        ("New pattern: ", ""),
                    ],
                ),
                (
                    ["set"],
                    [
                        ("Password: ", PASSWORD),
                        ("New pattern: ", WEAK),
                        ("New pattern: ", WEAK),
                        ("New pattern: ", WEAK),
                        ("New pattern: ", ""),
                    ],
                ),
                (["status"], []),
            ]
        )
        (wrong, wrong_out), (mismatch, mismatch_out), (weak, weak_out), (status, status_out) = results
        self.assertEqual(wrong, 1, wrong_out)
        self.assertIn("wrong password", wrong_out)
        self.assertEqual(mismatch, 1, mismatch_out)
        self.assertIn("not the same pattern", mismatch_out)
        self.assertEqual(weak, 1, weak_out)
        self.assertIn("too easy to guess", weak_out)
        self.assertNotIn("--allow-weak", weak_out, "a user is pointed at an option that is root's")
        self.assertIn("enrolled: no", status_out)
        self.assertIn("failures: 1", status_out, "only the wrong password was counted")
        self.assertEqual(self.root_status()["enrolled"], "no")
        self.assertEqual(self.root_status()["failures"].split()[0], "1")

        ((right, right_out),) = self.session(
            [
                (["set"], [("Password: ", PASSWORD), ("New pattern: ", FIRST), ("Again: ", FIRST)]),
            ]
        )
        self.assertEqual(right, 0, right_out)
        self.assertIn("Pattern set", right_out)
        facts = self.root_status()
        self.assertEqual((facts["enrolled"], facts["failures"].split()[0]), ("yes", "0"))
        self.assertTrue(facts["hash"].endswith("(cost 7)"), facts)

    def test_a_change_ends_the_run_of_unseen_failures_and_names_patternctl(self):
        # A wrong current pattern is listed under patternctl (its terminal too); the change that follows is a
        # fresh start: the next success tells no failures from before it.
        self.sandbox.enrol(self.USER, FIRST)
        (wrong, wrong_out), (change, change_out) = self.session(
            [
                (["set"], [("Current pattern: ", SECOND)]),
                (["set"], [("Current pattern: ", FIRST), ("New pattern: ", SECOND), ("Again: ", SECOND)]),
            ],
            conf="cost = 2\n",
        )
        self.assertEqual((wrong, change), (1, 0), wrong_out + change_out)
        with open(attempt_record_file(self.sandbox.state_dir, self.USER), "rb") as f:
            lines = [line for line in f.read().splitlines() if not line.startswith(b"repeat ")]
        self.assertEqual(lines[0], b"unseen 0")
        [entry] = [line.split(b" ") for line in lines[1:]]
        self.assertEqual(entry[1], b"patternctl")
        self.assertRegex(entry[2], rb"^/dev/pts/\d+$")

    def test_self_enroll_no_refuses_before_asking(self):
        ((code, out),) = self.session([(["set"], [])], conf="self_enroll = no\ncost = 1\n")
        self.assertEqual(code, 1, out)
        self.assertIn("self_enroll = no", out)
        self.assertNotIn("Password:", out)
        self.assertEqual(self.root_status()["failures"].split()[0], "0")

    def test_change_remove_and_status_need_the_current_pattern(self):
        self.sandbox.enrol(self.USER, FIRST)
        results = self.session(
            [
                (["set"], [("Current pattern: ", SECOND)]),
                (["status"], []),
                (["set"], [("Current pattern: ", FIRST), ("New pattern: ", SECOND), ("Again: ", SECOND)]),
                (["remove"], [("Current pattern: ", FIRST)]),
                (["status"], []),
                (["remove"], [("Current pattern: ", SECOND)]),
                (["status"], []),
            ],
            conf="cost = 2\ndeny = 3\n",
        )
        (
            (wrong, wrong_out),
            (status1, status1_out),
            (change, change_out),
            (bad_remove, bad_remove_out),
            (status2, status2_out),
            (remove, remove_out),
            (status3, status3_out),
        ) = results
        self.assertEqual(wrong, 1, wrong_out)
        self.assertIn("wrong pattern", wrong_out)
        self.assertIn("(2 tries left before a wait)", wrong_out)  # the module's words at the prompt
        self.assertNotIn("Again:", wrong_out, "a wrong current pattern stops before the new one is asked for")
        self.assertEqual(status1, 0, status1_out)
        self.assertIn("failures: 1", status1_out)
        self.assertEqual(change, 0, change_out)
        self.assertIn("Pattern changed", change_out)
        self.assertEqual(bad_remove, 1, bad_remove_out)  # the old pattern no longer opens anything
        self.assertIn("failures: 1", status2_out)
        self.assertIn("(cost 2)", status2_out, "the new pattern is hashed at the conf's cost")
        self.assertEqual(remove, 0, remove_out)
        self.assertIn("enrolled: no", status3_out)
        self.assertEqual(self.root_status()["enrolled"], "no")

    def test_waits_are_told_in_the_words_of_the_prompt(self):
        # deny = 1: the first wrong current pattern starts a one-minute wait.
        self.sandbox.enrol(self.USER, FIRST)
        (wrong, wrong_out), (locked, locked_out), (status, status_out) = self.session(
            [(["set"], [("Current pattern: ", SECOND)]), (["set"], []), (["status", "--json"], [])],
            conf="cost = 2\ndeny = 1\n",
        )
        self.assertEqual((wrong, locked, status), (1, 1, 0), wrong_out + locked_out + status_out)
        # A user's --json is root's object, from what the helper tells them.
        facts = json.loads(next(line for line in status_out.splitlines() if line.startswith("{")))
        self.assertEqual(
            (facts["user"], facts["enrolled"], facts["failures"], facts["locked"]), (self.USER, True, 1, "wait")
        )
        self.assertLessEqual(facts["wait_seconds"], 60)
        self.assertIn("too many wrong tries: try again in 1 minute", wrong_out)
        self.assertRegex(
            locked_out, r"too many wrong tries: try again in (1 minute|[1-5]?[0-9] seconds); nothing was changed"
        )
        self.assertNotRegex(wrong_out + locked_out, r"\d s\b", "a wait in bare seconds")

    def test_another_user_or_root_options_are_refused(self):
        results = self.session(
            [
                (["status", "root"], []),
                (["--store", "/tmp/x", "status"], []),
                (["set", "--allow-weak"], []),
            ]
        )
        self.assertEqual([code for code, _ in results], [1, 1, 1], results)
        self.assertIn("only root can see the pattern of another user", results[0][1])
        self.assertIn("'--store' is for root", results[1][1])
        self.assertIn("'--allow-weak' is for root", results[2][1])

    def test_direct_helper_calls_gain_nothing(self):
        self.sandbox.enrol(self.USER, FIRST)

        def nul(*fields):
            return "printf '%%s\\0' %s" % " ".join(shlex.quote(f) for f in fields)

        script = "rm -f /etc/pam.d/patternctl; cp %s /etc/pam.d/patternctl\n" % shlex.quote(
            os.path.join(ROOT, "pam.d", "patternctl")
        )
        calls = [
            ("enroll", nul("not-the-password", SECOND)),  # has a pattern: the forgot route; wrong, not counted
            ("set", nul(FIRST, WEAK)),  # weak new pattern: refused before the guess
            # the strength table and model in the Embedded (-Osize) helper: a shape many people chose, a likely one
            ("set", nul(FIRST, "1452")),
            ("set", nul(FIRST, "1235478")),
            ("set", nul(SECOND, "2946183")),  # wrong current: counted
            ("status", "printf ''"),
        ]
        for operation, stdin_expr in calls:
            script += as_user(self.user, helper.helper_call(operation, self.USER, stdin_expr)) + "; echo '--'\n"
        done = self.sandbox.run(script)
        self.assertEqual(done.returncode, 0, done.stderr)
        got = [helper.parse_call(part.encode()) for part in done.stdout.decode().split("--\n")[:-1]]
        self.assertEqual(got[0], ("wrong allowed 0", helper.WRONG))
        self.assertEqual(got[1], ("weak", helper.MALFORMED))
        self.assertEqual(got[2], ("weak", helper.MALFORMED))
        self.assertEqual(got[3], ("weak", helper.MALFORMED))
        self.assertEqual(got[4], ("wrong allowed 4", helper.WRONG))
        self.assertRegex(got[5][0], r"^status \d+ 1 1 allowed 4$")


if __name__ == "__main__":
    unittest.main()
