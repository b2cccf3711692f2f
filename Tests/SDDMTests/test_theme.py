"""The SDDM theme on its own: it loads in `sddm-greeter --test-mode --theme DIR` (no daemon, no PAM) under Xvfb
with nothing said about its files (no QML error or warning, no JavaScript exception) and shows its grid;
`make install-sddm` puts it where SDDM finds it by its name, readable by everyone, with the drop-in the
README's command copies, and `make uninstall-sddm` takes it away."""

import os
import tempfile
import unittest

from support import sddm
from support.paths import BUILD, ROOT, require_built, require_tools, run


class TestModeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sddm.require_sddm()
        require_tools("Xvfb", "unshare")
        if os.geteuid() != 0:
            raise unittest.SkipTest("needs root (a private /run for the greeter's journal)")

    def test_the_theme_loads_without_a_word_about_its_files(self):
        said = sddm.test_mode_output(sddm.THEME)
        self.assertEqual(sddm.test_mode_problems(said, sddm.THEME), [])

    def test_no_debug_lines_unless_asked(self):
        """Without QT_LOGGING_RULES asking for them (or debug=true in theme.conf), the theme loads and logs nothing."""
        said = sddm.test_mode_output(sddm.THEME, debug=False)
        lines = [
            line[5:] if line.startswith("qml: ") else line for line in said["journal"] + said["output"].splitlines()
        ]
        self.assertIn("Loading file://%s/Main.qml..." % sddm.THEME, lines)
        self.assertEqual([line for line in lines if "pam_pattern" in line], [])

    def test_a_broken_theme_is_caught(self):
        """The check above can fail: a theme whose QML names something that is not there is reported."""
        with tempfile.TemporaryDirectory(prefix="pam_pattern-sddm-broken.") as work:
            broken = os.path.join(work, "pam-pattern")
            run(["cp", "-r", sddm.THEME, broken])
            main = os.path.join(broken, "Main.qml")
            with open(main) as f:
                text = f.read()
            with open(main, "w") as f:
                f.write(text.replace("model: sessionModel", "model: noSuchModel"))
            os.chmod(work, 0o755)
            said = sddm.test_mode_output(broken)
        problems = sddm.test_mode_problems(said, broken)
        self.assertTrue([line for line in problems if broken in line and "noSuchModel" in line], problems)


class InstallTest(unittest.TestCase):
    def test_install_and_uninstall(self):
        require_built(os.path.join(sddm.THEME, "Main.qml"))
        with tempfile.TemporaryDirectory(prefix="pam_pattern-sddm-install.") as destdir:
            make = ["make", "-s", "-C", ROOT, "BUILD=" + BUILD, "DESTDIR=" + destdir]
            done = run(make + ["install-sddm"])
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertIn(sddm.ON, done.stdout.decode())
            installed = destdir + sddm.THEMES + "/" + sddm.THEME_ID
            for name in (
                "metadata.desktop",
                "theme.conf",
                "Main.qml",
                "VirtualKeyboard.qml",
                "PatternGrid.qml",
                "PatternTrace.js",
                "ModuleWords.js",
                "pam-pattern.conf",
            ):
                path = os.path.join(installed, name)
                self.assertTrue(os.path.isfile(path), name)
                self.assertEqual(os.stat(path).st_mode & 0o777, 0o644, name)
            with open(os.path.join(installed, "metadata.desktop")) as f:
                self.assertIn("Theme-Id=%s\n" % sddm.THEME_ID, f.read())
            done = run(make + ["uninstall-sddm"])
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertFalse(os.path.exists(installed))


if __name__ == "__main__":
    unittest.main()
