"""The message catalogue: po/pam_pattern.pot is what the sources say, and
po/zh_CN.po translates every message of it, with the same arguments.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from support.paths import ROOT

PO = os.path.join(ROOT, "po")
POT = os.path.join(PO, "pam_pattern.pot")
# Every po/LL.po is a language `make build` compiles; zh_CN must be among them.
LANGUAGES = sorted(name[:-3] for name in os.listdir(PO) if name.endswith(".po"))
DIRECTIVE = re.compile(r"%(?:%|[1-9]\$s|s)")


def maximum_template_bytes():
    """MessageFormat.maximumTemplateBytes: a longer translation is not read (MessageCatalogue gives [])."""
    with open(os.path.join(ROOT, "Sources", "PatternCore", "Text", "MessageFormat.swift")) as f:
        return int(re.search(r"maximumTemplateBytes = (\d+)", f.read()).group(1))


def parse_po(path):
    """{(msgid, msgid_plural or None): [msgstr...]}, plus the set of fuzzy keys. Header excluded."""
    entries, fuzzy = {}, set()
    current, field, flags = {}, None, ""

    def finish():
        if "msgid" in current and current["msgid"] != "":
            key = (current["msgid"], current.get("msgid_plural"))
            if key in entries:
                raise AssertionError("%s: %r twice" % (path, key[0]))
            entries[key] = [current[k] for k in sorted(current) if k.startswith("msgstr")]
            if "fuzzy" in flags:
                fuzzy.add(key)

    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                finish()
                current, field, flags = {}, None, ""
            elif line.startswith("#,"):
                flags += line
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                current[field] += eval(line)  # a PO string is a C string literal; Python reads the same escapes
            else:
                field, _, value = line.partition(" ")
                current[field] = eval(value)
    finish()
    return entries, fuzzy


class CatalogueTest(unittest.TestCase):
    def test_pot_matches_the_sources(self):
        made = subprocess.run(
            [sys.executable, os.path.join(PO, "extract-messages.py"), ROOT],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.assertEqual(made.returncode, 0, made.stderr)
        with open(POT, encoding="utf-8") as f:
            self.assertEqual(made.stdout, f.read(), "po/pam_pattern.pot is stale: run `make pot`")

    def test_the_gnome_extensions_own_words_are_extracted(self):
        """A word only the GNOME Shell extension's JavaScript marks (tr('...')) is in the template, naming its file,
        and po/module-words.py gives it to the surfaces' words (the extension reads it back from there)."""
        with tempfile.TemporaryDirectory(prefix="pam_pattern-pot.") as tree:
            for name in ("po", "Sources/Surfaces/draw/ui", "Sources/Surfaces/gnome/ui"):
                os.makedirs(os.path.join(tree, name))
            shutil.copy(
                os.path.join(ROOT, "Sources/Surfaces/draw/ui/pam-pattern-draw.desktop.in"),
                os.path.join(tree, "Sources/Surfaces/draw/ui"),
            )
            with open(os.path.join(tree, "Sources/Surfaces/gnome/ui/prompt.js"), "w") as f:
                f.write("const label = tr('Only the shell\\'s word');\n")
            made = subprocess.run(
                [sys.executable, os.path.join(PO, "extract-messages.py"), tree], capture_output=True, text=True
            )
            self.assertEqual(made.returncode, 0, made.stderr)
            self.assertIn('#: Sources/Surfaces/gnome/ui/prompt.js\nmsgid "Only the shell\'s word"\n', made.stdout)
            # The real template with that entry (the module's own sentences, which module-words.py reads too).
            entry = made.stdout[made.stdout.index("\n#: Sources/Surfaces/gnome/") :]
            with open(POT, encoding="utf-8") as f, open(os.path.join(tree, "po", "pam_pattern.pot"), "w") as out:
                out.write(f.read() + entry)
            words = subprocess.run(
                [sys.executable, os.path.join(PO, "module-words.py"), tree], capture_output=True, text=True
            )
            self.assertEqual(words.returncode, 0, words.stderr)
            self.assertIn("Only the shell's word", words.stdout)

    def test_every_message_is_translated(self):
        self.assertIn("zh_CN", LANGUAGES)
        template, _ = parse_po(POT)
        self.assertGreater(len(template), 10)
        limit = maximum_template_bytes()
        for language in LANGUAGES:
            with self.subTest(language=language):
                translated, fuzzy = parse_po(os.path.join(PO, language + ".po"))
                self.assertEqual(sorted(set(template) - set(translated)), [], "not translated")
                self.assertEqual(sorted(set(translated) - set(template)), [], "no longer in the sources")
                self.assertEqual(sorted(fuzzy), [], "fuzzy")
                for (msgid, plural), strings in translated.items():
                    self.assertTrue(strings and all(s.strip() for s in strings), msgid)
                    # a message longer than a template may be would be shown as nothing
                    for text in [msgid, plural or "", *strings]:
                        self.assertLessEqual(len(text.encode()), limit, msgid)
                    for text in strings:
                        # the same arguments (in any order): a lost %s would drop a number or a name
                        self.assertEqual(
                            len([d for d in DIRECTIVE.findall(text) if d != "%%"]),
                            len([d for d in DIRECTIVE.findall(msgid) if d != "%%"]),
                            (msgid, text),
                        )
                        # prompts keep their trailing space (the answer is typed right after)
                        if msgid.endswith(" "):
                            self.assertTrue(text.endswith((" ", "：")), (msgid, text))

    def test_msgfmt_accepts_every_catalogue(self):
        if not shutil.which("msgfmt"):
            self.skipTest("msgfmt missing (Debian package gettext; make deps)")
        for language in LANGUAGES:
            done = subprocess.run(
                ["msgfmt", "-c", "-o", os.devnull, os.path.join(PO, language + ".po")],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            self.assertEqual(done.returncode, 0, done.stdout)


if __name__ == "__main__":
    unittest.main()
