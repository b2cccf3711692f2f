"""`patternctl bench`: one row per cost with memory, verify time and whole-space time."""

import re
import unittest

from support.cli import run
from support.paths import PATTERNCTL, require_built


class BenchTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)

    def test_table_for_costs_up_to_max(self):
        result = run("bench", "--max", "3", as_nobody=True)
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.err, "", result)
        lines = result.out.splitlines()
        header = lines.index(next(line for line in lines if line.startswith("COST")))
        self.assertEqual(lines[header].split(), ["COST", "MEMORY", "VERIFY", "ALL", "PATTERNS"])
        rows = lines[header + 1 :]
        self.assertEqual(len(rows), 3, result)
        for cost, row in zip((1, 2, 3), rows):
            match = re.fullmatch(r"(\d+)\s+(\d+) MiB\s+(\d+\.\d) ms\s+\d+\.\d (s|min|h|d)", row)
            self.assertIsNotNone(match, row)
            self.assertEqual(int(match.group(1)), cost)
            self.assertEqual(int(match.group(2)), 2 ** (cost - 1))
            # Its times are measured, so not compared here (a busy machine can turn them round; make bench
            # compares speeds, as ratios); a time of nothing would be no measurement.
            self.assertGreater(float(match.group(3)), 0.0, row)
        self.assertIn("389112", result.out)


if __name__ == "__main__":
    unittest.main()
