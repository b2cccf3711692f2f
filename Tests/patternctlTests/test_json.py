"""`status --json` and `list --json`: the output parses, has exactly the documented
fields in their order, and says what the text output says, field by field."""

import json
import re
import time
import unittest

from support import cli
from support.cli import USER_A, USER_B
from support.sandbox import SandboxCase

# patternctl(8), JSON OUTPUT: the fields, in this order; scripts rely on them.
FIELDS = ["user", "enrolled", "set", "cost", "failures", "locked", "locked_until", "wait_seconds"]


def expected_from_text(facts):
    """The JSON object the text facts (status lines or a list row) stand for."""
    locked = facts["locked"]
    until = re.fullmatch(r"until %s \((\d+) s\)" % cli.LOCAL_UTC, locked)
    # status says how slow the hash is, with its cost at the end; a list row has the bare COST column.
    cost = re.search(r"\(cost (\d+)\)$", facts["hash"]).group(1) if facts.get("hash", "-") != "-" else None
    if "hash" not in facts and "cost" in facts:  # a list row (status without a pattern has neither)
        cost = None if facts["cost"] == "-" else facts["cost"]
    return {
        "user": facts["user"],
        "enrolled": {"yes": True, "no": False}[facts["enrolled"].split()[0]],
        "set": None if facts.get("set", "-") == "-" else cli.iso_from_local(facts["set"]),
        "cost": None if cost is None else int(cost),
        # status's failures line starts with the count, then says what it means.
        "failures": None if facts["failures"] == "?" else int(facts["failures"].split()[0]),
        "locked": None if locked == "?" else ("wait" if until else locked),
        "locked_until": cli.iso_from_local(until.group(1)) if until else None,
        "wait_seconds": int(until.group(2)) if until else None,
    }


class JsonTests(SandboxCase):
    def json_status(self, user, *extra):
        result = self.ctl("status", "--json", *extra, user)
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.out.count("\n"), 1, result)  # one line, one object
        return json.loads(result.out, object_pairs_hook=self.ordered)

    def ordered(self, pairs):
        # Keeps the order of the keys so the test can check it.
        return {"__order__": [key for key, _ in pairs], **dict(pairs)}

    def assertMatches(self, obj, text_facts):
        self.assertEqual(obj.pop("__order__"), FIELDS)
        expected = expected_from_text(text_facts)
        # A wait is shown in whole seconds: the two runs may straddle a second boundary.
        if expected["wait_seconds"] is not None and obj["wait_seconds"] is not None:
            self.assertLessEqual(abs(expected["wait_seconds"] - obj["wait_seconds"]), 1)
            obj["wait_seconds"] = expected["wait_seconds"]
        for field in FIELDS:
            with self.subTest(field=field):
                self.assertEqual(obj[field], expected[field], (obj, text_facts))

    def test_status_json_matches_the_text_in_every_state(self):
        now = int(time.time())
        cases = [
            ("not enrolled", USER_B, None, ()),
            ("enrolled", USER_A, None, ()),
            ("waiting", USER_A, (5, now), ()),
            ("disabled", USER_A, (20, now), ()),
            ("never disabled", USER_A, (20, now), ("--lock-after", "0")),
            ("allowed by the given deny", USER_A, (5, now), ("--deny", "10")),
        ]
        self.set_pattern(USER_A, cost="2")
        for name, user, state, extra in cases:
            with self.subTest(case=name):
                if state:
                    self.box.write_state(user, *state)
                self.assertMatches(self.json_status(user, *extra), self.status(user, *extra))

    def test_status_json_kinds(self):
        self.set_pattern(USER_A, cost="2")
        self.box.write_state(USER_A, 5, int(time.time()))
        obj = self.json_status(USER_A)
        self.assertEqual((obj["enrolled"], obj["cost"], obj["failures"], obj["locked"]), (True, 2, 5, "wait"))
        self.assertRegex(obj["set"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertGreater(obj["wait_seconds"], 0)
        none = self.json_status(USER_B)
        self.assertEqual((none["enrolled"], none["set"], none["cost"], none["locked_until"]), (False, None, None, None))

    def test_list_json_matches_the_table(self):
        empty = self.ctl("list", "--json")
        self.assertEqual((empty.code, empty.out), (0, '{"users":[]}\n'), empty)
        self.set_pattern(USER_A, cost="2")
        self.set_pattern(USER_B, cost="1")
        self.box.write_state(USER_B, 7, int(time.time()))
        table = self.ctl("list")
        result = self.ctl("list", "--json")
        self.assertEqual(result.code, 0, result)
        users = json.loads(result.out, object_pairs_hook=self.ordered)["users"]
        header = [name.lower() for name in table.out.splitlines()[0].split()]
        rows = [dict(zip(header, row)) for row in cli.table_rows(table.out)]
        self.assertEqual([u["user"] for u in users], [row["user"] for row in rows])  # same order
        for obj, row in zip(users, rows):
            row["enrolled"] = "yes"
            with self.subTest(user=row["user"]):
                self.assertMatches(obj, row)
        self.assertEqual(users[1]["locked"], "wait")

    def test_list_json_with_an_unreadable_state_says_null_and_fails(self):
        self.set_pattern(USER_A)
        self.set_pattern(USER_B)
        with open(self.box.state_path(USER_B), "wb") as handle:
            handle.write(b"garbage\n")
        table = self.ctl("list")
        result = self.ctl("list", "--json")
        self.assertEqual((table.code, result.code), (1, 1), result)
        self.assertIn(USER_B, result.err)
        users = {u["user"]: u for u in json.loads(result.out)["users"]}
        self.assertEqual((users[USER_B]["failures"], users[USER_B]["locked"]), (None, None))
        self.assertEqual(users[USER_A]["failures"], 0)
        row = next(row for row in cli.table_rows(table.out) if row[0] == USER_B)
        self.assertEqual(row[3:], ["?", "?"])

    def test_json_is_refused_where_it_does_not_apply(self):
        result = self.ctl("show", "--json", "1562943")
        self.assertEqual(result.code, 2, result)


if __name__ == "__main__":
    unittest.main()
