"""The GNOME Shell extension's hit rules (build/gnome/UUID/patternTrace.js) against the core's (PadTrace), in GJS.

The extension runs the QML surfaces' port of the rules (Sources/Surfaces/shared/qml/PatternTrace.js), which `make
build` copies without QML's `.pragma library` line: a different engine, so the same checks run again in the
shell's own (gjs): QMLTests' thousands of pointer paths, the rounding of fractional coordinates and the check
that a changed rule is caught, each through the core (build/core-vectors-embedded) and through the port in gjs;
and the extension carries exactly the shared file but that line.
"""

import os
import tempfile
import unittest

import QMLTests.test_pattern_trace_js as qml_trace
from support import gjs, paths

EXTENSION = os.path.join(paths.BUILD, "gnome", "pam-pattern@pam-pattern.org")
PRAGMA = ".pragma library\n"


def for_gjs(source):
    """The file as `make build` puts it in the extension: the shared port without its QML pragma."""
    return source.replace(PRAGMA, "", 1)


class PatternTraceGjsTests(qml_trace.PatternTraceJsTests):
    @classmethod
    def setUpClass(cls):
        paths.require_built(qml_trace.VECTORS, os.path.join(EXTENSION, "patternTrace.js"))
        paths.require_tools("gjs")

    def qml_traces(self, lines, js=None):
        """The port's answers in gjs: the extension's copy, or (a changed rule) the shared file `js` made into it."""
        if js is None:
            return gjs.evaluate(os.path.join(EXTENSION, "patternTrace.js"), qml_trace.TRACES, lines)
        with open(js) as f:
            source = f.read()
        with tempfile.TemporaryDirectory(prefix="pam_pattern-gjs-rules.") as work:
            copy = os.path.join(work, "patternTrace.js")
            with open(copy, "w") as out:
                out.write(for_gjs(source))
            return gjs.evaluate(copy, qml_trace.TRACES, lines)

    def test_the_surfaces_ship_this_grid(self):
        """The extension carries the shared port, byte for byte but the pragma GJS would refuse."""
        with open(qml_trace.JS) as f:
            shared = f.read()
        self.assertIn(PRAGMA, shared)
        with open(os.path.join(EXTENSION, "patternTrace.js")) as f:
            self.assertEqual(f.read(), for_gjs(shared))


if __name__ == "__main__":
    unittest.main()
