"""The core as sudo, login, the helper and the pad run it (Embedded Swift, -Osize) against the core as the unit
tests and fuzzers run it (normal Swift): the same inputs through both builds of Tools/core-vectors, and any
difference in what they print fails.

Why: `swift test` and the fuzzers only ever exercise the normal build, and the Embedded build has miscompiled
before where the normal one was right (ARCHITECTURE.md, "No array literals returned from a switch at -Osize").
The inputs: every fuzz corpus entry of the parsers (typed patterns, stores, module arguments, configuration
files, the helper's framing, verdict lines and argv), every 4- and 5-dot pattern and a sample of longer ones
typed in both layouts, the strength rules over all 389,112 patterns at every minimum length, seeded pointer
paths for the hit rules, and throttle states across the schedule and its edges.
"""

import os
import random
import unittest

from support import paths
from support.module_words import OTHER_PROMPTS, languages, prompt_cases, said_cases
from support.pointer_paths import line_of, paths_for

NORMAL = os.path.join(paths.BUILD, "core-vectors")
EMBEDDED = os.path.join(paths.BUILD, "core-vectors-embedded")
CORPUS = os.path.join(paths.ROOT, "fuzz", "corpus")


def corpus(target):
    folder = os.path.join(CORPUS, target)
    entries = []
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as entry:
            data = entry.read()
        entries.append(data)
        entries.append(data[1:])  # without the fuzz target's control byte: the parser's own input
    return entries


def typed_patterns(rng):
    """Every 4- and 5-dot drawing's digits, a sample of longer ones, and junk."""
    found = []

    def walk(digits):
        if len(digits) in (4, 5):
            found.append(digits)
        if len(digits) == 5:
            return
        for dot in "123456789":
            if dot not in digits:
                walk(digits + dot)

    walk("")
    typed = [d.encode() for d in found]  # includes jumps the parser fills in or refuses
    for _ in range(3000):
        typed.append("".join(rng.sample("123456789", rng.randint(6, 9))).encode())
    for _ in range(1000):
        typed.append(bytes(rng.choice(b"0123456789 -\t\nx\xff") for _ in range(rng.randint(0, 12))))
    typed += [b"", b"1" * 300, b"1 2 3 4", b"12-36-9"]
    return typed


def policy_states(rng):
    states = []
    for failures in list(range(0, 25)) + [99, 10**9, 9_999_999_999, -1]:
        for deny in (1, 3, 5, 10):
            for lock_after in (0, 5, 20, 100):
                last = 1_700_000_000
                for elapsed in (0, 1, 59, 60, 61, 300, 3600, 10**6, 10**9, -5):
                    states.append("%d %d %d %d %d %d" % (failures, last, last + elapsed, deny, 60, lock_after))
    for _ in range(2000):
        values = [rng.choice((0, 1, -1, 2**31, 2**62, -(2**62), rng.randint(-(10**12), 10**12))) for _ in range(6)]
        states.append(" ".join(map(str, values)))
    return [s.encode() for s in states]


def enrolment_records(rng):
    """Inputs "now\nRECORD": a user's own enrolments into the TPM, around the hour's edge, and malformed ones."""
    inputs = []
    base = 1_700_000_000
    for _ in range(1500):
        # Half of them within about an hour before now: full records, at the window's edge.
        spread = rng.choice(((-4000, 4000), (-3700, 0)))
        times = sorted(base + rng.randint(*spread) for _ in range(rng.randint(0, 12)))
        record = " ".join(map(str, times)) + "\n" if times else ""
        now = base + rng.choice((0, 1, -1, 3599, 3600, 3601, rng.randint(-5000, 8000)))
        inputs.append(("%d\n%s" % (now, record)).encode())
    for bad in ("1", "1 \n", "01\n", "1  2\n", "-1\n", "x\n", "9" * 25 + "\n"):
        inputs.append(("%d\n%s" % (base, bad)).encode())
    return inputs


class CoreVectorsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        paths.require_built(NORMAL, EMBEDDED)

    def through_both(self, kind, inputs):
        """Runs `inputs` through both builds; fails on any difference; returns the decoded results."""
        framed = "".join("%s %s\n" % (kind, data.hex()) for data in inputs).encode()
        answers = []
        for tool in (NORMAL, EMBEDDED):
            result = paths.run([tool], input=framed, timeout=600)
            self.assertEqual(result.returncode, 0, "%s failed: %s" % (tool, result.stderr[-2000:]))
            lines = result.stdout.decode().split("\n")[:-1]
            self.assertEqual(len(lines), len(inputs), "%s answered %d of %d inputs" % (tool, len(lines), len(inputs)))
            self.assertTrue(all(line.startswith(kind + " ") for line in lines), "%s: %s" % (tool, lines[:3]))
            answers.append([bytes.fromhex(line[len(kind) + 1 :]) for line in lines])
        normal, embedded = answers
        differences = [(data, a, b) for data, a, b in zip(inputs, normal, embedded) if a != b]
        shown = "\n".join(
            "input %r\n  normal   %r\n  embedded %r" % (d, a[:300], b[:300]) for d, a, b in differences[:3]
        )
        self.assertEqual(
            len(differences), 0, "%s: %d of %d inputs differ:\n%s" % (kind, len(differences), len(inputs), shown)
        )
        return normal

    def assert_varied(self, results, at_least):
        """The vectors are not degenerate: they reach many different results."""
        self.assertGreaterEqual(len(set(results)), at_least, "only %d different results" % len(set(results)))

    def test_typed_patterns(self):
        inputs = corpus("pattern") + typed_patterns(random.Random(1))
        results = self.through_both("pattern", inputs)
        self.assert_varied(results, 5000)
        self.assertTrue(any(b"ok " in r for r in results) and any(b"error " in r for r in results))
        self.assertTrue(any(b" weak " in r for r in results))

    def test_strength_rules_over_every_pattern(self):
        results = self.through_both("strength", [str(n).encode() for n in (4, 5, 6, 7, 8, 9, 0, 10, -1)])
        for result in results:
            counts = [int(part.split(b" ", 1)[0]) for part in result.split(b"\n")[:-1]]
            self.assertEqual(sum(counts), 389_112, result[:200])
        self.assertGreater(len(set(results)), 3)

    def test_strength_hints_over_every_pattern(self):
        # Every refused drawing's hint, followed, passes: "broken" (the 8th count) is 0 in both builds.
        inputs = [b"4 3", b"4 1", b"6 3", b"9 2", b"5 0", b"-1 2"]
        results = self.through_both("hint", inputs)
        for result in results:
            counts = [int(part) for part in result.split(b" ")[:8]]
            self.assertEqual(sum(counts[:4]), 389_112 + 385, result)
            self.assertEqual(counts[6:], [0, 0], result)
            self.assertEqual(counts[4] + counts[5], sum(counts[1:4]), result)
        self.assertEqual(len(set(results)), len(results))

    def test_stores(self):
        self.assert_varied(self.through_both("store", corpus("store")), 50)

    def test_module_arguments(self):
        self.assert_varied(self.through_both("options", corpus("options")), 50)

    def test_configuration_files(self):
        extra = [
            b"cost = 7\ndeny = 3\n",
            b"# comment\nunlock_time = 120\nlock_after = 30\nself_enroll = no\n",
            b"cost = 99\n",
            b"tpm = yes\nlayout = numpad\n",
            b"nonsense\n",
            b"",
            b"quiet_services = sddm\n",
            b"quiet_services = sddm,kde sddm\n",
            b"quiet_services = SDDM\n",
            b"quiet_services = /etc/pam.d/sddm\n",
            b"quiet_services = ,\n",
        ]
        self.assert_varied(self.through_both("conf", corpus("conf") + extra), 5)

    def test_helper_protocol(self):
        rng = random.Random(2)
        extra = [b"allowed 5\n", b"locked wait 60\n", b"wrong\n", b"verify\x00alice", b"1235789\x00", b"a\x00b\x00"]
        extra += [bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 40))) for _ in range(300)]
        self.assert_varied(self.through_both("helper", corpus("helper") + extra), 50)

    def test_hit_rules(self):
        lines = [line_of(path).encode() for path in paths_for(4242, 4000)]
        results = self.through_both("pad", lines)
        self.assert_varied(results, 1000)

    def test_throttle_policy(self):
        results = self.through_both("policy", policy_states(random.Random(3)))
        self.assert_varied(results, 100)
        self.assertTrue(any(r.startswith(b"wait ") for r in results) and b"disabled next -1" in results)

    def test_enrolment_records(self):
        results = self.through_both("enrolment", enrolment_records(random.Random(27)))
        self.assert_varied(results, 500)
        self.assertTrue(any(r.startswith(b"refuses ") for r in results) and b"malformed" in results)

    def test_duration_words(self):
        seconds = [-5, 0, 1, 59, 60, 61, 3599, 3600, 3601, 86399, 10**9, 2**62]
        results = self.through_both("duration", [str(s).encode() for s in seconds + list(range(0, 7300, 37))])
        self.assertEqual(
            results[:6], [b"1 second", b"1 second", b"1 second", b"59 seconds", b"1 minute", b"1 minute 1 second"]
        )
        self.assert_varied(results, 150)

    def test_module_words_read_back_in_every_language(self):
        """The pad's reader (the core's ModuleWords, on the generated table): every sentence the module says that
        it reads, in every shipped language, alone or after "Wrong pattern.", with either route sentence or none,
        comes back as what was said, in both builds."""
        cases = [case for language in languages() for case in said_cases(language)]
        self.assertGreater(len({c[1]["language"] for c in cases}), 1, "only one language shipped?")
        others = [b"Password: ", b"Authentication failure", b"", "图案错误。还可再试 x 次，之后需要等待。".encode()]
        others += [b"Wrong pattern. 1234567890123 tries left before a wait.", b"Wrong pattern. Wrong pattern."]
        others += [b"Too many wrong patterns: try again in 4 moments. Your password still works."]
        results = self.through_both("words", [c[0].encode() for c in cases] + others)
        wrong = []
        for (message, expect), result in zip(cases, results):
            kind, tries, seconds, after_wrong, language, route = result.decode().split(" ", 5)
            read = {
                "kind": kind,
                "language": language,
                "triesLeft": int(tries),
                "seconds": int(seconds),
                "afterWrong": after_wrong == "1",
                "route": route,
            }
            if read != expect:
                wrong.append((message, expect, read))
        shown = "\n".join("%s\n  expected %s\n  read     %s" % w for w in wrong[:5])
        self.assertEqual(wrong, [], "%d of %d sentences misread:\n%s" % (len(wrong), len(cases), shown))
        self.assertEqual(results[len(cases) :], [b"other -1 -1 0  "] * len(others))

    def test_module_prompts_in_every_language(self):
        """Also the PAM_SILENT prompts that carry the tries left ("Pattern (3 tries before a wait): ")."""
        cases = [case for language in languages() for case in prompt_cases(language)]
        self.assertIn(("Pattern (3 tries before a wait): ", "pattern"), cases)
        results = self.through_both("prompt", [p.encode() for p, _ in cases] + [p.encode() for p in OTHER_PROMPTS])
        kinds = [k.encode() for _, k in cases] + [b"password"] * len(OTHER_PROMPTS)
        self.assertEqual(results, kinds)

    def test_the_words_table_is_the_catalogues(self):
        """The table the core reads with is what po/module-words.py makes of the catalogue now."""
        made = paths.run(["python3", os.path.join(paths.ROOT, "po", "module-words.py"), "--swift", paths.ROOT])
        self.assertEqual(made.returncode, 0, made.stderr)
        with open(os.path.join(paths.ROOT, "Sources", "PatternCore", "Text", "ModuleWordsTable.swift"), "rb") as f:
            self.assertEqual(made.stdout, f.read(), "ModuleWordsTable.swift is stale: run `make words`")

    def test_a_difference_is_caught(self):
        """The comparison can fail: two tools that differ on one input are reported (the normal build against a
        wrapper that changes one answer)."""
        wrapper = os.path.join(paths.BUILD, "..", ".build", "tmp", "core-vectors-changed")
        os.makedirs(os.path.dirname(wrapper), exist_ok=True)
        with open(wrapper, "w") as script:
            script.write("#!/bin/sh\n%s | sed '2s/^policy 61/policy 62/'\n" % NORMAL)
        os.chmod(wrapper, 0o755)
        global EMBEDDED
        saved = EMBEDDED
        EMBEDDED = wrapper
        try:
            with self.assertRaises(AssertionError) as caught:
                self.through_both("policy", [b"0 0 0 5 60 20", b"1 0 0 5 60 20", b"2 0 0 5 60 20"])
            self.assertIn("1 of 3 inputs differ", str(caught.exception))
        finally:
            EMBEDDED = saved
            os.unlink(wrapper)


if __name__ == "__main__":
    unittest.main()
