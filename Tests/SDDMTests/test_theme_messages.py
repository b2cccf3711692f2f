"""What the theme does with PAM's messages as SDDM 0.21 passes them (informationMessage, then loginFailed, and
two failures at once at the end), in Qt's test runner on a private Xvfb: tst_theme_messages.qml loads the built
theme's Main.qml beside stand-ins for what sddm-greeter gives a theme (sddm, userModel, sessionModel, config)
and checks that a wrong drawing shows the module's words (tries left) and red, and they stay when SDDM's own
"Authentication failure" follows; that a wait dims the grid, shows no red, counts down in the module's words
and takes no drawing; that a drawing made while an attempt runs is sent when it is over. (The daemon tests run
SDDM 0.19, which passes no words.)"""

import os
import re
import tempfile
import unittest

from support import paths, sddm, xvfb

RUNNER = "/usr/lib/qt5/bin/qmltestrunner"
TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tst_theme_messages.qml")


class ThemeMessagesTests(unittest.TestCase):
    def test_the_theme_in_qt_test_runner(self):
        if not os.path.exists(RUNNER):
            raise unittest.SkipTest("qmltestrunner is not installed (make deps: qml-module-qttest)")
        paths.require_tools("Xvfb")
        paths.require_built(os.path.join(sddm.THEME, "Main.qml"))
        with tempfile.TemporaryDirectory(prefix="pam_pattern-sddm-qmltest.") as work:
            os.chmod(work, 0o700)  # also XDG_RUNTIME_DIR, which Qt wants private
            with open(TESTS) as f:
                text = f.read().replace('"THEME/Main.qml"', '"file://%s/Main.qml"' % sddm.THEME)
            tests = os.path.join(work, "tst_theme_messages.qml")
            with open(tests, "w") as f:
                f.write(text)
            script = "W=%s\nexport XDG_RUNTIME_DIR=$W QT_QPA_PLATFORM=xcb\n" % work
            script += xvfb.start("-screen 0 1024x768x24")
            script += "%s -input %s; status=$?\nkill $xpid\nexit $status\n" % (RUNNER, tests)
            result = paths.run(["sh", "-c", script], timeout=120 + xvfb.START_SECONDS)
        output = result.stdout.decode() + result.stderr.decode()
        totals = re.search(r"Totals: (\d+) passed, (\d+) failed, (\d+) skipped", output)
        self.assertIsNotNone(totals, output)
        passed, failed, skipped = map(int, totals.groups())
        self.assertEqual((failed, skipped), (0, 0), output)
        self.assertEqual(result.returncode, 0, output)
        with open(TESTS) as source:
            functions = len(re.findall(r"^\s+function test_", source.read(), re.M))
        self.assertGreaterEqual(functions, 3)
        self.assertEqual(passed, functions + 2, output)
        self.assertNotIn("Main.qml:", output, "the theme said something about itself")


if __name__ == "__main__":
    unittest.main()
