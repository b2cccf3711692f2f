"""ARCHITECTURE.md's map says, for every source file, which process runs it: a file the map does not cover,
a path it names that does not exist, or a process it does not define fails here."""

import os
import re
import unittest

from support.paths import ROOT

# Where code lives, and what counts as code there.
CODE_ROOTS = ("Sources", "Tools", "fuzz")
CODE_SUFFIXES = (".swift", ".c", ".h", ".map", ".modulemap")


def read_architecture():
    with open(os.path.join(ROOT, "ARCHITECTURE.md")) as f:
        return f.read()


def section(text, title):
    """The body of the `## title` section."""
    start = text.index("\n## " + title + "\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def table_rows(body):
    """The cells of each body row of the section's markdown tables (header and rule rows skipped)."""
    rows = []
    for line in body.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def processes(text):
    """The process names the processes table defines (its first column, in bold)."""
    return {m for row in table_rows(section(text, "The processes")) for m in re.findall(r"\*\*(\w+)\*\*", row[0])}


def map_rows(text):
    """[(paths, processes)] of the map: each row's paths (relative to the repository; a bare file name is in
    the folder of the path before it in the same cell) and the processes it names."""
    rows = []
    for cells in table_rows(section(text, "Which process runs which code")):
        if cells[0] == "code":
            continue
        paths, folder = [], ""
        for token in re.findall(r"`([^`]+)`", cells[0]):
            if "/" in token:
                path = token.rstrip("/")
                folder = path if token.endswith("/") else os.path.dirname(path)
            else:
                path = os.path.join(folder, token)
            paths.append(path)
        named = {re.sub(r"\s*\(.*\)", "", name).strip() for name in cells[-1].split(",")}
        rows.append((paths, named))
    return rows


def code_files():
    """Every code file under the code roots, relative to the repository; the PatternCoreEmbedded link counts
    as one entry of its own (its files are PatternCore's)."""
    found = []
    for top in CODE_ROOTS:
        for directory, subdirectories, files in os.walk(os.path.join(ROOT, top)):
            for name in list(subdirectories):
                path = os.path.join(directory, name)
                if os.path.islink(path):
                    found.append(os.path.relpath(path, ROOT))
                    subdirectories.remove(name)
            found += [os.path.relpath(os.path.join(directory, f), ROOT) for f in files if f.endswith(CODE_SUFFIXES)]
    return sorted(found)


def covered(path, mapped):
    return any(path == entry or path.startswith(entry + "/") for entry in mapped)


class ArchitectureMapTests(unittest.TestCase):
    def setUp(self):
        self.text = read_architecture()
        self.rows = map_rows(self.text)
        self.mapped = [path for paths, _ in self.rows for path in paths]

    def test_every_source_file_is_in_the_map(self):
        files = code_files()
        self.assertGreater(len(files), 100, "the walk found the sources")
        missing = [path for path in files if not covered(path, self.mapped)]
        self.assertEqual(
            missing, [], "ARCHITECTURE.md, 'Which process runs which code', needs a row (or a path in one) for these"
        )

    def test_every_path_in_the_map_exists(self):
        gone = [path for path in self.mapped if not os.path.lexists(os.path.join(ROOT, path))]
        self.assertEqual(gone, [], "ARCHITECTURE.md's map names paths that are not in the tree")

    def test_every_row_names_processes_the_page_defines(self):
        defined = processes(self.text)
        self.assertEqual(
            defined, {"module", "helper", "patternctl", "pad", "draw", "lock", "greeter", "qml", "shell", "tests"}
        )
        for paths, named in self.rows:
            self.assertTrue(paths, "a map row without a path")
            self.assertTrue(named and named <= defined, (paths, sorted(named - defined)))

    def test_a_file_is_in_one_row_only(self):
        """One home per file: a file named twice could be given two different processes."""
        files = [path for path in self.mapped if not path.endswith("/")]
        self.assertEqual(sorted(p for p in set(files) if files.count(p) > 1), [])


class UnitTestsMirrorSourcesTests(unittest.TestCase):
    """A unit test sits in the folder its source has: Tests/PatternCoreTests/Store/StoreRecordTests.swift tests
    Sources/PatternCore/Store/StoreRecord.swift (a name may go on, as GuessGateTPMTests for GuessGate's TPM path)."""

    TESTS = os.path.join(ROOT, "Tests", "PatternCoreTests")
    SOURCES = os.path.join(ROOT, "Sources", "PatternCore")
    # Shared by every test file, tests no one source.
    SUPPORT = {"TestSupport.swift"}

    def test_every_test_file_is_beside_its_source(self):
        strays = []
        checked = 0
        for directory, _, files in os.walk(self.TESTS):
            folder = os.path.relpath(directory, self.TESTS)
            for name in files:
                if not name.endswith(".swift") or (folder == "." and name in self.SUPPORT):
                    continue
                sources = os.path.join(self.SOURCES, folder)
                # The top folder holds no sources, only the subfolders: a test file there is a stray.
                present = folder != "." and os.path.isdir(sources)
                stems = [f[: -len(".swift")] for f in os.listdir(sources) if f.endswith(".swift")] if present else []
                if name.endswith("Tests.swift"):
                    checked += 1
                    if not any(name[: -len("Tests.swift")].startswith(stem) for stem in stems):
                        strays.append(os.path.join(folder, name))
                # A test's helper (PatternDrawingDecoder) is named after the source it reads.
                elif not any(name.startswith(stem) for stem in stems):
                    strays.append(os.path.join(folder, name))
        self.assertGreater(checked, 30, "the walk found the unit tests")
        self.assertEqual(strays, [], "move these to the Tests/PatternCoreTests subfolder their source has")


if __name__ == "__main__":
    unittest.main()
