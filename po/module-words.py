#!/usr/bin/python3
"""Writes ModuleWords.js: the words of pam_pattern's that the QML surfaces read back, in every shipped
language, from the message catalogue itself (po/pam_pattern.pot and po/*.po), so a translation or a new
wording reaches the lock screen without a second copy of any sentence.

What is read: the module's prompts (which PAM prompt is the pattern's), its verdicts (wrong with the tries
left, a wait with its duration, disabled; alone or after "Wrong pattern."), the way out for a forgotten
pattern that ends them, and the duration words (DurationWords.swift), so the lock screen can count a wait
down in the language the module spoke. A msgid listed here that the catalogue no longer has fails the build.
The lock screen's own words (marked Words.tr("...") in its QML, in the template by po/extract-messages.py) come
along as each language's `screen` table, for tr().

The same words, as a Swift table, are what the pad and the core read back (Sources/PatternCore/Text/
ModuleWordsTable.swift, checked in: `make words` writes it, Tests/LocaleTests fails when it is stale).

Usage: po/module-words.py [ROOT] > ModuleWords.js
       po/module-words.py --swift [ROOT] > Sources/PatternCore/Text/ModuleWordsTable.swift
"""

import json
import pathlib
import re
import sys

# Name in the JS -> msgid (a str) or (singular, plural) msgids: the module's sentences the surfaces read.
WORDS = {
    "patternPrompt": "Pattern: ",
    "patternOrPasswordPrompt": "Pattern or password: ",
    # Under PAM_SILENT after a failure the prompt carries the tries left (UserMessages.promptWithTries).
    "patternPromptTries": ("Pattern (%s try before a wait): ", "Pattern (%s tries before a wait): "),
    "patternOrPasswordPromptTries": (
        "Pattern or password (%s try before a wait): ",
        "Pattern or password (%s tries before a wait): ",
    ),
    "wrong": "Wrong pattern.",
    "wrongTries": ("Wrong pattern. %s try left before a wait.", "Wrong pattern. %s tries left before a wait."),
    "wait": "Too many wrong patterns: try again in %s. Your password still works.",
    "wrongWait": "Wrong pattern. Too many wrong patterns: try again in %s. Your password still works.",
    "disabled": "Your pattern is disabled after too many wrong tries; an administrator can re-enable it "
    "(patternctl reset). Your password still works.",
    "wrongDisabled": "Wrong pattern. Your pattern is now disabled after too many wrong tries; an administrator "
    "can re-enable it. Your password still works.",
    "routeSelf": "Forgot your pattern? Set a new one with your password: patternctl set --forgot",
    "routeAdmin": "Forgot your pattern? Only an administrator can set a new one.",
    # What a lock or login screen says in place of either route (ForgottenPattern.atScreen): no command there.
    "routeScreen": "Forgot your pattern? Use your password.",
    "seconds": ("%s second", "%s seconds"),
    "minutes": ("%s minute", "%s minutes"),
    "hours": ("%s hour", "%s hours"),
    "pair": "%1$s %2$s",
}

STRING = r'"((?:[^"\\]|\\.)*)"'
ENTRY = re.compile(
    r"^msgid " + STRING + r"\n(?:msgid_plural " + STRING + r"\n)?((?:msgstr(?:\[\d\])? " + STRING + r"\n?)+)", re.M
)
MSGSTR = re.compile(r"msgstr(?:\[(\d)\])? " + STRING)


def unquote(text):
    return json.loads('"%s"' % text)


def catalogue(path):
    """msgid -> list of msgstr forms (one for a plain entry), and the header's plural expression."""
    text = path.read_text(encoding="utf-8")
    entries = {}
    for msgid, _plural, forms, _ in ENTRY.findall(text):
        entries[unquote(msgid)] = [unquote(s) for _, s in MSGSTR.findall(forms)]
    plural = re.search(r"Plural-Forms:[^\n]*plural=([^;\\]+);", text)
    return entries, plural.group(1).strip() if plural else None


def languages(root):
    """[(name, plural expression, {key: str or [forms]})]: the msgids ("C") first, then each po/*.po."""
    template, _ = catalogue(root / "po" / "pam_pattern.pot")
    found = [("C", "n != 1", {})]
    for path in sorted((root / "po").glob("*.po")):
        entries, plural = catalogue(path)
        found.append((path.stem, plural or "n != 1", entries))
    result = []
    for name, plural, entries in found:
        words = {}
        for key, msgid in WORDS.items():
            single = msgid if isinstance(msgid, str) else msgid[0]
            if single not in template:
                sys.exit("module-words.py: %r is not in po/pam_pattern.pot (the module no longer says it?)" % single)
            forms = [f for f in entries.get(single, []) if f]
            if isinstance(msgid, str):
                words[key] = forms[0] if forms else msgid
            else:
                words[key] = forms if forms else list(msgid)
        result.append((name, plural, words))
    return result


# Where the surfaces' own words are marked (QML's Words.tr("..."), the GNOME extension's tr('...')): their entries in the
# template name these files.
SCREEN_SOURCES = ("Sources/Surfaces/kde/", "Sources/Surfaces/sddm/", "Sources/Surfaces/gnome/")


def screen_words(root):
    """{language name: {msgid: translation}} of the lock screen's own words (the template's entries whose
    references are under SCREEN_SOURCES), "C" the msgids themselves; an untranslated word is left out."""
    template = (root / "po" / "pam_pattern.pot").read_text(encoding="utf-8")
    msgids = [
        unquote(m.group(2))
        for m in re.finditer(r"^#: ([^\n]*)\n(?:#,[^\n]*\n)?msgid " + STRING + r"\nmsgstr", template, re.M)
        if all(f.startswith(SCREEN_SOURCES) for f in m.group(1).split())
    ]
    words = {"C": {msgid: msgid for msgid in msgids}}
    for path in sorted((root / "po").glob("*.po")):
        entries, _ = catalogue(path)
        words[path.stem] = {msgid: entries[msgid][0] for msgid in msgids if entries.get(msgid, [""])[0]}
    return words


def javascript(found, screen):
    print("// Generated by po/module-words.py from po/pam_pattern.pot and po/*.po: do not edit.")
    print("// What pam_pattern says that the QML surfaces read back, in every shipped language.")
    print(".pragma library")
    print("var languages = [")
    for name, plural, words in found:
        print("    {")
        print('        name: "%s",' % name)
        print("        plural: function (n) { return Number(%s) }," % plural)
        for key, value in words.items():
            print("        %s: %s," % (key, json.dumps(value, ensure_ascii=False)))
        print("        screen: %s," % json.dumps(screen.get(name, {}), ensure_ascii=False, sort_keys=True))
        print("    },")
    print("]")
    with open(pathlib.Path(__file__).resolve().parent / "module-words.js") as reader:
        print(reader.read())


def swift_literal(text):
    escaped = "".join(
        {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}.get(c, c if ord(c) >= 0x20 else "\\u{%x}" % ord(c))
        for c in text
    )
    return '"%s"' % escaped


def swift(found):
    """The table ModuleWords (Sources/PatternCore/Text/ModuleWords.swift) reads: StaticStrings only, so the
    Embedded build keeps it as constant bytes."""
    print("// Generated by po/module-words.py --swift from po/pam_pattern.pot and po/*.po: do not edit (make words).")
    print("// What pam_pattern says that the pad and the core read back, in every shipped language.")
    print("extension ModuleWords {")
    print("    /// Every shipped language's words, the msgids (\"C\") first.")
    print("    static let languages: [Language] = [")
    for name, _plural, words in found:
        print("        Language(")
        fields = [("name", name)] + list(words.items())
        for index, (key, value) in enumerate(fields):
            if isinstance(value, str):
                shown = swift_literal(value)
            else:
                shown = "[" + ", ".join(swift_literal(v) for v in value) + "]"
            comma = "," if index + 1 < len(fields) else ""
            line = "            %s: %s%s" % (key, shown, comma)
            if len(line) > 120 and not isinstance(value, str):  # swift-format's limit: one element a line
                items = "".join("                %s,\n" % swift_literal(v) for v in value)
                line = "            %s: [\n%s            ]%s" % (key, items, comma)
            elif len(line) > 120:  # swift-format's limit: a literal alone on its line may be longer
                line = "            %s:\n                %s%s" % (key, shown, comma)
            print(line)
        print("        ),")
    print("    ]")
    print("}")


def main():
    arguments = sys.argv[1:]
    as_swift = arguments[:1] == ["--swift"]
    if as_swift:
        arguments = arguments[1:]
    root = pathlib.Path(arguments[0] if arguments else pathlib.Path(__file__).resolve().parent.parent)
    found = languages(root)
    swift(found) if as_swift else javascript(found, screen_words(root))


main()
