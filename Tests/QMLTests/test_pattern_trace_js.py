"""The QML port of the hit rules (Sources/Surfaces/shared/qml/PatternTrace.js) against the core's (PadTrace).

QML surfaces (the KDE lock screen, the SDDM theme) cannot link the Swift core. The same pointer paths go
through the core (build/core-vectors-embedded, kind `pad`) and through the port in Qt's own JavaScript engine (qmlscene,
offscreen), and any difference fails. The paths: ordinary drawings on ordinary grids, fast swipes (few
samples far apart), points on and beside the hit circles' rims, degenerate grids (negative, zero, huge
spacing and radius), moves before any press, more than nine dots, coordinates at the port's limits.

Both surfaces run these very files: `make build` copies Sources/Surfaces/shared/qml/PatternGrid.qml and PatternTrace.js
unchanged into the KDE lock screen (build/kde/plasma5) and the SDDM theme (build/sddm/pam-pattern), and
test_the_surfaces_ship_this_grid fails when either copy differs, so what is held to the core here (and what
tst_pattern_grid.qml drives) is the grid of both.
"""

import math
import os
import random
import tempfile
import unittest

from support import paths, qml
from support.pointer_paths import line_of, ordinary_path, paths_for

JS = os.path.join(paths.ROOT, "Sources", "Surfaces", "shared", "qml", "PatternTrace.js")
GRID = os.path.join(paths.ROOT, "Sources", "Surfaces", "shared", "qml", "PatternGrid.qml")
# Where each surface's build keeps its copies of the shared grid (the Makefile's `build`).
SURFACES = {
    "KDE lock screen": os.path.join(paths.BUILD, "kde", "plasma5", "contents", "lockscreen"),
    "SDDM theme": os.path.join(paths.BUILD, "sddm", "pam-pattern"),
}
VECTORS = os.path.join(paths.BUILD, "core-vectors-embedded")  # the core as the pad runs it

# Each path in the core's text form (support.pointer_paths.line_of) through the port: the digits taken, "-" for none.
TRACES = """
        out = []
        for (var n = 0; n < data.length; ++n) {
            var t = data[n].split(" ")
            var grid = Lib.grid(+t[1], +t[2], +t[3], +t[4])
            var trace = Lib.newTrace()
            for (var i = 5; i + 2 < t.length; i += 3) {
                if (t[i] === "P") Lib.begin(trace, grid, +t[i + 1], +t[i + 2])
                else Lib.extend(trace, grid, +t[i + 1], +t[i + 2])
            }
            var digits = Lib.digits(trace)
            out.push(digits === "" ? "-" : digits)
        }
"""


class PatternTraceJsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        paths.require_built(VECTORS)
        paths.require_tools("qmlscene")

    def core_traces(self, lines):
        framed = "".join("pad %s\n" % line.encode().hex() for line in lines)
        result = paths.run([VECTORS], input=framed.encode(), timeout=120)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        answers = result.stdout.decode().split("\n")[:-1]
        self.assertTrue(all(answer.startswith("pad ") for answer in answers), answers[:3])
        return [bytes.fromhex(answer[4:]).decode() for answer in answers]

    def qml_traces(self, lines, js=JS):
        return qml.evaluate(js, TRACES, lines)

    def assert_same(self, lines, core, port):
        self.assertEqual(len(core), len(lines))
        self.assertEqual(len(port), len(lines))
        differences = [(line, c, p) for line, c, p in zip(lines, core, port) if c != p]
        shown = "\n".join("%s\n  core %s, port %s" % d for d in differences[:5])
        self.assertEqual(differences, [], "%d of %d paths differ:\n%s" % (len(differences), len(lines), shown))

    def test_thousands_of_paths_take_the_same_dots(self):
        lines = [line_of(path) for path in paths_for(20261204, 6000)]
        core = self.core_traces(lines)
        self.assert_same(lines, core, self.qml_traces(lines))
        # The set is not degenerate: many different drawings, of every length, and many with no dot at all.
        self.assertGreater(len(set(core)), 1500)
        self.assertEqual({len(c) for c in core if c != "-"}, set(range(1, 10)))
        self.assertGreater(core.count("-"), 100)

    def test_the_surfaces_ship_this_grid(self):
        """The KDE lock screen and the SDDM theme carry the grid and the port tested here, byte for byte."""
        for source in (JS, GRID):
            with open(source, "rb") as f:
                shared = f.read()
            for surface, directory in SURFACES.items():
                copy = os.path.join(directory, os.path.basename(source))
                paths.require_built(copy)
                with open(copy, "rb") as f:
                    self.assertEqual(f.read(), shared, "the %s's %s is not the shared one" % (surface, copy))

    def test_fractional_coordinates_are_rounded_half_up(self):
        """QML gives reals: the port rounds each (Math.round, halves up) before the rules; the core gets the
        same integers."""
        rng = random.Random(7)
        real_lines, integer_lines = [], []
        for _ in range(500):
            grid, steps = ordinary_path(rng)
            moved = [(kind, x + rng.choice((-0.5, 0.5, 0.49, -0.51, 0.25)), y + rng.random()) for kind, x, y in steps]
            real_lines.append(" ".join(["G"] + [str(v) for v in grid] + ["%s %r %r" % s for s in moved]))
            rounded = [(kind, math.floor(x + 0.5), math.floor(y + 0.5)) for kind, x, y in moved]
            integer_lines.append(line_of((grid, rounded)))
        self.assert_same(real_lines, self.core_traces(integer_lines), self.qml_traces(real_lines))

    def test_a_changed_rule_is_caught(self):
        """The comparison can fail: a port that no longer fills a skipped middle dot differs from the core."""
        # 1, around 2 (never within its circle), to 3: the core fills in 2
        lines = [line_of(((500, 500, 100, 20), [("P", 400, 400), ("M", 500, 460), ("M", 600, 400)]))]
        self.assertEqual(self.core_traces(lines), ["123"])
        with open(JS) as source:
            original = source.read()
        broken = original.replace("if (middle !== 0 &&", "if (false &&")
        self.assertNotEqual(broken, original)
        with tempfile.TemporaryDirectory(prefix="pam_pattern-qml-broken.") as work:
            broken_js = os.path.join(work, "PatternTrace.js")
            with open(broken_js, "w") as out:
                out.write(broken)
            self.assertEqual(self.qml_traces(lines, js=broken_js), ["13"])
        self.assertEqual(self.qml_traces(lines), ["123"])


if __name__ == "__main__":
    unittest.main()
