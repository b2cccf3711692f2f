"""`patternctl set`, `status`, `list`, `remove` and `reset` on a private store (run as root)."""

import calendar
import json
import os
import re
import time
import unittest
from datetime import datetime
from zoneinfo import ZoneInfo

from support import cli
from support.cli import run, USER_A, USER_B, NO_SUCH_USER, GOOD
from support.formats import attempt_record_file, crypt, parse_store
from support.sandbox import SandboxCase

# A time as status says it (cli.run sets TZ=UTC), and its seconds since the epoch.
LOCAL_UTC = cli.LOCAL_UTC
_utc_seconds = cli.utc_seconds


class SetTests(SandboxCase):
    def test_set_from_stdin_then_status_shows_enrolled_with_cost_and_date(self):
        before = int(time.time())
        result = self.ctl("set", "--cost", "3", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        after = int(time.time())
        self.assertEqual(result.code, 0, result)
        lines = result.out.splitlines()
        self.assertIn(USER_A, lines[0], "the first line names whose pattern is set")
        # The drawing (ASCII: stdout is a pipe) is the one `show` prints.
        drawing = "\n".join(run("show", "--ascii", GOOD).out.splitlines()[1:-1])
        self.assertIn(drawing, result.out, "the pattern is drawn after success")
        self.assertIsNotNone(self.box.store_bytes())

        result = self.ctl("status", USER_A)
        self.assertEqual(result.code, 0, result)
        self.assertRegex(
            result.out,
            r"^user: %s\nenrolled: yes\nset: %s\nhash: yescrypt with 4 MiB of memory per check \(cost 3\)\n"
            r"failures: 0 wrong tries since the last success \(a wait begins at 5; disabled at 20\)\nlocked: no\n$"
            % (USER_A, LOCAL_UTC),
        )
        set_at = _utc_seconds(re.search(r"set: " + LOCAL_UTC, result.out).group(1))
        self.assertTrue(before <= set_at <= after, (before, set_at, after))

    def test_default_cost_is_reported(self):
        self.ctl("set", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(self.status(USER_A)["hash"], "yescrypt with 64 MiB of memory per check (cost 7)")

    def test_set_replaces_and_the_same_pattern_typed_short_matches(self):
        self.set_pattern(USER_A)
        first = self.box.store_bytes()
        # 1379 and 1235789 are the same pattern: entered once each, they match.
        result = self.ctl("set", "--cost", "1", "--allow-weak", USER_A, stdin="1379\n1235789\n")
        self.assertEqual(result.code, 0, result)
        self.assertNotEqual(self.box.store_bytes(), first)
        self.assertEqual(self.box.store_bytes().count(b"\n"), 1, "replaced, not added")

    def test_sudo_user_is_the_default_user(self):
        result = self.ctl("set", "--cost", "1", stdin="%s\n%s\n" % (GOOD, GOOD), env={"SUDO_USER": USER_B})
        self.assertEqual(result.code, 0, result)
        self.assertIn(USER_B, result.out.splitlines()[0])
        self.assertEqual(self.status(USER_B)["enrolled"], "yes")
        result = self.ctl("status", env={"SUDO_USER": USER_B})
        self.assertTrue(result.out.startswith("user: %s\n" % USER_B), result)
        # Without SUDO_USER: the current user (root here).
        result = self.ctl("status")
        self.assertTrue(result.out.startswith("user: root\nenrolled: no\n"), result)

    def test_set_resets_the_failure_count(self):
        self.box.write_state(USER_A, 20, int(time.time()))
        self.assertEqual(self.status(USER_A)["locked"], "disabled")
        self.set_pattern(USER_A)
        facts = self.status(USER_A)
        self.assertEqual((facts["failures"].split()[0], facts["locked"]), ("0", "no"))

    def test_set_creates_a_missing_store_directory_root_only(self):
        store = os.path.join(self.box.directory, "new", "patterns")
        result = run(
            "set", "--store", store, "--state", self.box.state, "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD)
        )
        self.assertEqual(result.code, 0, result)
        self.assertEqual(os.stat(os.path.dirname(store)).st_mode & 0o7777, 0o700)
        self.assertEqual(os.stat(store).st_mode & 0o7777, 0o600)

    def test_weak_pattern_accepted_with_allow_weak(self):
        result = self.ctl("set", "--cost", "1", "--allow-weak", USER_A, stdin="1235789\n1235789\n")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.status(USER_A)["enrolled"], "yes")

    def test_stored_hash_is_standard_crypt_verifiable_by_libxcrypt(self):
        # yescrypt with the cost in its params field, verified by the system's libxcrypt (not the Swift wrapper).
        for cost, params in ((1, b"$y$j75$"), (5, b"$y$j9T$"), (7, b"$y$jBT$")):
            with self.subTest(cost=cost):
                self.set_pattern(USER_A, cost=str(cost))
                user, hashed, _ = parse_store(self.box.store_bytes())[0]
                self.assertEqual(user, USER_A.encode())
                self.assertTrue(hashed.startswith(params), hashed)
                self.assertEqual(crypt(GOOD.encode(), hashed), hashed)
                self.assertNotEqual(crypt(b"1569873", hashed), hashed)
                self.assertTrue(self.status(USER_A)["hash"].endswith("(cost %d)" % cost))


class RefusalTests(SandboxCase):
    """Each refusal: exit 1, a clear message, and the store and state unchanged (bytes compared)."""

    def setUp(self):
        super().setUp()
        self.set_pattern(USER_A)
        self.box.write_state(USER_A, 2, int(time.time()))
        self.before = self.box.tree_snapshot()

    def assertRefused(self, result, *fragments):
        self.assertEqual(result.code, 1, result)
        for fragment in fragments:
            self.assertIn(fragment, result.err)
        self.assertIn("nothing was changed", result.err)
        self.assertEqual(self.box.tree_snapshot(), self.before, "the store or state changed")
        return result

    def test_mismatched_entries(self):
        result = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n1236987\n" % GOOD)
        self.assertRefused(result, "not the same pattern")

    def test_weak_pattern(self):
        result = self.ctl("set", "--cost", "1", USER_A, stdin="1235789\n1235789\n")
        self.assertRefused(result, "too easy to guess", "--allow-weak")
        # The reason is the core's, the same that `show` gives.
        reason = re.search(r"strength: weak \((.*)\)", run("show", "1235789").out).group(1)
        self.assertIn(reason, result.err)

    def test_each_reason_in_words(self):
        # Golden: the reason each rule gives, as a person reads it (issue 33: the shapes people choose most,
        # then the likeliest patterns, are refused at the default strength).
        reasons = {
            "1452": "It is one of the most common patterns (or a rotation or mirror image of one), among the first"
            " an attacker tries.",
            "1235478": "It starts, turns and ends the way most people's patterns do, so an attacker who guesses the"
            " likeliest patterns first tries it early.",
            "1234": "Its dots are consecutive numbers, like a PIN such as 1234, read across the grid in some direction.",
            "2589": "It is drawn with only 2 straight strokes, a simple shape or letter (like L, V, Z, N, U or C).",
        }
        for digits, reason in reasons.items():
            with self.subTest(digits=digits):
                result = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (digits, digits))
                self.assertRefused(result, "refused as too easy to guess. " + reason + " To make it pass, ")
                self.assertIn(" Use --allow-weak", result.err)

    def test_a_refusal_says_how_to_make_that_shape_pass(self):
        # The core's hint (StrengthHint), the words the drawing window shows too; followed, it is taken.
        result = self.ctl("set", "--cost", "1", USER_A, stdin="2589\n2589\n")
        self.assertRefused(result, "To make it pass, add the middle-left dot at the end.")
        result = self.ctl("set", "--cost", "1", USER_A, stdin="1235789\n1235789\n")
        self.assertRefused(
            result, "To make it pass, draw it up to the bottom-middle dot, then go on to the middle-right dot instead."
        )
        result = self.ctl("set", "--cost", "1", USER_A, stdin="25894\n25894\n")
        self.assertEqual(result.code, 0, result.err)

    def test_strength_in_the_configuration_decides(self):
        # strength = 1 (simple shapes only) takes 1452, which the default refuses; 0 takes even the Z.
        for level, accepted, refused in (("1", "1452", "1235789"), ("0", "1235789", None)):
            with self.subTest(strength=level):
                conf = self.box.write_conf("strength = %s\n" % level)
                self.before = self.box.tree_snapshot()
                if refused:
                    result = self.ctl(
                        "set", "--conf", conf, "--cost", "1", USER_A, stdin="%s\n%s\n" % (refused, refused)
                    )
                    self.assertRefused(result, "too easy to guess")
                result = self.ctl("set", "--conf", conf, "--cost", "1", USER_A, stdin="%s\n%s\n" % (accepted, accepted))
                self.assertEqual(result.code, 0, result)

    def test_malformed_pattern(self):
        for entry, fragment in (("1231", "used twice"), ("12x4", "'x'"), ("123", "3 dots"), ("", "")):
            with self.subTest(entry=entry):
                result = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (entry, entry))
                self.assertRefused(result, fragment)

    def test_too_short_for_min_length(self):
        result = self.ctl("set", "--cost", "1", "--min-length", "8", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertRefused(result, "7 dots")

    def test_user_that_does_not_exist(self):
        result = self.ctl("set", "--cost", "1", NO_SUCH_USER, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertRefused(result, "no such user", NO_SUCH_USER)
        self.assertEqual(result.out, "", "nothing is asked for a user that does not exist")

    def test_missing_second_line(self):
        result = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n" % GOOD)
        self.assertRefused(result, "two lines")

    def test_unsafe_store_is_refused_before_asking(self):
        os.chmod(self.box.store, 0o644)
        self.before = self.box.tree_snapshot()
        result = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(result.code, 1, result)
        self.assertIn("pattern store", result.err)
        self.assertEqual(result.out, "")
        self.assertEqual(self.box.tree_snapshot(), self.before)


class StatusListTests(SandboxCase):
    def test_not_enrolled(self):
        self.assertEqual(
            self.status(USER_B),
            {
                "user": USER_B,
                "enrolled": "no",
                "pattern": "none yet ('patternctl set' makes one; until then the password is asked)",
                "failures": "0",
                "locked": "no",
            },
        )
        self.assertEqual(
            self.ctl("status", USER_B).out,
            "user: %s\n"
            "enrolled: no\n"
            "pattern: none yet ('patternctl set' makes one; until then the password is asked)\n"
            "failures: 0\n"
            "locked: no\n" % USER_B,
        )

    def test_one_failure_count_and_nothing_from_a_removed_pattern(self):
        # The old pattern's failures: 7 counted and listed, none told yet (as after a locker's failures).
        self.set_pattern(USER_A)
        then = int(time.time())
        self.box.write_state(USER_A, 7, then)
        record = attempt_record_file(self.box.state, USER_A)
        with open(record, "w") as f:
            f.write("unseen 7\n" + "".join("%d su /dev/pts/%d -\n" % (then, i) for i in range(7)))
        os.chmod(record, 0o600)
        before = self.ctl("status", USER_A).out
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(then))
        self.assertIn("\nfailures: 7 wrong tries since the last success (a wait begins at 5; disabled at 20)\n", before)
        listed = before.split("\nlocked: ", 1)[1].split("\n", 1)[1]
        self.assertEqual(
            listed,
            "recent failed attempts:\n"
            + "".join("  %s  wrong pattern at su on /dev/pts/%d\n" % (when, i) for i in range(7)),
        )
        self.assertNotIn("unseen", before, "one failure count, not two")
        # The count cleared (a success, a reset): the records stay for the next success's notice, unlisted.
        self.box.write_state(USER_A, 0, then)
        cleared = self.ctl("status", USER_A).out
        self.assertTrue(
            cleared.endswith(
                "failures: 0 wrong tries since the last success (a wait begins at 5; disabled at 20)\nlocked: no\n"
            ),
            cleared,
        )
        self.box.write_state(USER_A, 7, then)
        self.assertEqual(self.ctl("remove", USER_A).code, 0)
        gone = self.ctl("status", USER_A).out
        self.assertIn("failures: 0", gone)
        self.assertNotIn("attempts", gone, "nothing from the removed pattern")
        # A new pattern lists none of the old one's failures either (status lists those from the second the
        # pattern was set on: the new one is set a second later).
        time.sleep(1.1)
        self.set_pattern(USER_A)
        again = self.ctl("status", USER_A).out
        self.assertIn("failures: 0 wrong tries", again)
        self.assertNotIn("attempts", again)

    def test_missing_store_directory_means_nobody_enrolled(self):
        missing = ["--store", os.path.join(self.box.directory, "absent", "patterns"), "--state", self.box.state]
        result = run("status", *missing, USER_A)
        self.assertEqual(result.code, 0, result)
        self.assertIn("enrolled: no\n", result.out)
        self.assertIn("does not exist yet", result.err)
        result = run("list", *missing)
        self.assertEqual((result.code, result.out), (0, "USER  SET  COST  FAILURES  LOCKED\n"), result)
        result = run("remove", *missing, USER_A)
        self.assertEqual(result.code, 1, result)
        self.assertFalse(os.path.exists(os.path.join(self.box.directory, "absent")), "remove created nothing")

    def test_status_of_unknown_user_fails(self):
        result = self.ctl("status", NO_SUCH_USER)
        self.assertEqual(result.code, 1, result)
        self.assertIn("no such user", result.err)

    def test_locked_until_with_default_and_given_throttle(self):
        self.set_pattern(USER_A)
        now = int(time.time())
        self.box.write_state(USER_A, 5, now)
        facts = self.status(USER_A)
        self.assertEqual(facts["failures"].split()[0], "5")
        match = re.fullmatch(r"until %s \((\d+) s\)" % LOCAL_UTC, facts["locked"])
        self.assertIsNotNone(match, facts)
        seconds = int(match.group(2))
        self.assertTrue(55 <= seconds <= 60, facts)  # deny=5, unlock_time=60: one minute
        self.assertTrue(abs(_utc_seconds(match.group(1)) - (now + 60)) <= 2, facts)
        # With the module's options mirrored: deny=10 means 5 failures do not lock yet.
        self.assertEqual(self.status(USER_A, "--deny", "10")["locked"], "no")
        # unlock_time=600 makes the first wait ten minutes.
        locked = self.status(USER_A, "--unlock-time", "600")["locked"]
        self.assertTrue(570 <= int(re.search(r"\((\d+) s\)", locked).group(1)) <= 600, locked)
        # lock_after=5: disabled.
        self.assertEqual(self.status(USER_A, "--lock-after", "5")["locked"], "disabled")
        # An old failure: the wait is over.
        self.box.write_state(USER_A, 5, now - 3600)
        self.assertEqual(self.status(USER_A)["locked"], "no")

    def test_times_are_local_for_a_person_and_utc_iso_in_json(self):
        self.set_pattern(USER_A)
        self.box.write_state(USER_A, 5, int(time.time()))
        facts = json.loads(self.ctl("status", "--json", USER_A, env={"TZ": "Asia/Kolkata"}).out)
        set_at = calendar.timegm(time.strptime(facts["set"], "%Y-%m-%dT%H:%M:%SZ"))
        until = calendar.timegm(time.strptime(facts["locked_until"], "%Y-%m-%dT%H:%M:%SZ"))
        for zone in ("America/New_York", "Asia/Kolkata"):
            with self.subTest(zone=zone):

                def local(seconds):
                    return datetime.fromtimestamp(seconds, ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M:%S %Z")

                status = self.ctl("status", USER_A, env={"TZ": zone}).out
                self.assertIn("\nset: %s\n" % local(set_at), status)
                self.assertRegex(status, r"\nlocked: until %s \(\d+ s\)\n" % re.escape(local(until)))
                listed = self.ctl("list", env={"TZ": zone}).out
                self.assertEqual(cli.table_rows(listed)[0][:2], [USER_A, local(set_at)])
                # Scripts get UTC whatever the zone.
                self.assertEqual(json.loads(self.ctl("status", "--json", USER_A, env={"TZ": zone}).out), facts)

    def test_lock_after_zero_never_disables(self):
        self.set_pattern(USER_A)
        self.box.write_state(USER_A, 20, int(time.time()))
        self.assertEqual(self.status(USER_A)["locked"], "disabled")
        self.assertRegex(self.status(USER_A, "--lock-after", "0")["locked"], r"^until ")

    def test_list(self):
        empty = self.ctl("list")
        self.assertEqual((empty.code, empty.out), (0, "USER  SET  COST  FAILURES  LOCKED\n"), empty)
        self.set_pattern(USER_A, cost="2")
        self.set_pattern(USER_B, cost="1")
        self.box.write_state(USER_B, 20, int(time.time()))
        result = self.ctl("list")
        self.assertEqual(result.code, 0, result)
        lines = result.out.splitlines()
        self.assertEqual(lines[0].split(), ["USER", "SET", "COST", "FAILURES", "LOCKED"])
        rows = {row[0]: row for row in cli.table_rows(result.out)}
        self.assertEqual(sorted(rows), sorted([USER_A, USER_B]))
        self.assertRegex(rows[USER_A][1], LOCAL_UTC)
        self.assertEqual(rows[USER_A][2:], ["2", "0", "no"])
        self.assertEqual(rows[USER_B][2:], ["1", "20", "disabled"])


class RemoveResetTests(SandboxCase):
    def test_remove(self):
        self.set_pattern(USER_A)
        self.set_pattern(USER_B)
        result = self.ctl("remove", USER_A)
        self.assertEqual(result.code, 0, result)
        self.assertEqual(self.status(USER_A)["enrolled"], "no")
        self.assertEqual(self.status(USER_B)["enrolled"], "yes")
        before = self.box.tree_snapshot()
        again = self.ctl("remove", USER_A)
        self.assertEqual(again.code, 1, again)
        self.assertIn("has no pattern", again.err)
        self.assertEqual(self.box.tree_snapshot(), before)

    def test_reset_clears_a_lock(self):
        self.set_pattern(USER_A)
        self.box.write_state(USER_A, 20, int(time.time()))
        self.assertEqual(self.status(USER_A)["locked"], "disabled")
        result = self.ctl("reset", USER_A)
        self.assertEqual(result.code, 0, result)
        self.assertIn("20", result.out)
        facts = self.status(USER_A)
        self.assertEqual((facts["failures"].split()[0], facts["locked"]), ("0", "no"))

    def test_reset_without_failures(self):
        result = self.ctl("reset", USER_B)
        self.assertEqual(result.code, 0, result)
        self.assertIn("no failed attempts", result.out)


if __name__ == "__main__":
    unittest.main()
