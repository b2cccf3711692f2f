"""The KDE lock screen's accessible names and its own words in every shipped language (English and zh_CN):
tst_lock_screen_names.qml reads them in Qt's test runner, on a private Xvfb, from the lock screen as `make build`
assembled it (build/kde/plasma5: PatternLockScreen.qml, the grid, ModuleWords.js), with LANG set to the
language. What each must say comes from the message catalogue (po/*.po, support.module_words), not from the
generated ModuleWords.js: the grid (drawing, and locked), each dot by its number, the password field, the wait
as the module says it and its countdown at 42 s, "Unlocking failed", and the sentence for a forgotten pattern
that works at a screen ("Use your password") where the module's says to run a command or ask an administrator."""

import json
import os
import shutil
import tempfile
import unittest

from support import module_words, paths, qml

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tst_lock_screen_names.qml")
LOCK_SCREEN = os.path.join(paths.BUILD, "kde", "plasma5", "contents", "lockscreen")
WAIT = "Too many wrong patterns: try again in %s. Your password still works."
WRONG = "Wrong pattern. %s try left before a wait."
WRONG_PLURAL = "Wrong pattern. %s tries left before a wait."
ROUTE_SELF = "Forgot your pattern? Set a new one with your password: patternctl set --forgot"
ROUTE_ADMIN = "Forgot your pattern? Only an administrator can set a new one."
ROUTE_SCREEN = "Forgot your pattern? Use your password."
LOCALES = {"C": "C.UTF-8", "zh_CN": "zh_CN.UTF-8"}


def expected(language):
    """What the lock screen must say in `language` (a support.module_words.Language)."""
    return {
        "grid": language.say("Pattern grid: draw your pattern"),
        "lockedGrid": language.say("Pattern grid, locked: the message says how long"),
        "dots": [language.say("Dot %s", None, None, dot) for dot in range(1, 10)],
        "password": language.say("Password"),
        "wait": language.say(WAIT, None, None, language.duration(60)),
        "countdown": language.say(WAIT, None, None, language.duration(42)),
        "unlockingFailed": language.say("Unlocking failed"),
        # What the module says after a wrong drawing, and what the screen shows for it: the sentence for a
        # forgotten pattern that works at a screen in place of the command (or the administrator).
        "wrongWithCommand": language.say(WRONG, WRONG_PLURAL, 4, 4) + " " + language.say(ROUTE_SELF),
        "wrongWithAdmin": language.say(WRONG, WRONG_PLURAL, 4, 4) + " " + language.say(ROUTE_ADMIN),
        "wrongAtScreen": language.say(WRONG, WRONG_PLURAL, 4, 4) + " " + language.say(ROUTE_SCREEN),
        "waitWithCommand": language.say(WAIT, None, None, language.duration(60)) + " " + language.say(ROUTE_SELF),
        "countdownAtScreen": language.say(WAIT, None, None, language.duration(42)) + " " + language.say(ROUTE_SCREEN),
    }


class LockScreenNamesTests(unittest.TestCase):
    def test_every_language_reads_back_in_qt_test_runner(self):
        paths.require_built(os.path.join(LOCK_SCREEN, "PatternLockScreen.qml"))
        languages = module_words.languages()
        self.assertEqual(sorted(language.name for language in languages), sorted(LOCALES))
        for language in languages:
            with self.subTest(language.name):
                words = expected(language)
                if language.name != "C":
                    english = expected(languages[0])
                    same = [key for key in words if words[key] == english[key]]
                    self.assertEqual(same, [], "not translated in %s: %s" % (language.name, same))
                self.run_names(language.name, words)

    def run_names(self, name, words):
        with tempfile.TemporaryDirectory(prefix="pam_pattern-qmlnames.") as work:
            tests = os.path.join(work, "tests")
            shutil.copytree(LOCK_SCREEN, tests)
            shutil.copy(TESTS, tests)
            with open(os.path.join(tests, "expected.js"), "w", encoding="utf-8") as f:
                f.write(".pragma library\n")
                for key, value in words.items():
                    f.write("var %s = %s\n" % (key, json.dumps(value, ensure_ascii=False)))
            tests = os.path.join(tests, os.path.basename(TESTS))
            qml.run_qt_tests(self, tests, source=TESTS, screen="1024x900x24", lang=LOCALES[name])


if __name__ == "__main__":
    unittest.main()
