"""The core's folders are layers with a direction (ARCHITECTURE.md, "The core's layers"): a file may use what
the folders below its own declare, never what a folder above it or beside it declares. Which folder a name
belongs to comes from a symbol table of the core's top-level declarations (types, functions, extensions'
types are uses); a file's uses are the names in its code, comments and string literals left out. An arrow
going up fails, naming the file, the name and the two folders."""

import os
import re
import shutil
import tempfile
import unittest

from support.paths import ROOT

CORE = os.path.join("Sources", "PatternCore")

MODIFIERS = r"(?:(?:public|internal|private|fileprivate|package|final|indirect|nonisolated|@\w+(?:\([^)]*\))?)\s+)*"
DECLARATION = re.compile(r"^" + MODIFIERS + r"(?:struct|enum|class|protocol|typealias|actor|func)\s+(\w+)", re.M)
NAME = re.compile(r"\b[A-Za-z_]\w*\b")


def layers(text):
    """[[folder, ...], ...], lowest first: the numbered lines of the section, each naming its folders in `code`."""
    start = text.index("\n## The core's layers\n")
    end = text.find("\n## ", start + 1)
    found = []
    for line in text[start:end].splitlines():
        numbered = re.match(r"^\d+\. (.*)", line)
        if numbered:
            head = numbered.group(1).split(":", 1)[0]
            found.append(re.findall(r"`(\w+)`", head))
    return found


def without_comments_and_strings(code):
    code = re.sub(r'"""(?:.|\n)*?"""', '""', code)
    code = re.sub(r"/\*(?:.|\n)*?\*/", "", code)
    code = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', code)
    return re.sub(r"//[^\n]*", "", code)


def core_files(root):
    """{path relative to the core: (folder, code without comments and strings)}."""
    files = {}
    core = os.path.join(root, CORE)
    for directory, _, names in os.walk(core):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as f:
                    code = without_comments_and_strings(f.read())
                files[os.path.relpath(path, core)] = (os.path.relpath(directory, core), code)
    return files


def symbol_table(files):
    """Top-level name -> the folder that declares it."""
    owners = {}
    for folder, code in files.values():
        for name in DECLARATION.findall(code):
            owners.setdefault(name, set()).add(folder)
    return owners


def upward_arrows(root, order):
    """[(file, name, its folder, the name's folder)] for every use the order forbids."""
    rank = {folder: index for index, row in enumerate(order) for folder in row}
    files = core_files(root)
    owners = symbol_table(files)
    arrows = []
    for path, (folder, code) in sorted(files.items()):
        for name in sorted(set(NAME.findall(code))):
            for owner in sorted(owners.get(name, ())):
                if owner != folder and folder not in owners[name] and rank[owner] >= rank[folder]:
                    arrows.append((path, name, folder, owner))
    return arrows


class CoreLayersTests(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(ROOT, "ARCHITECTURE.md"), encoding="utf-8") as f:
            self.order = layers(f.read())

    def test_every_core_folder_has_one_layer(self):
        folders = sorted(
            name for name in os.listdir(os.path.join(ROOT, CORE)) if os.path.isdir(os.path.join(ROOT, CORE, name))
        )
        listed = [folder for row in self.order for folder in row]
        self.assertEqual(sorted(listed), folders, "ARCHITECTURE.md's layers must list each core folder once")

    def test_no_arrow_goes_up(self):
        arrows = upward_arrows(ROOT, self.order)
        shown = "\n".join("%s uses %s: %s -> %s" % arrow for arrow in arrows)
        self.assertEqual(arrows, [], "the core's layers point down only (ARCHITECTURE.md):\n" + shown)

    def test_the_symbol_table_sees_the_core(self):
        owners = symbol_table(core_files(ROOT))
        for name, folder in [("SystemCall", "System"), ("PatternStore", "Store"), ("GuessGate", "Throttle")]:
            self.assertEqual(owners.get(name), {folder})
        self.assertGreater(len(owners), 60)

    def test_an_arrow_going_up_is_caught(self):
        """The check can fail: a copy of the core where System uses the store."""
        with tempfile.TemporaryDirectory(prefix="pam_pattern-layers.") as copy:
            shutil.copytree(os.path.join(ROOT, CORE), os.path.join(copy, CORE), symlinks=True)
            with open(os.path.join(copy, CORE, "System", "Upward.swift"), "w") as f:
                f.write("// PatternStore in a comment is no use\nfunc upward() -> Int { PatternStore.x }\n")
            self.assertEqual(
                upward_arrows(copy, self.order), [("System/Upward.swift", "PatternStore", "System", "Store")]
            )
