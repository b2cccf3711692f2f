"""`sudo make demo`, then `make build` as the person who ran sudo, with the
real Swift toolchain: SwiftPM takes lock files and makes temporary directories
outside the tree too (in TMPDIR, named after the scratch path), which a fake
swift (test_toolchain) cannot show. Whatever the root build leaves, the user's
next build must be able to use.

Where: a private mount namespace with its own /tmp (so only this test's lock
files are there) and its own /run/sudo, /etc/sudoers.d and /etc/passwd. A copy
of this tree, owned by a throwaway account, is bind-mounted at the tree's own
path, so SwiftPM sees the paths it built and only checks that everything is up
to date (seconds, not a whole build). The user runs real sudo (a NOPASSWD
drop-in for them alone), then make as themself.
Root only; holds the real-client lock (it adds an account in the namespace).
"""

import fcntl
import os
import shutil
import subprocess
import tempfile
import textwrap
import unittest

from support.paths import MODULE, PATTERNCTL, ROOT, require_built

USER, USER_ID = "ppbuild", 64733
RUN_LOCK = "/run/lock/pam_pattern-real-clients.lock"
SCRIPT = textwrap.dedent(
    """\
    set -euo pipefail
    work=$1 root=$2 user=$3 uid=$4
    # The tree, theirs, copied before /tmp is replaced: the tree itself may live under /tmp (a clone there).
    # Not the Debian 13 system test_debian13 caches in build/debian13: root's by design, and no part of a build.
    mkdir "$work/tree" && tar -C "$root" --exclude=./build/debian13 -cf - . | tar -C "$work/tree" -xf -
    chown -R "$uid:$uid" "$work/tree"
    mount -t tmpfs -o mode=1777 tmpfs /tmp
    mkdir -p /run/sudo && mount -t tmpfs -o mode=0711 tmpfs /run/sudo
    # The account, only in here; sudo may run anything for it without a password.
    cp -p /etc/passwd /etc/group /etc/shadow "$work/"
    echo "$user:x:$uid:$uid:pam_pattern build test:$work/home:/bin/bash" >> "$work/passwd"
    echo "$user:x:$uid:" >> "$work/group"
    echo "$user:*:20000:0:99999:7:::" >> "$work/shadow"  # no password; pam_unix's account check passes
    for f in passwd group shadow; do mount --bind "$work/$f" "/etc/$f"; done
    mkdir -m 0755 "$work/sudoers.d"
    echo "$user ALL=(root) NOPASSWD: ALL" > "$work/sudoers.d/ppbuild" && chmod 0440 "$work/sudoers.d/ppbuild"
    visudo -cf "$work/sudoers.d/ppbuild" >/dev/null
    mount --bind "$work/sudoers.d" /etc/sudoers.d
    mkdir -m 0700 "$work/home" && chown "$uid:$uid" "$work/home"
    # Where it was built (a mount point made in the private /tmp when the tree was under /tmp).
    mkdir -p "$root"
    mount --bind "$work/tree" "$root"
    as_user() {
        setpriv --reuid="$uid" --regid="$uid" --init-groups \\
            env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work/home" USER="$user" LOGNAME="$user" LANG=C.UTF-8 "$@"
    }
    echo "== sudo make demo"
    printf '2759148\\n' | as_user sudo -n make -s --no-print-directory -C "$root" demo
    echo "== left by root"
    find /tmp "$root" -xdev -user 0 -print
    echo "== make build"
    as_user make -s --no-print-directory -C "$root" build
    echo "== done"
    """
)


@unittest.skipUnless(os.geteuid() == 0, "needs root: real sudo, mount namespaces")
class SudoThenUserBuildTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(MODULE, PATTERNCTL)
        for tool in ("sudo", "unshare", "setpriv", "visudo"):
            if not shutil.which(tool):
                raise unittest.SkipTest("%s is not installed (make deps)" % tool)
        swift = subprocess.run(["make", "-s", "-C", ROOT, "print-swift"], capture_output=True, text=True).stdout
        if not swift.strip():
            raise unittest.SkipTest("no Swift toolchain: this test is about the real one")

    def test_the_users_build_after_sudo_make_demo_succeeds(self):
        lock = os.open(RUN_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        self.addCleanup(os.close, lock)
        fcntl.flock(lock, fcntl.LOCK_EX)
        work = tempfile.mkdtemp(prefix="pp-sudo-build.", dir="/var/tmp")  # not under the private /tmp
        self.addCleanup(shutil.rmtree, work, ignore_errors=True)
        os.chmod(work, 0o755)  # the user reaches their home and the tree through it
        r = subprocess.run(
            [
                "unshare",
                "--mount",
                "--propagation",
                "private",
                "bash",
                "-c",
                SCRIPT,
                "-",
                work,
                ROOT,
                USER,
                str(USER_ID),
            ],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        out = r.stdout + r.stderr
        self.assertIn("== left by root", out, "sudo make demo failed:\n" + out[-4000:])
        self.assertIn("attempt 1 of 3: ACCEPTED", out, out[-4000:])
        self.assertEqual(r.returncode, 0, "the user's make build failed after sudo make demo:\n" + out[-4000:])
        self.assertIn("== done", out)
        left = out.split("== left by root\n", 1)[1].split("== make build", 1)[0].split()
        # /tmp itself is root's (the mount point); nothing in it and nothing in the tree is.
        self.assertEqual([p for p in left if p != "/tmp"], [], "root's build left these behind")


if __name__ == "__main__":
    unittest.main()
