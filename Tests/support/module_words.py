"""The module's sentences that other programs read back, said in every shipped language as the module says
them (from the message catalogue, po/*.po, and DurationWords' definition), with what each says: the cases the
readers of po/module-words.py's generated words are held to (Tests/QMLTests: ModuleWords.js in Qt's engine;
Tests/CoreVectorsTests: the core's ModuleWords, which the pad reads with, through both builds).
"""

import json
import os
import re

from support import paths

PO = os.path.join(paths.ROOT, "po")

WAITS = [1, 2, 59, 60, 61, 119, 120, 121, 3599, 3600, 3601, 3660, 3661, 7199, 86399, 86400, 90061, 36 * 3600]


def entries(path):
    """msgid -> msgstr forms, from a .po file (single-line strings, as this project writes them)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = {}
    pattern = r'^msgid "((?:[^"\\]|\\.)*)"\n(?:msgid_plural "(?:[^"\\]|\\.)*"\n)?((?:msgstr(?:\[\d\])? "(?:[^"\\]|\\.)*"\n?)+)'
    for msgid, forms in re.findall(pattern, text, re.M):
        found[json.loads('"%s"' % msgid)] = [
            json.loads('"%s"' % f) for f in re.findall(r'msgstr(?:\[\d\])? "((?:[^"\\]|\\.)*)"', forms)
        ]
    return found


class Language:
    """A shipped language's words for the module's sentences: the msgids (C) or a .po file's."""

    def __init__(self, name, translations, plural):
        self.name, self.translations, self.plural = name, translations, plural

    def say(self, msgid, plural_msgid=None, n=None, *values):
        forms = self.translations.get(msgid)
        if forms and all(forms):
            text = forms[min(self.plural(n), len(forms) - 1)] if plural_msgid else forms[0]
        else:
            text = plural_msgid if plural_msgid and n != 1 else msgid
        return fill(text, values)

    def duration(self, seconds):
        """DurationWords.said, from its definition: the largest unit, and the next smaller one if not whole."""
        s = max(1, seconds)
        units = [("%s second", "%s seconds"), ("%s minute", "%s minutes"), ("%s hour", "%s hours")]

        def count(n, unit):
            return self.say(units[unit][0], units[unit][1], n, n)

        if s < 60:
            return count(s, 0)
        larger, rest = (
            (count(s // 60, 1), s % 60 and count(s % 60, 0))
            if s < 3600
            else (
                count(s // 3600, 2),
                (s % 3600) // 60 and count((s % 3600) // 60, 1),
            )
        )
        return self.say("%1$s %2$s", None, None, larger, rest) if rest else larger


def fill(template, values):
    positional = iter(values)
    return re.sub(
        r"%(\d\$)?s", lambda m: str(values[int(m.group(1)[0]) - 1] if m.group(1) else next(positional)), template
    )


def languages():
    found = [Language("C", {}, lambda n: int(n != 1))]
    for name in sorted(os.listdir(PO)):
        if name.endswith(".po"):
            path = os.path.join(PO, name)
            with open(path, encoding="utf-8") as f:
                rule = re.search(r"plural=([^;\\]+);", f.read()).group(1)
            expression = rule.replace("&&", " and ").replace("||", " or ")
            found.append(Language(name[:-3], entries(path), lambda n, e=expression: int(eval(e, {"n": n}))))
    return found


ROUTES = [
    "",
    "Forgot your pattern? Set a new one with your password: patternctl set --forgot",
    "Forgot your pattern? Only an administrator can set a new one.",
]


def said_cases(language):
    """(message, what it says) for every sentence the surfaces read, in one language."""
    cases = []
    for route_msgid in ROUTES:
        route = language.say(route_msgid) if route_msgid else ""

        def add(text, kind, tries=-1, seconds=-1, after_wrong=False):
            message = text + (" " + route if route else "")
            expect = {
                "kind": kind,
                "language": language.name,
                "triesLeft": tries,
                "seconds": seconds,
                "afterWrong": after_wrong,
                "route": route,
            }
            cases.append((message, expect))

        add(language.say("Wrong pattern."), "wrong", after_wrong=True)
        for n in (1, 2, 3, 4, 5, 10, 19):
            add(
                language.say(
                    "Wrong pattern. %s try left before a wait.", "Wrong pattern. %s tries left before a wait.", n, n
                ),
                "wrong",
                tries=n,
                after_wrong=True,
            )
        for seconds in WAITS:
            words = language.duration(seconds)
            shown = seconds if seconds < 3600 else seconds // 60 * 60  # hours and minutes: the seconds are not said
            add(
                language.say("Too many wrong patterns: try again in %s. Your password still works.", None, None, words),
                "wait",
                seconds=shown,
            )
            add(
                language.say(
                    "Wrong pattern. Too many wrong patterns: try again in %s. Your password still works.",
                    None,
                    None,
                    words,
                ),
                "wait",
                seconds=shown,
                after_wrong=True,
            )
        add(
            language.say(
                "Your pattern is disabled after too many wrong tries; an administrator can re-enable it (patternctl reset). Your password still works."
            ),
            "disabled",
        )
        add(
            language.say(
                "Wrong pattern. Your pattern is now disabled after too many wrong tries; an administrator can re-enable it. Your password still works."
            ),
            "disabled",
            after_wrong=True,
        )
    return cases


def prompt_cases(language):
    """[(prompt, kind)]: the module's echo-off prompts in `language`, "pattern" or "patternOrPassword", also as
    said under PAM_SILENT after a failure, with the tries left (UserMessages.promptWithTries)."""
    cases = [(language.say("Pattern: "), "pattern"), (language.say("Pattern or password: "), "patternOrPassword")]
    for n in (1, 2, 3, 19):
        cases.append(
            (language.say("Pattern (%s try before a wait): ", "Pattern (%s tries before a wait): ", n, n), "pattern")
        )
        cases.append(
            (
                language.say(
                    "Pattern or password (%s try before a wait): ",
                    "Pattern or password (%s tries before a wait): ",
                    n,
                    n,
                ),
                "patternOrPassword",
            )
        )
    return cases


# Echo-off prompts that are not the module's: the password field answers them.
OTHER_PROMPTS = ["Password: ", "Pattern:", "", "Pattern (x tries before a wait): ", "Pattern (3 tries before a wait):"]
