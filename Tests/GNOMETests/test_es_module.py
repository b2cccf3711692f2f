"""es_module.py, the build's translation of the GNOME Shell extension's shared files (legacy GJS modules, as GNOME
Shell 43 loads them) into the ES modules GNOME Shell 48 loads: each form it knows, line by line; any other use of
`imports` or `Me` fails instead of shipping a file half translated; the 48 directory's shared files are exactly
the translation of 43's; and there, in gjs as an ES module, the hit rules and the words give the same answers as
43's legacy copies. Tests/GNOMETests/test_debian13.py runs the translated extension in the real gnome-shell 48.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from support import gjs, gnome, paths

SCRIPT = os.path.join(paths.ROOT, "Sources", "Surfaces", "gnome", "es_module.py")
SHARED = ["promptHooks.js", "patternPrompt.js", "patternGrid.js", "patternTrace.js", "moduleWords.js"]


def translate(text):
    """es_module.py on `text`: (exit status, output, error output)."""
    with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False) as f:
        f.write(text)
    try:
        done = subprocess.run([sys.executable, SCRIPT, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    return done.returncode, done.stdout, done.stderr


class EsModuleTests(unittest.TestCase):
    def test_each_known_form_becomes_its_es_module_form(self):
        legacy = "\n".join(
            [
                ".pragma library",
                "const { Clutter, GLib } = imports.gi;",
                "const AuthPrompt = imports.gdm.authPrompt;",
                "const Me = imports.misc.extensionUtils.getCurrentExtension();",
                "const Words = Me.imports.moduleWords;",
                "const { PatternGrid } = Me.imports.patternGrid;",
                "var SIDE = 240;",
                "function grid(x) {",
                "    var inner = x; // imports.gi in a comment is left alone",
                "    function nested() { return inner; }",
                "    return nested();",
                "}",
                "",
            ]
        )
        status, out, err = translate(legacy)
        self.assertEqual(status, 0, err)
        self.assertEqual(
            out.splitlines(),
            [
                "import Clutter from 'gi://Clutter';",
                "import GLib from 'gi://GLib';",
                "import * as AuthPrompt from 'resource:///org/gnome/shell/gdm/authPrompt.js';",
                "import * as Words from './moduleWords.js';",
                "import { PatternGrid } from './patternGrid.js';",
                "export var SIDE = 240;",
                "export function grid(x) {",
                "    var inner = x; // imports.gi in a comment is left alone",
                "    function nested() { return inner; }",
                "    return nested();",
                "}",
            ],
        )

    def test_an_unknown_form_fails_the_build(self):
        for line in ["let GLib = imports.gi.GLib;", "const dir = Me.dir;", "log(imports.searchPath);"]:
            with self.subTest(line=line):
                status, out, err = translate("var a = 1;\n%s\n" % line)
                self.assertNotEqual(status, 0, out)
                self.assertIn("no ES module form known", err)

    def test_48s_shared_files_are_43s_translated(self):
        paths.require_built(*(os.path.join(d, n) for d in (gnome.EXTENSION, gnome.EXTENSION_48) for n in SHARED))
        for name in SHARED:
            with self.subTest(name=name):
                with open(os.path.join(gnome.EXTENSION, name), encoding="utf-8") as f:
                    status, out, err = translate(f.read())
                self.assertEqual(status, 0, err)
                with open(os.path.join(gnome.EXTENSION_48, name), encoding="utf-8") as f:
                    self.assertEqual(f.read(), out)

    def test_48s_rules_and_words_as_es_modules_answer_as_43s(self):
        """In gjs: 48's patternTrace.js and moduleWords.js imported as ES modules, 43's as legacy modules, the same
        drag and the same message give the same answers."""
        paths.require_tools("gjs")
        body = (
            "const t = Lib.newTrace(); const g = Lib.grid(120, 120, 80, 24);"
            " Lib.begin(t, g, 40, 40); Lib.extend(t, g, 200, 200); Lib.extend(t, g, 200, 40);"
            " out = Lib.digits(t);"
        )
        words = "out = JSON.stringify(Lib.read('Wrong pattern. 4 tries left before a wait.'));"
        for name, code in (("patternTrace.js", body), ("moduleWords.js", words)):
            with self.subTest(name=name):
                legacy = gjs.evaluate(os.path.join(gnome.EXTENSION, name), code, {})
                self.assertEqual(self.es_module(os.path.join(gnome.EXTENSION_48, name), code), legacy)
        # The drag: from 1 through 5 to 9, then up through 6 to 3.
        self.assertEqual(gjs.evaluate(os.path.join(gnome.EXTENSION, "patternTrace.js"), body, {}), "15963")

    def es_module(self, path, body):
        runner = "import * as Lib from '%s';\nlet out = null;\n%s\nprint('GJSRESULT ' + JSON.stringify(out));\n" % (
            "file://" + path,
            body,
        )
        with tempfile.TemporaryDirectory(prefix="pam_pattern-esm.") as work:
            script = os.path.join(work, "runner.js")
            with open(script, "w") as f:
                f.write(runner)
            done = subprocess.run(["gjs", "-m", script], capture_output=True, text=True, timeout=60)
        found = [line for line in done.stdout.splitlines() if line.startswith("GJSRESULT ")]
        self.assertEqual(len(found), 1, done.stdout + done.stderr)
        return json.loads(found[0].split(" ", 1)[1])


if __name__ == "__main__":
    unittest.main()
