"""The QML grid component (Sources/Surfaces/shared/qml/PatternGrid.qml) in Qt's own test runner, on a private Xvfb:
tst_pattern_grid.qml presses, drags and releases the mouse on it and checks what it emits (a drawing's digits
once, 1-3 dots shaken off unsent, nothing while locked, a new drawing at once after a wrong one) and what it
draws (a wrong drawing red, a locked grid dimmed)."""

import os
import unittest

from support import qml

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tst_pattern_grid.qml")


class PatternGridTests(unittest.TestCase):
    def test_the_grid_in_qt_test_runner(self):
        qml.run_qt_tests(self, TESTS, screen="640x480x24", least=9)


if __name__ == "__main__":
    unittest.main()
