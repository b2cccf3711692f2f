"""The QML surfaces read the module's words back from one source: ModuleWords.js, generated from the message
catalogue by po/module-words.py. Every sentence the module can say that they read (wrong with the tries left,
a wait of any length, disabled; alone or after "Wrong pattern."; with either sentence for a forgotten pattern
after it), in every shipped language, goes through the generated reader in Qt's own engine (qmlscene), and
must come back as what was said. The countdown the lock screen says itself must read as the module says a
wait: the core's DurationWords (build/core-vectors) in English, the catalogue's words in the others.
"""

import os
import unittest

from support import paths, qml
from support.module_words import OTHER_PROMPTS, WAITS, languages, prompt_cases, said_cases

WORDS_JS = os.path.join(paths.BUILD, "kde", "plasma5", "contents", "lockscreen", "ModuleWords.js")
VECTORS = os.path.join(paths.BUILD, "core-vectors-embedded")

# Every message read back, every countdown said (ModuleWords.read, ModuleWords.waitSaid).
READ_AND_SAY = """
        out = {read: [], said: []}
        for (var i = 0; i < data.read.length; ++i) out.read.push(Lib.read(data.read[i]))
        for (var j = 0; j < data.said.length; ++j) out.said.push(Lib.waitSaid(data.said[j][0], data.said[j][1], data.said[j][2]))
"""


# The kind of every prompt (ModuleWords.promptKind).
PROMPT_KINDS = """
        out = []
        for (var i = 0; i < data.length; ++i) out.push(Lib.promptKind(data[i]))
"""


class ModuleWordsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        paths.require_built(WORDS_JS, VECTORS)
        paths.require_tools("qmlscene")

    def run_qml(self, cases):
        return qml.evaluate(WORDS_JS, READ_AND_SAY, cases, timeout=120)

    def test_every_sentence_in_every_language_reads_back(self):
        cases = [case for language in languages() for case in said_cases(language)]
        self.assertGreater(len({c[1]["language"] for c in cases}), 1, "only one language shipped?")
        got = self.run_qml({"read": [c[0] for c in cases], "said": []})["read"]
        wrong = [(message, expect, read) for (message, expect), read in zip(cases, got) if read != expect]
        shown = "\n".join("%s\n  expected %s\n  read     %s" % w for w in wrong[:5])
        self.assertEqual(wrong, [], "%d of %d sentences misread:\n%s" % (len(wrong), len(cases), shown))
        self.assertEqual(
            self.run_qml({"read": ["Password: ", "Authentication failure"], "said": []})["read"][0]["kind"], "other"
        )

    def test_every_prompt_in_every_language_is_known(self):
        """Also the PAM_SILENT prompts that carry the tries left, from the same generated words as the pad's."""
        cases = [case for language in languages() for case in prompt_cases(language)]
        got = qml.evaluate(WORDS_JS, PROMPT_KINDS, [p for p, _ in cases] + OTHER_PROMPTS, timeout=120)
        self.assertEqual(got, [k for _, k in cases] + ["password"] * len(OTHER_PROMPTS))

    def test_the_countdown_says_a_wait_as_the_module_does(self):
        framed = "".join("duration %s\n" % str(s).encode().hex() for s in WAITS).encode()
        done = paths.run([VECTORS], input=framed)
        core = [bytes.fromhex(line.split(" ")[1]).decode() for line in done.stdout.decode().splitlines()]
        said_cases = []
        expected = []
        for language in languages():
            for seconds, words in zip(WAITS, core):
                said_cases.append([language.name, seconds, ""])
                if language.name == "C":
                    self.assertEqual(language.duration(seconds), words)  # the test's own words are the core's
                expected.append(
                    language.say(
                        "Too many wrong patterns: try again in %s. Your password still works.",
                        None,
                        None,
                        language.duration(seconds),
                    )
                )
        said = self.run_qml({"read": [], "said": said_cases})["said"]
        self.assertEqual(said, expected)
