"""TPM mode through the real patternctl, the real setuid helper and a software TPM (swtpm), inside helperkit's
private namespace (helper setuid at its real path, store and state at their default paths, the conf written in
the namespace's /etc/security): `tpm = yes|no|auto`, root's set/change/remove, a user's own change and remove,
the strength rules, an owner password, and `patternctl prune` deleting the index a killed enrolment left."""

import os
import re
import shlex
import unittest

from support import helper
from support.paths import INSTALLED_HELPER, PATTERNCTL, ROOT, run
from support.system import as_user
from support.tpm import tpm_for_helper

FIRST = helper.PATTERN  # 2946138
SECOND = "8426519"
WEAK = "1235789"  # the Z: refused as too easy to guess
STORE = "/etc/security/pam_pattern/patterns"
CONF = "/etc/security/pam_pattern.conf"
RANGE = re.compile(r"0x1A5[0-9A-F]{4}")
# The session key every TPM check binds its session to (FILEFORMAT.md): in the range, never a pattern's.
SESSION_KEY = "0x1A5FFFF"


def setUpModule():
    helper.take_run_lock()


def tearDownModule():
    helper.release_run_lock()


class PatternctlTPMTest(helper.HelperCase):
    USER = "pptpm3"
    ENROL = False  # each test sets its pattern through patternctl, in or out of the TPM

    def setUp(self):
        self.tpm = tpm_for_helper(self)
        super().setUp()

    # shell steps, run in one namespace by steps()

    def conf(self, tpm, tcti=None):
        text = "cost = 1\nminlen = 5\ndeny = 100\nlock_after = 5\ntpm = %s\ntpm_tcti = %s\n" % (
            tpm,
            tcti or self.tpm.tcti,
        )
        return "rm -f %s; printf %s > %s; chmod 0644 %s" % (CONF, shlex.quote(text), CONF, CONF)

    def root_set(self, pattern, *options):
        return "printf '%%s\\n%%s\\n' %s %s | %s set %s %s 2>&1" % (
            pattern,
            pattern,
            PATTERNCTL,
            " ".join(options),
            self.USER,
        )

    def own(self, command, *lines):
        """patternctl run by the user, its answers on stdin (a pipe: one line each)."""
        stdin = "printf '%s\\n'" % "\\n".join(lines)
        return as_user(self.user, "%s | %s %s 2>&1" % (stdin, PATTERNCTL, command))

    def call_helper(self, operation, pattern):
        """The helper run as root, its exit status the step's."""
        return "printf '%%s\\0' %s | %s %s %s" % (pattern, INSTALLED_HELPER, operation, self.USER)

    def verify(self, pattern):
        return as_user(self.user, self.call_helper("verify", pattern))

    def indexes(self):
        return "tpm2_getcap -T %s handles-nv-index" % self.tpm.tools_tcti

    line = "cat %s" % STORE

    def steps(self, steps):
        """Each step a shell line; returns [(output, exit status)], one per step."""
        text = "set +e\n"
        for step in steps:
            text += "%s; echo \"rc=$?\"; echo '--'\n" % step
        done = self.sandbox.run(text, timeout=180)
        self.assertEqual(done.returncode, 0, done.stderr)
        results = []
        for part in done.stdout.decode(errors="replace").split("--\n")[:-1]:
            body, _, status = part.rstrip("\n").rpartition("rc=")
            results.append((body, int(status)))
        self.assertEqual(len(results), len(steps), done.stdout)
        return results

    def handles(self, output):
        """The patterns' indexes in a listing (the session key left out)."""
        return set(RANGE.findall(output)) - {SESSION_KEY}

    def record_handle(self, store_text):
        m = re.search(r"^%s:(?:\d+:)?\$tpm2\$([0-9a-f]{8})\$" % self.USER, store_text, re.M)
        self.assertIsNotNone(m, store_text)
        return "0x" + m.group(1).upper().lstrip("0")

    # tests

    def test_root_sets_changes_and_removes_a_pattern_held_by_the_tpm(self):
        r = self.steps(
            [
                self.conf("yes"),
                self.root_set(FIRST),  # 1
                self.line,  # 2
                self.indexes(),  # 3
                self.verify(FIRST),  # 4
                self.verify(helper.WRONG_PATTERN),  # 5
                self.root_set(SECOND),  # 6: a change: the new index, the line, then the old index deleted
                self.line,  # 7
                self.indexes(),  # 8
                self.verify(SECOND),  # 9
                self.conf("no"),  # checks go by the record, not by the setting
                self.verify(SECOND),  # 11
                "%s remove %s 2>&1" % (PATTERNCTL, self.USER),  # 12
                self.indexes(),  # 13
                self.line,  # 14
                "%s prune 2>&1" % PATTERNCTL,  # 15: no TPM record left, so the session key goes too
                self.indexes(),  # 16
            ]
        )
        self.assertEqual(r[1][1], 0, r[1][0])
        self.assertIn("held by the TPM", r[1][0])
        self.assertNotIn("$y$", r[2][0])
        first = self.record_handle(r[2][0])
        self.assertEqual(self.handles(r[3][0]), {first})
        self.assertIn(SESSION_KEY, r[3][0], "the first enrolment makes the session key")
        self.assertEqual(r[4][1], helper.SUCCESS, r[4])
        self.assertEqual(r[5][1], helper.WRONG, r[5])
        self.assertEqual(r[6][1], 0, r[6][0])
        second = self.record_handle(r[7][0])
        self.assertNotEqual(first, second)
        self.assertEqual(self.handles(r[8][0]), {second}, "the old index must be deleted, the new one kept")
        self.assertEqual(r[9][1], helper.SUCCESS, r[9])
        self.assertEqual(r[11][1], helper.SUCCESS, r[11])
        self.assertEqual(r[12][1], 0, r[12][0])
        self.assertIn("TPM index", r[12][0])
        self.assertEqual(self.handles(r[13][0]), set(), "remove must delete the index")
        self.assertEqual(r[14][0].strip(), "")
        self.assertIn(SESSION_KEY, r[13][0])
        self.assertEqual(r[15][1], 0, r[15][0])
        self.assertEqual(RANGE.findall(r[16][0]), [], r[16][0])

    def test_yes_without_a_tpm_refuses_and_keeps_the_old_pattern(self):
        missing = "swtpm:path=" + os.path.join(self.tpm.directory, "no-such-socket")
        r = self.steps(
            [
                self.conf("no"),
                self.root_set(FIRST),  # 1: a hash
                self.conf("yes", missing),
                self.root_set(SECOND),  # 3: refused before anything is asked
                self.line,  # 4
                self.verify(FIRST),  # 5
            ]
        )
        self.assertEqual(r[1][1], 0, r[1][0])
        self.assertEqual(r[3][1], 1, r[3][0])
        self.assertIn("no TPM is present", r[3][0])
        self.assertIn("nothing was changed", r[3][0])
        self.assertRegex(r[4][0], r"^%s:\d+:\$y\$" % self.USER)
        self.assertEqual(r[5][1], helper.SUCCESS, r[5])

    def test_auto_uses_the_tpm_only_when_present_and_no_moves_a_pattern_out(self):
        missing = "swtpm:path=" + os.path.join(self.tpm.directory, "no-such-socket")
        r = self.steps(
            [
                self.conf("auto", missing),
                self.root_set(FIRST),  # 1: no TPM: a hash
                self.line,  # 2
                self.conf("auto"),
                self.root_set(SECOND),  # 4: a TPM: an index
                self.line,  # 5
                self.indexes(),  # 6
                self.conf("no"),
                self.root_set(FIRST),  # 8: back to a hash, the index deleted
                self.line,  # 9
                self.indexes(),  # 10
                self.verify(FIRST),  # 11
            ]
        )
        self.assertEqual(r[1][1], 0, r[1][0])
        self.assertRegex(r[2][0], r"^%s:\d+:\$y\$" % self.USER)
        self.assertEqual(r[4][1], 0, r[4][0])
        self.assertEqual(self.handles(r[6][0]), {self.record_handle(r[5][0])})
        self.assertEqual(r[8][1], 0, r[8][0])
        self.assertRegex(r[9][0], r"^%s:\d+:\$y\$" % self.USER)
        self.assertEqual(self.handles(r[10][0]), set(), r[8][0])
        self.assertEqual(r[11][1], helper.SUCCESS, r[11])

    def test_strength_rules_apply_in_tpm_mode(self):
        r = self.steps(
            [
                self.conf("yes"),
                self.root_set(WEAK),  # 1: patternctl's own check
                self.root_set(WEAK, "--allow-weak"),  # 2: no way around it in TPM mode
                # 3: the helper's check, for a root caller that skips patternctl
                self.call_helper("tpm-enroll", WEAK),
                self.call_helper("tpm-enroll", "2943"),  # 4: too short for minlen 5
                self.indexes(),  # 5
                self.line,  # 6
            ]
        )
        self.assertEqual(r[1][1], 1, r[1][0])
        self.assertIn("too easy to guess", r[1][0])
        self.assertEqual(r[2][1], 1, r[2][0])
        self.assertIn("--allow-weak", r[2][0])
        self.assertEqual((r[3][0].strip(), r[3][1]), ("weak", helper.MALFORMED))
        self.assertEqual(r[4][1], helper.MALFORMED, r[4])
        self.assertEqual(self.handles(r[5][0]), set())
        self.assertEqual(r[6][0].strip(), "")

    def test_owner_password_is_named_and_the_old_pattern_stays(self):
        r = self.steps(
            [
                self.conf("yes"),
                self.root_set(FIRST),  # 1
                self.line,  # 2
                "tpm2_changeauth -T %s -c owner owner-secret" % self.tpm.tools_tcti,  # 3
                self.root_set(SECOND),  # 4
                self.line,  # 5
                self.verify(FIRST),  # 6
                self.indexes(),  # 7
            ]
        )
        self.assertEqual(r[1][1], 0, r[1][0])
        self.assertEqual(r[3][1], 0, r[3][0])
        self.assertEqual(r[4][1], 1, r[4][0])
        self.assertIn("owner hierarchy has a password", r[4][0])
        self.assertIn("nothing was changed", r[4][0])
        self.assertEqual(r[5][0], r[2][0])
        self.assertEqual(r[6][1], helper.SUCCESS, r[6])
        self.assertEqual(self.handles(r[7][0]), {self.record_handle(r[2][0])})

    def test_a_user_changes_and_removes_their_own_pattern_in_the_tpm(self):
        r = self.steps(
            [
                self.conf("yes"),
                self.root_set(FIRST),  # 1
                self.line,  # 2
                self.own("set", helper.WRONG_PATTERN, SECOND, SECOND),  # 3: a wrong current pattern
                self.own("set", FIRST, SECOND, SECOND),  # 4
                self.line,  # 5
                self.indexes(),  # 6
                self.verify(SECOND),  # 7
                self.own("set", SECOND, WEAK, WEAK),  # 8: weak, refused
                self.own("remove", SECOND),  # 9
                self.indexes(),  # 10
                self.line,  # 11
            ]
        )
        self.assertEqual(r[1][1], 0, r[1][0])
        first = self.record_handle(r[2][0])
        self.assertEqual(r[3][1], 1, r[3][0])
        self.assertIn("wrong pattern", r[3][0])
        self.assertEqual(r[4][1], 0, r[4][0])
        second = self.record_handle(r[5][0])
        self.assertEqual(self.handles(r[6][0]), {second})
        self.assertNotEqual(first, second)
        self.assertEqual(r[7][1], helper.SUCCESS, r[7])
        self.assertEqual(r[8][1], 1, r[8][0])
        self.assertIn("too easy to guess", r[8][0])
        self.assertEqual(r[9][1], 0, r[9][0])
        self.assertEqual(self.handles(r[10][0]), set(), "a user's remove must delete the index")
        self.assertEqual(r[11][0].strip(), "")

    def test_a_users_own_enrolments_are_ten_an_hour_and_the_eleventh_counts_nothing(self):
        state = "/var/lib/pam_pattern/" + self.USER.encode().hex()
        changes = [(FIRST, SECOND), (SECOND, FIRST)] * 5
        r = self.steps(
            [self.conf("yes"), self.root_set(FIRST)]
            + [self.own("set", current, new, new) for current, new in changes]  # 2-11
            + [
                self.line,  # 12
                self.own("set", FIRST, SECOND, SECOND),  # 13: the eleventh in the hour
                self.own("set", helper.WRONG_PATTERN, SECOND, SECOND),  # 14: a wrong current pattern too
                "cat %s 2>/dev/null; true" % state,  # 15
                self.line,  # 16
                self.root_set(SECOND),  # 17: root is not limited
                self.verify(SECOND),  # 18
                # 19: the helper called directly, without patternctl's look at status first
                as_user(
                    self.user,
                    "printf '%%s\\0%%s\\0' %s %s | %s set %s"
                    % (helper.WRONG_PATTERN, FIRST, INSTALLED_HELPER, self.USER),
                ),
                "cat %s 2>/dev/null; true" % state,  # 20
            ]
        )
        for step in range(2, 12):
            self.assertEqual(r[step][1], 0, r[step][0])
        for step in (13, 14):
            self.assertEqual(r[step][1], 1, r[step][0])
            self.assertIn("into the TPM 10 times in the last hour, as often as allowed", r[step][0], r)
        # Refused before the current pattern was judged: no failure counted, the pattern unchanged.
        self.assertEqual(int(r[15][0][:10] or 0), 0, r[15][0])
        self.assertEqual(r[16][0], r[12][0])
        self.assertEqual(r[17][1], 0, r[17][0])
        self.assertEqual(r[18][1], helper.SUCCESS, r[18])
        self.assertEqual(r[19][0].strip(), "tpm-refused too-often", r[19])
        self.assertEqual(int(r[20][0][:10] or 0), 0, r[20][0])

    def test_a_user_moves_their_pattern_out_of_the_tpm_when_tpm_is_no(self):
        r = self.steps(
            [
                self.conf("yes"),
                self.root_set(FIRST),
                self.conf("no"),
                self.own("set", FIRST, SECOND, SECOND),  # 3
                self.line,  # 4
                self.indexes(),  # 5
            ]
        )
        self.assertEqual(r[3][1], 0, r[3][0])
        self.assertRegex(r[4][0], r"^%s:\d+:\$y\$" % self.USER)
        self.assertEqual(self.handles(r[5][0]), set())

    def test_a_first_pattern_set_by_the_user_goes_into_the_tpm(self):
        password = "pptpm-Secret-7"
        done = run(["chpasswd"], input=("%s:%s\n" % (self.USER, password)).encode())
        self.assertEqual(done.returncode, 0, done.stderr)
        # The password is checked by the shipped PAM service patternctl: /etc/pam.d writable in the namespace.
        self.sandbox.overlays["/etc/pam.d"] = "etc_pam_d"
        for layer in ("up", "work"):
            os.makedirs(os.path.join(self.sandbox.root, "overlay", "etc_pam_d", layer))
        shipped = os.path.join(ROOT, "pam.d", "patternctl")
        missing = "swtpm:path=" + os.path.join(self.tpm.directory, "no-such-socket")
        r = self.steps(
            [
                "rm -f /etc/pam.d/patternctl; cp %s /etc/pam.d/patternctl" % shlex.quote(shipped),
                self.conf("yes", missing),
                self.own("set", password, FIRST, FIRST),  # 2: no TPM: refused before the password is counted
                self.line,  # 3
                self.conf("yes"),
                self.own("set", password, FIRST, FIRST),  # 5
                self.line,  # 6
                self.indexes(),  # 7
                self.verify(FIRST),  # 8
                "%s status %s" % (PATTERNCTL, self.USER),  # 9
                self.own("status"),  # 10: the user's own view, through the helper
            ]
        )
        self.assertEqual(r[0][1], 0, r[0][0])
        self.assertEqual(r[2][1], 1, r[2][0])
        self.assertIn("no TPM is present", r[2][0])
        self.assertEqual(r[3][0].strip(), "")
        self.assertEqual(r[5][1], 0, r[5][0])
        self.assertEqual(self.handles(r[7][0]), {self.record_handle(r[6][0])})
        self.assertEqual(r[8][1], helper.SUCCESS, r[8])
        self.assertIn("failures: 0", r[9][0])  # the refused attempt counted nothing
        # A TPM pattern has no yescrypt hash: root and the user both see it held by the TPM.
        self.assertIn("hash: held by the TPM", r[9][0])
        self.assertEqual(r[10][1], 0, r[10][0])
        self.assertIn("enrolled: yes", r[10][0])
        self.assertIn("hash: held by the TPM", r[10][0])

    def test_prune_deletes_the_index_of_a_killed_enrolment_and_nothing_else(self):
        outside = "0x1500017"
        enrolment = self.call_helper("tpm-enroll", SECOND)
        r = self.steps(
            [
                self.conf("yes"),
                self.root_set(FIRST),  # 1
                self.line,  # 2
                "tpm2_nvdefine -T %s %s -C o -s 8 -a 'ownerread|ownerwrite' >/dev/null"
                % (self.tpm.tools_tcti, outside),
                # 4: an enrolment killed between defining its index and writing its line: the store's writer
                # lock is held, so the helper waits in the save when SIGKILL comes.
                "(flock -x 9; sleep 4) 9>>/etc/security/pam_pattern/.patterns.lock & sleep 0.3; "
                "%s & pid=$!; sleep 2; kill -9 $pid; wait $pid; killed=$?; wait; (exit $killed)" % enrolment,
                self.line,  # 5
                self.indexes(),  # 6
                "%s prune 2>&1" % PATTERNCTL,  # 7
                self.indexes(),  # 8
                self.verify(FIRST),  # 9
                "%s prune 2>&1" % PATTERNCTL,  # 10: nothing left to delete
                as_user(self.user, "%s tpm-prune %s </dev/null" % (INSTALLED_HELPER, self.USER)),  # 11: root only
            ]
        )
        self.assertEqual(r[1][1], 0, r[1][0])
        named = self.record_handle(r[2][0])
        self.assertEqual(r[4][1], 137, r[4][0])  # killed
        self.assertEqual(r[5][0], r[2][0], "the killed enrolment wrote no line")
        orphans = self.handles(r[6][0]) - {named}
        self.assertEqual(len(orphans), 1, r[6][0])
        self.assertEqual(r[7][1], 0, r[7][0])
        self.assertIn("Deleted 1 TPM index", r[7][0])
        self.assertEqual(self.handles(r[8][0]), {named}, "prune must delete the orphan, and only it")
        self.assertIn(outside, r[8][0], "an index outside the range must stay")
        self.assertEqual(r[9][1], helper.SUCCESS, r[9])
        self.assertEqual(r[10][1], 0, r[10][0])
        self.assertNotIn("Deleted", r[10][0])
        self.assertEqual((r[11][0].strip(), r[11][1]), ("refused user", helper.REFUSED))

    def test_prune_never_takes_an_enrolment_in_progress_for_an_orphan(self):
        # The enrolment has defined its index and waits to write its line (the store's writer lock is held for
        # 3 s) when prune runs: prune must wait for it, not delete the index its line is about to name.
        enrolment = self.call_helper("tpm-enroll", SECOND)
        r = self.steps(
            [
                self.conf("yes") + "; " + self.root_set(FIRST) + " >/dev/null",  # a change, then
                "(flock -x 9; sleep 3) 9>>/etc/security/pam_pattern/.patterns.lock & sleep 0.3; "
                "%s >/dev/null & pid=$!; sleep 1; %s prune 2>&1; wait $pid; echo enrolled=$?; wait"
                % (enrolment, PATTERNCTL),
                self.line,  # 2
                self.indexes(),  # 3
                self.verify(SECOND),  # 4
            ]
        )
        self.assertIn("enrolled=0", r[1][0])
        self.assertNotIn("Deleted", r[1][0])
        self.assertEqual(self.handles(r[3][0]), {self.record_handle(r[2][0])})
        self.assertEqual(r[4][1], helper.SUCCESS, r[4])


if __name__ == "__main__":
    unittest.main()
