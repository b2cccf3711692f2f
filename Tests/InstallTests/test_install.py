"""make install / uninstall, the shipped pam.d examples and the pam-auth-update
profile, tried for real. Root only. Everything that touches /etc happens in a
private mount namespace over copies; the real files are checksummed."""

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
import textwrap
import unittest

from support.paths import ROOT

PATTERN = "2759148"


def make(*args, **kw):
    return subprocess.run(["make", "-s", "-C", ROOT, *args], capture_output=True, text=True, **kw)


def digest(path):
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        for name in sorted(filenames):
            p = os.path.join(dirpath, name)
            if os.path.isfile(p) and not os.path.islink(p):
                h.update(p.encode())
                with open(p, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()


def in_namespace(script):
    """Runs a shell script in a private mount namespace (changes vanish with it)."""
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
    )


# `make install` writes /etc/security/pam_pattern.conf for the length of one test: hold the lock the
# real-client suites of every worktree hold while they change or check /etc.
RUN_LOCK = "/run/lock/pam_pattern-real-clients.lock"


def hold_run_lock(test):
    descriptor = os.open(RUN_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    fcntl.flock(descriptor, fcntl.LOCK_EX)  # waits for the other suite
    test.addCleanup(os.close, descriptor)


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs into the system and uses mount namespaces")
class InstallTests(unittest.TestCase):
    def installed_files(self):
        out = make("print-installed-files").stdout.split()
        self.assertGreaterEqual(len(out), 5)
        return out

    def test_destdir_lays_out_exactly_the_documented_files(self):
        stage = tempfile.mkdtemp(prefix="pp-stage.")
        try:
            r = make("install", f"DESTDIR={stage}")
            self.assertEqual(r.returncode, 0, r.stderr)
            found = sorted("/" + os.path.relpath(os.path.join(d, f), stage) for d, _, fs in os.walk(stage) for f in fs)
            self.assertEqual(found, sorted(self.installed_files()))
            mod = os.path.join(stage, self.installed_files()[0].lstrip("/"))
            self.assertTrue(mod.endswith("/security/pam_pattern.so"))
            self.assertEqual(os.stat(mod).st_mode & 0o7777, 0o644)
            with open(os.path.join(ROOT, "docs", "reference.md")) as f:
                readme = f.read()
            for path in self.installed_files():
                self.assertIn(os.path.basename(path), readme, f"docs/reference.md does not document {path}")
            # The store's and the state's directories: root-only, there before any pattern is set.
            directories = [line.split() for line in make("print-installed-directories").stdout.splitlines()]
            self.assertEqual(sorted(d for d, _ in directories), ["/etc/security/pam_pattern", "/var/lib/pam_pattern"])
            for directory, mode in directories:
                info = os.stat(os.path.join(stage, directory.lstrip("/")))
                self.assertEqual((info.st_mode & 0o7777, info.st_uid), (int(mode, 8), 0), directory)
            r = make("uninstall", f"DESTDIR={stage}")
            self.assertEqual(r.returncode, 0, r.stderr)
            left = [os.path.join(d, f) for d, _, fs in os.walk(stage) for f in fs]
            self.assertEqual(left, [])
            for directory, _ in directories:
                self.assertFalse(
                    os.path.exists(os.path.join(stage, directory.lstrip("/"))), "empty %s left" % directory
                )
        finally:
            shutil.rmtree(stage, ignore_errors=True)

    def test_an_existing_conf_is_never_replaced_and_a_changed_one_never_removed(self):
        stage = tempfile.mkdtemp(prefix="pp-stage.")
        try:
            conf = os.path.join(stage, "etc", "security", "pam_pattern.conf")
            os.makedirs(os.path.dirname(conf))
            with open(conf, "w") as f:
                f.write("deny = 2\n")
            self.assertEqual(make("install", f"DESTDIR={stage}").returncode, 0)
            with open(conf) as f:
                self.assertEqual(f.read(), "deny = 2\n")
            self.assertEqual(make("uninstall", f"DESTDIR={stage}").returncode, 0)
            self.assertTrue(os.path.exists(conf), "a changed conf must survive uninstall")
            os.unlink(conf)
            self.assertEqual(make("install", f"DESTDIR={stage}").returncode, 0)
            with open(conf) as f, open(os.path.join(ROOT, "security", "pam_pattern.conf")) as shipped:
                self.assertEqual(f.read(), shipped.read())
            self.assertEqual(os.stat(conf).st_mode & 0o7777, 0o644)
        finally:
            shutil.rmtree(stage, ignore_errors=True)

    def test_install_pamtester_example_service_then_uninstall(self):
        hold_run_lock(self)
        etc_before = digest("/etc/pam.d") + digest("/etc/security")
        passwd_before = digest("/etc/passwd")
        # A directory that holds only pam_pattern's files and did not exist before goes with them.
        own_directories = [d for d in ("/usr/libexec/pam-pattern",) if not os.path.exists(d)]
        work = tempfile.mkdtemp(prefix="pp-install.")
        try:
            r = make("install")
            self.assertEqual(r.returncode, 0, r.stderr)
            for path in self.installed_files():
                self.assertTrue(os.path.exists(path), path)
            examples = "/usr/local/share/doc/pam_pattern/examples"
            script = textwrap.dedent(f"""
                w={work}
                cp -a /etc/pam.d $w/pam.d; cp -a /etc/security $w/security; cp /etc/passwd $w/passwd
                mkdir -m 0700 $w/state
                echo 'pptest:x:64123:64123:pam_pattern test:/nonexistent:/usr/sbin/nologin' >> $w/passwd
                cp {examples}/pattern-auth $w/pam.d/pattern-auth
                printf 'auth include pattern-auth\\nauth requisite pam_deny.so\\naccount required pam_permit.so\\n' > $w/pam.d/pattern-example
                mount --bind $w/pam.d /etc/pam.d
                mount --bind $w/security /etc/security
                mount --bind $w/passwd /etc/passwd
                mkdir -p $w/varlib; mount -t tmpfs -o mode=0755 tmpfs /var/lib
                printf '{PATTERN}\\n{PATTERN}\\n' | /usr/local/bin/patternctl set pptest >/dev/null
                echo "--right"; printf '{PATTERN}\\n' | pamtester pattern-example pptest authenticate 2>&1 || echo "exit=$?"
                echo "--wrong"; printf '2759184\\n' | pamtester pattern-example pptest authenticate 2>&1 || echo "exit=$?"
            """)
            r = in_namespace(script)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            right = r.stdout.split("--wrong")[0]
            wrong = r.stdout.split("--wrong")[1]
            self.assertIn("successfully authenticated", right)
            self.assertNotIn("successfully authenticated", wrong)
            self.assertIn("exit=", wrong)
        finally:
            r = make("uninstall")
            shutil.rmtree(work, ignore_errors=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        for path in self.installed_files():
            self.assertFalse(os.path.exists(path), f"uninstall left {path}")
        for directory in own_directories:
            self.assertFalse(os.path.exists(directory), f"uninstall left the directory {directory}")
        self.assertEqual(digest("/etc/pam.d") + digest("/etc/security"), etc_before)
        self.assertEqual(digest("/etc/passwd"), passwd_before)

    def test_pam_auth_update_accepts_profile_not_enabled_by_default(self):
        before = digest("/etc/pam.d") + digest("/usr/share/pam-configs") + digest("/var/lib/pam")
        work = tempfile.mkdtemp(prefix="pp-pau.")
        try:
            script = textwrap.dedent(f"""
                w={work}
                cp -a /etc/pam.d $w/pam.d; cp -a /usr/share/pam-configs $w/configs; cp -a /var/lib/pam $w/varlibpam
                cp {ROOT}/pam-configs/pattern $w/configs/pattern
                mount --bind $w/pam.d /etc/pam.d
                mount --bind $w/configs /usr/share/pam-configs
                mount --bind $w/varlibpam /var/lib/pam
                export DEBIAN_FRONTEND=noninteractive
                pam-auth-update --package
                echo "--default"; grep -v '^#' /etc/pam.d/common-auth | grep -c pam_pattern || true
                pam-auth-update --enable pattern
                echo "--enabled"; grep -v '^#' /etc/pam.d/common-auth | grep -E 'pam_(pattern|unix|deny|permit)'
                pam-auth-update --disable pattern
                echo "--disabled"; grep -v '^#' /etc/pam.d/common-auth | grep -c pam_pattern || true
            """)
            r = in_namespace(script)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            default = r.stdout.split("--default")[1].split("--enabled")[0].strip()
            enabled = r.stdout.split("--enabled")[1].split("--disabled")[0].strip().splitlines()
            disabled = r.stdout.split("--disabled")[1].strip()
            self.assertEqual(default, "0", "installing the profile must not enable it")
            self.assertEqual(disabled, "0")
            # pattern first, jumping over pam_unix to the success path on success
            self.assertIn("pam_pattern.so nullok", enabled[0])
            self.assertIn("[success=2 default=ignore]", enabled[0])
            self.assertIn("pam_unix.so", enabled[1])
            self.assertIn("try_first_pass", enabled[1])
        finally:
            shutil.rmtree(work, ignore_errors=True)
        self.assertEqual(digest("/etc/pam.d") + digest("/usr/share/pam-configs") + digest("/var/lib/pam"), before)


if __name__ == "__main__":
    unittest.main()
