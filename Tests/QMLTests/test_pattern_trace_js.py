"""The QML port of the hit rules (Sources/PatternQML/PatternTrace.js) against the core's (PadTrace).

QML surfaces (the KDE lock screen, the SDDM theme) cannot link the Swift core. The same pointer paths go
through the core (build/pad-trace-vectors) and through the port in Qt's own JavaScript engine (qmlscene,
offscreen), and any difference fails. The paths: ordinary drawings on ordinary grids, fast swipes (few
samples far apart), points on and beside the hit circles' rims, degenerate grids (negative, zero, huge
spacing and radius), moves before any press, more than nine dots, coordinates at the port's limits.
"""

import math
import os
import random
import tempfile
import unittest

from support import paths

JS = os.path.join(paths.ROOT, "Sources", "PatternQML", "PatternTrace.js")
VECTORS = os.path.join(paths.BUILD, "pad-trace-vectors")
LIMIT = 1 << 24  # the port's coordinate domain (PatternTrace.js: coordinateLimit)

RUNNER = """
import QtQuick 2.0
import "%(js)s" as Trace

Item {
    Component.onCompleted: {
        var request = new XMLHttpRequest()
        request.open("GET", "%(paths)s", false)
        request.send(null)
        var out = []
        var lines = request.responseText.split("\\n")
        for (var n = 0; n < lines.length; ++n) {
            if (lines[n] === "") continue
            var t = lines[n].split(" ")
            var grid = Trace.grid(+t[1], +t[2], +t[3], +t[4])
            var trace = Trace.newTrace()
            for (var i = 5; i + 2 < t.length; i += 3) {
                if (t[i] === "P") Trace.begin(trace, grid, +t[i + 1], +t[i + 2])
                else Trace.extend(trace, grid, +t[i + 1], +t[i + 2])
            }
            var digits = Trace.digits(trace)
            out.push(digits === "" ? "-" : digits)
        }
        console.log("TRACES " + out.join(","))
        Qt.quit()
    }
}
"""


def ordinary_path(rng):
    """A press near one dot and a drawing of 2...30 samples, small steps and big jumps mixed."""
    spacing = rng.randint(20, 300)
    radius = rng.randint(1, spacing)  # above spacing / 2 the core clamps it
    cx, cy = rng.randint(-500, 2500), rng.randint(-500, 2500)
    grid = (cx, cy, spacing, radius)
    dot = rng.randint(1, 9)
    x = cx + ((dot - 1) % 3 - 1) * spacing + rng.randint(-radius, radius)
    y = cy + ((dot - 1) // 3 - 1) * spacing + rng.randint(-radius, radius)
    steps = [("P", x, y)]
    for _ in range(rng.randint(1, 30)):
        reach = rng.choice((3, 10, spacing // 2, spacing, 3 * spacing))
        x += rng.randint(-reach, reach)
        y += rng.randint(-reach, reach)
        steps.append(("M", x, y))
    return grid, steps


def swipe_path(rng):
    """A fast swipe: a press and one to three samples across the whole grid."""
    spacing = rng.randint(10, 400)
    radius = rng.randint(spacing // 4, spacing // 2)
    cx, cy = rng.randint(0, 2000), rng.randint(0, 2000)
    steps = [("P", cx + rng.randint(-2 * spacing, 2 * spacing), cy + rng.randint(-2 * spacing, 2 * spacing))]
    for _ in range(rng.randint(1, 3)):
        steps.append(("M", cx + rng.randint(-2 * spacing, 2 * spacing), cy + rng.randint(-2 * spacing, 2 * spacing)))
    return (cx, cy, spacing, radius), steps


def rim_path(rng):
    """Samples exactly on, just inside and just outside hit circles (an open circle: the rim misses)."""
    spacing = rng.randint(10, 200)
    radius = rng.randint(1, spacing // 2)
    cx, cy = rng.randint(0, 1000), rng.randint(0, 1000)
    steps = []
    for index in range(rng.randint(2, 12)):
        dot = rng.randint(1, 9)
        angle = rng.random() * 2 * math.pi
        distance = radius + rng.choice((-1, 0, 0, 1))
        x = cx + ((dot - 1) % 3 - 1) * spacing + round(distance * math.cos(angle))
        y = cy + ((dot - 1) // 3 - 1) * spacing + round(distance * math.sin(angle))
        steps.append(("P" if index == 0 else "M", x, y))
    return (cx, cy, spacing, radius), steps


def odd_path(rng):
    """Degenerate grids, moves before any press, coordinates at the port's limits."""
    spacing = rng.choice((-100, -1, 0, 1, 2, 3, 8192, 8193, 100000, rng.randint(-50, 50)))
    radius = rng.choice((-5, 0, 1, 2, 4096, 5000, 1 << 20, rng.randint(-10, 100)))
    cx, cy = rng.choice((0, -LIMIT, LIMIT, rng.randint(-LIMIT, LIMIT))), rng.randint(-LIMIT, LIMIT)
    steps = []
    for index in range(rng.randint(1, 8)):
        kind = "M" if index == 0 and rng.random() < 0.3 else rng.choice(("P", "M", "M", "M"))
        x = rng.choice((cx, -LIMIT, LIMIT, rng.randint(-LIMIT, LIMIT), cx + rng.randint(-20000, 20000)))
        y = rng.choice((cy, -LIMIT, LIMIT, rng.randint(-LIMIT, LIMIT), cy + rng.randint(-20000, 20000)))
        steps.append((kind, max(-LIMIT, min(LIMIT, x)), max(-LIMIT, min(LIMIT, y))))
    return (cx, cy, spacing, radius), steps


def paths_for(seed, count):
    rng = random.Random(seed)
    kinds = (ordinary_path, ordinary_path, swipe_path, rim_path, odd_path)
    return [kinds[index % len(kinds)](rng) for index in range(count)]


def line_of(path):
    grid, steps = path
    return " ".join(["G"] + [str(v) for v in grid] + ["%s %d %d" % step for step in steps])


class PatternTraceJsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        paths.require_built(VECTORS)
        paths.require_tools("qmlscene")

    def core_traces(self, lines):
        result = paths.run([VECTORS], input="\n".join(lines).encode() + b"\n", timeout=120)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        return result.stdout.decode().split()

    def qml_traces(self, lines, js=JS):
        with tempfile.TemporaryDirectory(prefix="pam_pattern-qml.") as work:
            input_path = os.path.join(work, "paths.txt")
            with open(input_path, "w") as out:
                out.write("\n".join(lines) + "\n")
            runner = os.path.join(work, "runner.qml")
            with open(runner, "w") as out:
                out.write(RUNNER % {"js": "file://" + js, "paths": "file://" + input_path})
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QML_XHR_ALLOW_FILE_READ="1", XDG_RUNTIME_DIR=work)
            result = paths.run(["qmlscene", runner], env=env, timeout=300)
        output = result.stdout.decode() + result.stderr.decode()
        found = [line for line in output.splitlines() if "TRACES " in line]
        self.assertEqual(len(found), 1, "qmlscene printed no traces (status %d):\n%s" % (result.returncode, output))
        return found[0].split("TRACES ", 1)[1].split(",")

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
