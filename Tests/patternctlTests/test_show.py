"""`patternctl show`: canonical digits, drawing and strength, against golden files."""

import unittest

from support import cli
from support.cli import run, golden
from support.paths import PATTERNCTL, require_built


class ShowTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)

    def test_z_shape_ascii_golden(self):
        result = run("show", "--ascii", "1235789")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.err, "", result)
        self.assertTrue(result.out.startswith("canonical: 1235789\n"), result)
        self.assertRegex(result.out, r"\nstrength: weak \(.+\)\n$")
        golden(self, "show-1235789-ascii.txt", result.out)

    def test_z_shape_unicode_golden(self):
        result = run("show", "--unicode", "1235789")
        self.assertEqual(result.code, 0, result)
        golden(self, "show-1235789-unicode.txt", result.out)

    def test_good_pattern_golden(self):
        result = run("show", "--ascii", cli.GOOD)
        self.assertEqual(result.code, 0, result)
        self.assertTrue(result.out.endswith("\nstrength: ok\n"), result)
        golden(self, "show-%s-ascii.txt" % cli.GOOD, result.out)

    def test_ascii_is_the_default_when_stdout_is_not_a_terminal(self):
        self.assertEqual(run("show", "1235789").out, run("show", "--ascii", "1235789").out)

    def test_skipped_dots_are_added(self):
        # 1379 passes over 2, 5 (already passed: 3->7 crosses 5) and 8: the same pattern as the Z.
        short = run("show", "--ascii", "1379")
        self.assertEqual(short.code, 0, short)
        self.assertEqual(short.out, run("show", "--ascii", "1235789").out)

    def test_numpad_layout_is_honoured(self):
        # On a numpad 7 8 9 is the top row: typing 7931 draws dots 1 3 9 7, which pass
        # over keys 8, 6 and 2; the answer is in the numpad's digits, never the phone's.
        numpad = run("--layout", "numpad", "show", "--ascii", "7931")
        self.assertEqual(numpad.code, 0, numpad)
        self.assertTrue(numpad.out.startswith("canonical: 7896321\n"), numpad)
        self.assertNotIn("1236987", numpad.out)
        golden(self, "show-numpad-7896321-ascii.txt", numpad.out)
        lines = numpad.out.splitlines()
        self.assertTrue(lines[1].startswith("[7]"), numpad)  # the top row is labelled 7 8 9
        self.assertEqual(lines[9].split()[0], "1-----<-2-----<-3")  # the bottom row 1 2 3
        self.assertIn("Start at [7]", numpad.out)
        # The option after the command means the same.
        self.assertEqual(numpad.out, run("show", "--layout=numpad", "--ascii", "7931").out)
        # The answer typed back on the numpad is the same pattern.
        self.assertEqual(numpad.out, run("--layout", "numpad", "show", "--ascii", "7896321").out)
        # The phone layout draws the same shape with the phone's labels.
        phone = run("show", "--ascii", "1236987")
        self.assertTrue(phone.out.startswith("canonical: 1236987\n"), phone)
        self.assertEqual(phone.out.translate(str.maketrans("789123", "123789")), numpad.out)

    def test_numpad_errors_name_the_numpad_key(self):
        result = run("--layout", "numpad", "show", "1471")
        self.assertEqual(result.code, 1, result)
        self.assertIn("Dot 1 (bottom left) is used twice", result.err)

    def test_read_from_stdin(self):
        result = run("show", "--ascii", "-", stdin="1235789\n")
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.out, run("show", "--ascii", "1235789").out)

    def test_min_length_is_honoured(self):
        result = run("show", "--min-length", "6", "12369")
        self.assertEqual(result.code, 1, result)
        self.assertEqual(result.out, "", result)
        self.assertIn("5 dots", result.err)

    def test_invalid_codes_exit_1_with_the_reason(self):
        cases = {
            "1231": "used twice",
            "12a5": "'a'",
            "123": "3 dots",
            "10789": "0",
            "": "",
            "1" * 65: "65",
        }
        transcript = ""
        for code, fragment in cases.items():
            with self.subTest(code=code):
                result = run("show", code)
                self.assertEqual(result.code, 1, result)
                self.assertEqual(result.out, "", result)
                self.assertTrue(result.err.startswith("patternctl: "), result)
                self.assertEqual(result.err.count("\n"), 1, result)
                self.assertIn(fragment, result.err)
            transcript += "$ patternctl show '%s'\n%s\n" % (code, result.err)
        golden(self, "show-invalid.txt", transcript)

    def test_show_needs_no_root(self):
        result = run("show", "--ascii", "1235789", as_nobody=True)
        self.assertEqual(result.code, 0, result)
        self.assertEqual(result.out, run("show", "--ascii", "1235789").out)


if __name__ == "__main__":
    unittest.main()
