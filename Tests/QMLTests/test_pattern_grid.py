"""The QML grid component (Sources/PatternQML/PatternGrid.qml) in Qt's own test runner, on a private Xvfb:
tst_pattern_grid.qml presses, drags and releases the mouse on it and checks what it emits (a drawing's digits
once, 1-3 dots shaken off unsent, nothing while locked, a new drawing at once after a wrong one) and what it
draws (a wrong drawing red, a locked grid dimmed)."""

import os
import re
import tempfile
import unittest

from support import paths, xvfb

RUNNER = "/usr/lib/qt5/bin/qmltestrunner"
TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tst_pattern_grid.qml")


class PatternGridTests(unittest.TestCase):
    def test_the_grid_in_qt_test_runner(self):
        if not os.path.exists(RUNNER):
            raise unittest.SkipTest("qmltestrunner is not installed (make deps: qml-module-qttest)")
        paths.require_tools("Xvfb")
        with tempfile.TemporaryDirectory(prefix="pam_pattern-qmltest.") as work:
            os.chmod(work, 0o700)  # also XDG_RUNTIME_DIR, which Qt wants private
            script = "W=%s\nexport XDG_RUNTIME_DIR=$W QT_QPA_PLATFORM=xcb\n" % work
            script += xvfb.start("-screen 0 640x480x24")
            script += "%s -input %s; status=$?\nkill $xpid\nexit $status\n" % (RUNNER, TESTS)
            result = paths.run(["sh", "-c", script], timeout=120 + xvfb.START_SECONDS)
        output = result.stdout.decode() + result.stderr.decode()
        totals = re.search(r"Totals: (\d+) passed, (\d+) failed, (\d+) skipped", output)
        self.assertIsNotNone(totals, output)
        passed, failed, skipped = map(int, totals.groups())
        self.assertEqual((failed, skipped), (0, 0), output)
        self.assertEqual(result.returncode, 0, output)
        # Every test function ran (plus initTestCase and cleanupTestCase).
        with open(TESTS) as source:
            functions = len(re.findall(r"^\s+function test_", source.read(), re.M))
        self.assertGreaterEqual(functions, 9)
        self.assertEqual(passed, functions + 2, output)


if __name__ == "__main__":
    unittest.main()
