"""patternctl's help screens are translated whole: under LANG=zh_CN.UTF-8 no line of prose is left in
English, so a help text written without localized() (or missing from po/zh_CN.po) fails here."""

import re
import unittest

from chinese import ChineseLocaleCase

# Lines that are the same in every language: empty, the grid, the field names `status` prints.
UNTRANSLATED = re.compile(r"^(|    [1-9] [1-9] [1-9]|  [a-z ]+: [A-Z|a-z ()\[\]]+)$")


class HelpTranslationTest(ChineseLocaleCase):
    def help(self, command, chinese):
        """`patternctl [COMMAND] --help` in English (C.UTF-8) or in Chinese."""
        done = self.patternctl(*([command] if command else []), "--help", chinese=chinese)
        self.assertEqual((done.returncode, done.stderr), (0, ""), done)
        return done.stdout.split("\n")

    def test_every_help_screen_is_translated(self):
        english = self.help(None, chinese=False)
        commands = [line.split()[0] for line in english[english.index("Commands:") + 1 :] if line.startswith("  ")]
        commands = commands[: commands.index("help") + 1]
        self.assertIn("set", commands)
        for command in [None] + commands:
            with self.subTest(command=command):
                english, chinese = self.help(command, False), self.help(command, True)
                self.assertNotEqual(english, chinese)
                left = [line for line in chinese if line in english and not UNTRANSLATED.match(line)]
                self.assertEqual(left, [], "English lines in the Chinese help")
                # Option and command names are not translated.
                labels = [line.split("  ")[1] for line in english if re.match(r"^  (-[a-z], )?--[a-z]", line)]
                for label in labels:
                    self.assertTrue(any(line.startswith("  " + label + " ") for line in chinese), label)


if __name__ == "__main__":
    unittest.main()
