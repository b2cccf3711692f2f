"""What the theme does with PAM's messages as SDDM 0.21 passes them (informationMessage, then loginFailed, and
two failures at once at the end), in Qt's test runner on a private Xvfb: tst_theme_messages.qml loads the built
theme's Main.qml beside stand-ins for what sddm-greeter gives a theme (sddm, userModel, sessionModel, config)
and checks that a wrong drawing shows the module's words (tries left) and red, and they stay when SDDM's own
"Authentication failure" follows; that a wait dims the grid, shows no red, counts down in the module's words
and takes no drawing; that a drawing made while an attempt runs is sent when it is over. And as SDDM 0.19 does
with quiet_services = sddm, where no word comes before the attempt's end: a wrong drawing is not sent again in
the seconds pam_unix takes and turns red at the end, but a drawing begun meanwhile does not. (The daemon tests run
SDDM 0.19, which passes no words.)"""

import os
import tempfile
import unittest

from support import paths, qml, sddm

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tst_theme_messages.qml")


class ThemeMessagesTests(unittest.TestCase):
    def test_the_theme_in_qt_test_runner(self):
        paths.require_built(os.path.join(sddm.THEME, "Main.qml"))
        with tempfile.TemporaryDirectory(prefix="pam_pattern-sddm-qmltest.") as work:
            with open(TESTS) as f:
                text = f.read().replace('"THEME/Main.qml"', '"file://%s/Main.qml"' % sddm.THEME)
            tests = os.path.join(work, "tst_theme_messages.qml")
            with open(tests, "w") as f:
                f.write(text)
            output = qml.run_qt_tests(self, tests, source=TESTS, least=3)
        self.assertNotIn("Main.qml:", output, "the theme said something about itself")


if __name__ == "__main__":
    unittest.main()
