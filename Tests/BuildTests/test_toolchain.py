"""Building from source as a new user would: the Makefile finds the Swift
toolchain without PATH help (sudo's secure_path has no /opt/swift), says
exactly what is missing when there is none, and sudo and non-sudo builds of
one tree can be mixed.

The user is a uid with no account (setpriv), so nothing under /etc changes.
Its tree is a small copy of the build's inputs (Makefile, file list, demo
source, the QML and po/) with a stand-in `swift` that "builds" by copying the real artifacts:
the Makefile's own steps (cp, strip, gcc, ownership) run for real, in seconds.
Root only (it switches users).
"""

import os
import shutil
import subprocess
import tempfile
import textwrap
import unittest

from support.paths import BUILD, MODULE, PATTERNCTL, ROOT, require_built

USER_ID = 64731  # no account: setpriv needs none
NO_SWIFT_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"


def make(*args, uid=None, path=NO_SWIFT_PATH, env=None, cwd=ROOT):
    prefix = ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups"] if uid is not None else []
    environment = {"PATH": path, "HOME": cwd, "LC_ALL": "C"}
    environment.update(env or {})
    return subprocess.run(
        prefix + ["make", "-s", "--no-print-directory", "-C", cwd, *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )


def real_swift():
    r = make("print-swift", path=os.environ.get("PATH", NO_SWIFT_PATH))
    return r.stdout.strip()


def owners(top):
    found = set()
    for directory, dirs, files in os.walk(top):
        for name in dirs + files:
            found.add(os.lstat(os.path.join(directory, name)).st_uid)
    return found


@unittest.skipUnless(os.geteuid() == 0, "needs root: runs make as another uid and as root via sudo")
class ToolchainTests(unittest.TestCase):
    def setUp(self):
        require_built(MODULE, PATTERNCTL)
        self.tree = tempfile.mkdtemp(prefix="pp-toolchain.")
        self.addCleanup(shutil.rmtree, self.tree, ignore_errors=True)
        shutil.copy(os.path.join(ROOT, "Makefile"), self.tree)
        shutil.copytree(os.path.join(ROOT, "packaging"), os.path.join(self.tree, "packaging"))
        os.makedirs(os.path.join(self.tree, "demo"))
        shutil.copy(os.path.join(ROOT, "demo", "pam_try.c"), os.path.join(self.tree, "demo"))
        # What `make build` assembles besides what swift builds: the QML lock screens and login screen, the drawing
        # window's desktop entry and the Wayland lock screen's PAM child (Sources/Surfaces), the words from the
        # catalogue, and the Wayland tests' virtual pointer and touch host (Tools/wayland-*, compiled by gcc).
        for source in ("Sources/Surfaces", "po", "Tools/wayland-pointer", "Tools/wayland-touch"):
            shutil.copytree(os.path.join(ROOT, source), os.path.join(self.tree, source))
        # What swift would have built: every binary in the real build (the module under SwiftPM's name).
        os.makedirs(os.path.join(self.tree, "artifacts"))
        for name in os.listdir(BUILD):
            if os.path.isfile(os.path.join(BUILD, name)) and not name.endswith(".deb"):
                target = "libpam_pattern.so" if name == "pam_pattern.so" else name
                shutil.copy(os.path.join(BUILD, name), os.path.join(self.tree, "artifacts", target))
        self.ran = os.path.join(self.tree, "swift-ran")  # one line per swift build, by root or the user
        open(self.ran, "w").close()
        self.fake_swift = self.write_swift("6.3.1")
        for directory, dirs, files in os.walk(self.tree):
            for name in [directory] + [os.path.join(directory, n) for n in dirs + files]:
                os.lchown(name, USER_ID, USER_ID)

    def swift_builds(self):
        with open(self.ran) as f:
            return len(f.read().splitlines())

    def write_swift(self, version, name="fake-swift"):
        """A stand-in swift: --version, and `build --scratch-path S --product P` copies the real artifact."""
        path = os.path.join(self.tree, name)
        with open(path, "w") as f:
            f.write(
                textwrap.dedent(
                    """\
                #!/bin/bash
                if [ "$1" = --version ]; then echo "Swift version %s (swift-%s-RELEASE)"; exit 0; fi
                echo "$*" >> %s
                while [ $# -gt 0 ]; do
                  case $1 in --scratch-path) scratch=$2; shift;; --product) product=$2; shift;; esac; shift
                done
                mkdir -p "$scratch/release"
                for built in %s/artifacts/lib$product.so %s/artifacts/$product; do
                  [ ! -e "$built" ] || exec cp "$built" "$scratch/release/"
                done
                echo "no artifact for $product" >&2; exit 1
                """
                    % (version, version, self.ran, self.tree, self.tree)
                )
            )
        os.chmod(path, 0o755)
        os.lchown(path, USER_ID, USER_ID)
        return path

    def test_found_without_path_help_as_a_user_and_under_real_sudo(self):
        swift = real_swift()
        self.assertTrue(swift and os.access(swift, os.X_OK), "make print-swift found nothing: %r" % swift)
        # A user whose PATH lacks the toolchain: the fallback finds it.
        r = make("print-swift", uid=USER_ID, cwd=self.tree, env={"SWIFT_FALLBACK": swift})
        self.assertEqual(r.stdout.strip(), swift, r.stderr)
        r = make("toolchain", uid=USER_ID, cwd=self.tree, env={"SWIFT_FALLBACK": swift})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # Real sudo, with its secure_path: what `sudo make demo` ran into.
        if os.path.exists("/opt/swift/usr/bin/swift"):
            r = subprocess.run(
                ["sudo", "-n", "make", "-s", "--no-print-directory", "-C", ROOT, "print-swift", "toolchain"],
                capture_output=True,
                text=True,
                env={"PATH": NO_SWIFT_PATH},
                timeout=120,
            )
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(r.stdout.strip(), "/opt/swift/usr/bin/swift")

    def test_no_toolchain_says_what_is_missing_and_where_to_get_it(self):
        missing = os.path.join(self.tree, "nowhere", "swift")
        r = make("build", uid=USER_ID, cwd=self.tree, env={"SWIFT_FALLBACK": missing})
        self.assertNotEqual(r.returncode, 0)
        out = r.stdout + r.stderr
        self.assertNotIn("command not found", out)
        for phrase in ("Swift 6 toolchain", "https://www.swift.org/install/linux/", missing, "make SWIFT="):
            self.assertIn(phrase, out)
        self.assertFalse(os.path.exists(os.path.join(self.tree, "build")), "it built something without swift")

    def test_demo_looks_for_swift_before_it_installs_anything(self):
        missing = os.path.join(self.tree, "nowhere", "swift")
        absent = "pp-no-such-package"  # as a user, the install step would name it instead of installing it
        r = make(
            "demo",
            "DEB_BUILD_PACKAGES=" + absent,
            "DEB_PACKAGES=" + absent,
            uid=USER_ID,
            cwd=self.tree,
            env={"SWIFT_FALLBACK": missing},
        )
        self.assertNotEqual(r.returncode, 0)
        out = r.stdout + r.stderr
        self.assertIn("Swift 6 toolchain", out)
        self.assertNotIn(absent, out, "make demo went for the Debian packages before it looked for swift")

    def test_an_old_toolchain_is_refused_by_name(self):
        old = self.write_swift("5.10", "old-swift")
        r = make("build", uid=USER_ID, cwd=self.tree, env={"SWIFT": old})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("is not a Swift 6 toolchain (Swift version 5.10)", r.stdout + r.stderr)
        self.assertEqual(self.swift_builds(), 0, "swift build ran with the old toolchain")

    def test_swift_6_0_is_refused_with_its_embedded_limit(self):
        """Debian 13's swiftlang (6.0.3): its Embedded standard library marks String unavailable, and every Embedded
        target fails hundreds of times over; make says so before any build."""
        debian = self.write_swift("6.0.3", "debian-swift")
        r = make("build", uid=USER_ID, cwd=self.tree, env={"SWIFT": debian})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("is Swift version 6.0.3: its Embedded Swift has no String", r.stdout + r.stderr)
        self.assertEqual(self.swift_builds(), 0, "swift build ran with Swift 6.0")

    def test_sudo_build_then_user_build_works(self):
        # As sudo would run it: root, with the invoking user in SUDO_UID/SUDO_GID.
        sudo_env = {
            "SWIFT": self.fake_swift,
            "SUDO_UID": str(USER_ID),
            "SUDO_GID": str(USER_ID),
            "SUDO_USER": "someone",
        }
        r = make("build", cwd=self.tree, env=sudo_env)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        by_root = self.swift_builds()
        self.assertGreater(by_root, 0)
        for tree in ("build", ".build"):
            self.assertEqual(owners(os.path.join(self.tree, tree)), {USER_ID}, "%s not handed back" % tree)
        r = make("build", uid=USER_ID, cwd=self.tree, env={"SWIFT": self.fake_swift})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(self.swift_builds(), 2 * by_root, "the user's build ran every swift build again")
        self.assertEqual(owners(os.path.join(self.tree, "build")), {USER_ID})

    def test_a_root_owned_tree_is_refused_with_the_fix(self):
        stale = os.path.join(self.tree, ".build", "release")
        os.makedirs(stale)
        with open(os.path.join(stale, "left-by-root"), "w"):
            pass  # root-owned: a build from a root shell, no SUDO_UID to give it back to
        r = make("build", uid=USER_ID, cwd=self.tree, env={"SWIFT": self.fake_swift})
        self.assertNotEqual(r.returncode, 0)
        out = r.stdout + r.stderr
        self.assertIn("owned by root", out)
        self.assertIn("sudo chown -R %d:%d %s/build %s/.build" % (USER_ID, USER_ID, self.tree, self.tree), out)
        self.assertIn("sudo make clean", out)
        self.assertEqual(self.swift_builds(), 0, "swift build ran before the ownership check")
        # The fix it prints works.
        subprocess.run(["chown", "-R", "%d:%d" % (USER_ID, USER_ID), os.path.join(self.tree, ".build")], check=True)
        r = make("build", uid=USER_ID, cwd=self.tree, env={"SWIFT": self.fake_swift})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
