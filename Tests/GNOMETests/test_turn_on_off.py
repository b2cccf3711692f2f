"""The reference's on and off commands for the GNOME surface, run as written, in a private mount namespace (an
overlay on /etc/dconf, a private session bus and home): for a person, `gnome-extensions enable` / `disable` turn
org.gnome.shell enabled-extensions to the extension and back to what it was; for GDM's greeter, the shipped
keyfile installed in the gdm database and `dconf update` make the greeter's settings (dconf profile gdm, as GNOME's
administration guide gives it) enable the extension, and removing it with `dconf update` puts the greeter's
setting back. Root only; needs gnome-extensions, gsettings and dconf (make deps)."""

import os
import shlex
import shutil
import subprocess
import tempfile
import unittest

from support import gnome
from support.paths import require_built, require_tools

KEYFILE = os.path.join(gnome.EXTENSION, "gdm-login-screen")
INSTALLED_KEYFILE = "/usr/share/gnome-shell/extensions/%s/gdm-login-screen" % gnome.UUID
# GDM's greeter's dconf profile (GNOME's system administration guide, "GDM"), which the reference names.
GDM_PROFILE = "user-db:user\nsystem-db:gdm\nfile-db:/usr/share/gdm/greeter-dconf-defaults\n"
# The reference's commands ("Drawing at GNOME's lock screen and GDM's login").
GDM_ON = "install -D -m 644 %s /etc/dconf/db/gdm.d/90-pam-pattern && dconf update" % INSTALLED_KEYFILE
GDM_OFF = "rm /etc/dconf/db/gdm.d/90-pam-pattern && dconf update"
PERSON_ON = "gnome-extensions enable %s" % gnome.UUID
PERSON_OFF = "gnome-extensions disable %s" % gnome.UUID
READ = "gsettings get org.gnome.shell enabled-extensions"


@unittest.skipUnless(os.geteuid() == 0, "needs root: mounts over /etc/dconf in a private namespace")
class TurnOnOffTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(KEYFILE)
        require_tools("gnome-extensions", "gsettings", "dconf", "dbus-run-session", "unshare")

    def run_in_namespace(self, script):
        """The shell `script` as root in a private mount namespace with /etc/dconf an overlay, the extension at its
        installed place (an overlay on /usr/share/gnome-shell), a private home and session bus; its output."""
        work = tempfile.mkdtemp(prefix="pam-pattern-gnome-onoff.")
        self.addCleanup(shutil.rmtree, work, True)
        os.chmod(work, 0o700)
        for name in ("dconf", "shell"):
            for layer in ("up", "work"):
                os.makedirs(os.path.join(work, name, layer))
        shutil.copytree(gnome.EXTENSION, os.path.join(work, "shell", "up", "extensions", gnome.UUID))
        os.makedirs(os.path.join(work, "home"))
        mounts = [
            "mount -t overlay overlay -o lowerdir=/etc/dconf,upperdir={0}/dconf/up,workdir={0}/dconf/work /etc/dconf",
            "mount -t overlay overlay -o lowerdir=/usr/share/gnome-shell,upperdir={0}/shell/up,"
            "workdir={0}/shell/work /usr/share/gnome-shell",
        ]
        setup = "set -e\n" + "\n".join(m.format(shlex.quote(work)) for m in mounts) + "\n"
        environment = dict(
            os.environ,
            HOME=os.path.join(work, "home"),
            XDG_CONFIG_HOME=os.path.join(work, "home", ".config"),
            XDG_RUNTIME_DIR=work,
        )
        inner = "dbus-run-session -- sh -c %s" % shlex.quote("set -e\n" + script)
        done = subprocess.run(
            ["unshare", "--mount", "--propagation", "private", "sh", "-c", setup + inner],
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        return [line for line in done.stdout.splitlines() if line.startswith(("[", "@as"))]

    def test_a_person_turns_it_on_and_off(self):
        said = self.run_in_namespace("%s\n%s\n%s\n%s\n%s\n" % (READ, PERSON_ON, READ, PERSON_OFF, READ))
        self.assertEqual(said, ["@as []", "['%s']" % gnome.UUID, "@as []"])

    def test_the_administrator_turns_it_on_and_off_for_gdm(self):
        greeter_read = "DCONF_PROFILE=/etc/dconf/profile/gdm " + READ
        script = "\n".join(
            [
                "mkdir -p /etc/dconf/profile && printf %s > /etc/dconf/profile/gdm" % shlex.quote(GDM_PROFILE),
                greeter_read,
                GDM_ON,
                greeter_read,
                GDM_OFF,
                greeter_read,
            ]
        )
        said = self.run_in_namespace(script + "\n")
        # Both uuids, so the one keyfile serves GNOME Shell 43 and 48 (each loads the one of its version).
        self.assertEqual(said, ["@as []", "['%s', '%s']" % (gnome.UUID, gnome.UUID_48), "@as []"])


if __name__ == "__main__":
    unittest.main()
