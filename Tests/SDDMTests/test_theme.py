"""The SDDM theme on its own: it loads in `sddm-greeter --test-mode --theme DIR` (no daemon, no PAM) under Xvfb
with nothing said about its files (no QML error or warning, no JavaScript exception) and shows its grid;
`make install-sddm` puts it where SDDM finds it by its name, readable by everyone, with the drop-in the
README's command copies, and `make uninstall-sddm` takes it away."""

import json
import os
import shlex
import tempfile
import unittest

from support import sddm, xvfb
from support.paths import BUILD, ROOT, require_built, require_tools, run

# The greeter logs to the journal when its input is not a terminal: a socket bound in a private /run catches it.
CATCHER = r"""
import json, os, socket, struct, subprocess, sys, time
theme, seconds = sys.argv[1], float(sys.argv[2])
os.makedirs("/run/systemd/journal", exist_ok=True)
journal = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
journal.bind("/run/systemd/journal/socket")
journal.settimeout(0.2)
greeter = subprocess.Popen(["sddm-greeter", "--test-mode", "--theme", theme], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
messages = []
end = time.monotonic() + seconds
while time.monotonic() < end:
    try:
        data = journal.recv(1 << 20)
    except socket.timeout:
        continue
    for line in data.split(b"\n"):
        if line.startswith(b"MESSAGE="):
            messages.append(line[8:].decode(errors="replace"))
greeter.terminate()
output = greeter.communicate()[0].decode(errors="replace")
print(json.dumps({"journal": messages, "output": output}))
"""


def greeter_output(theme, seconds=8):
    """What sddm-greeter --test-mode says in `seconds` with the theme at `theme`: {"journal": [...], "output"}."""
    with tempfile.TemporaryDirectory(prefix="pam_pattern-sddm-test-mode.") as work:
        os.chmod(work, 0o700)  # also XDG_RUNTIME_DIR, which Qt wants private
        catcher = os.path.join(work, "catcher.py")
        with open(catcher, "w") as f:
            f.write(CATCHER)
        script = "W=%s\nexport XDG_RUNTIME_DIR=$W QT_QPA_PLATFORM=xcb\n" % shlex.quote(work)
        script += "mount -t tmpfs -o mode=0755 tmpfs /run\n"
        script += xvfb.start("-screen 0 1024x768x24")
        script += "python3 %s %s %d; status=$?\nkill $xpid\nexit $status\n" % (catcher, shlex.quote(theme), seconds)
        done = run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script], timeout=60 + seconds)
    if done.returncode != 0:
        raise AssertionError("the greeter's run failed: %s" % (done.stdout + done.stderr).decode(errors="replace"))
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


class TestModeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sddm.require_sddm()
        require_tools("Xvfb", "unshare")
        if os.geteuid() != 0:
            raise unittest.SkipTest("needs root (a private /run for the greeter's journal)")

    def test_the_theme_loads_without_a_word_about_its_files(self):
        said = greeter_output(sddm.THEME)
        lines = said["journal"] + said["output"].splitlines()
        self.assertIn("Loading file://%s/Main.qml..." % sddm.THEME, lines, lines)
        about_theme = [line for line in lines if sddm.THEME in line and not line.startswith("Loading ")]
        self.assertEqual(about_theme, [], "the greeter said this about the theme's files")
        errors = [line for line in lines if "Error" in line or "QML" in line or "qml:" in line.lower()]
        self.assertEqual(errors, [], "the greeter reported errors")
        self.assertTrue([line for line in lines if line.startswith("pam_pattern: grid ")], lines)

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
            said = greeter_output(broken)
        lines = said["journal"] + said["output"].splitlines()
        self.assertTrue([line for line in lines if broken in line and "noSuchModel" in line], lines)


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
