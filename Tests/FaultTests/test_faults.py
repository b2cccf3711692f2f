"""Fault injection on every write path: patternctl set/remove/reset and the module's throttle update
(through the real libpam, one process per authentication: Tests/FaultTests/pam_once.c).

Faults: ENOSPC and EIO on the write, EIO on fsync, EXDEV on rename (strace inject, aimed at the exact
call by a dry run), a read-only filesystem and a genuinely full tmpfs (private mount namespace), and
kill -9 at random points (test_kills.py). After each one: the store and the state hold the old or the
new content, never a torn one (checked by parsers written from FILEFORMAT.md, not the Swift code), no
temp file is left behind, the module never answers PAM_SUCCESS for a guess it could not count, and
the next command works.

Root only. Run: PYTHONPATH=<repo>/Tests PAM_PATTERN_BUILD=<repo>/build PAM_PATTERN_ROOT=<repo> python3 -m unittest discover -s Tests/FaultTests
"""

import errno
import os
import subprocess
import shutil
import tempfile
import unittest

from support.fault import inject, nth_call, require_root_and_build
from support.formats import state_file, parse_state, parse_store
from support.pam import PAM_AUTHINFO_UNAVAIL, PAM_AUTH_ERR, PAM_SUCCESS
from support.sandbox import OTHER, OTHER_WRONG, RIGHT, Tree, WRONG
from support.system import in_child

RENAME = "rename,renameat,renameat2"
# The faults that must leave the old store: the temp file's write, its fsync, the rename.
STORE_FAULTS = [("write", "ENOSPC"), ("write", "EIO"), ("fsync", "EIO"), (RENAME, "EXDEV")]


class Base(unittest.TestCase):
    def setUp(self):
        require_root_and_build()
        self.tree = Tree(module_options="deny=5 unlock_time=60 lock_after=20")
        self.addCleanup(self.tree.close)
        self.tree.set("daemon", RIGHT, check=True)
        self.tree.set("bin", OTHER, check=True)
        # Two counted failures for daemon, so reset and a success have something to change.
        for wrong in (WRONG, OTHER_WRONG):  # different: a repeat is not counted
            self.assertEqual(self.tree.auth("daemon", wrong)[0], PAM_AUTH_ERR)
        self.assertEqual(self.tree.failures("daemon"), 2)

    def assert_store_consistent(self, data=None):
        data = self.tree.store_bytes() if data is None else data
        try:
            return parse_store(data)
        except ValueError as error:
            self.fail("torn store: %s" % error)

    def assert_next_commands_work(self):
        """After a fault: every command works again and nothing was left behind."""
        tree = self.tree
        self.assertEqual(tree.set("sys", OTHER).returncode, 0, "set after the fault")
        self.assertEqual(tree.auth("sys", OTHER)[0], PAM_SUCCESS, "authentication after the fault")
        self.assertEqual(tree.auth("sys", WRONG)[0], PAM_AUTH_ERR)
        self.assertEqual(tree.failures("sys"), 1)
        self.assertEqual(tree.ctl("reset", "sys").returncode, 0, "reset after the fault")
        self.assertEqual(tree.failures("sys"), 0)
        self.assertEqual(tree.ctl("remove", "sys").returncode, 0, "remove after the fault")
        self.assertNotIn("sys", tree.records())
        self.assertEqual(tree.ctl("list").returncode, 0)
        self.assertEqual(tree.temps(), [], "temp files left behind")
        self.assert_store_consistent()


class StoreWriteFaultTests(Base):
    """patternctl set and remove: the store is replaced by temp file + fsync + rename + directory fsync."""

    def check_old_store_kept(self, argv, input, syscall, error, expected_message):
        tree = self.tree
        before, state_before = tree.store_bytes(), tree.state_bytes("daemon")
        # The first such call on a file in the store directory: the temp file (the lock file is never
        # written), or the store itself should a writer ever write it in place.
        when = tree.aim(argv, syscall, ".tmp." if syscall == RENAME else tree.store_dir + "/", input=input)
        result = subprocess.run(inject(syscall, error, when) + argv, input=input, capture_output=True, timeout=60)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn(expected_message.encode(), result.stderr)
        # The message names the call that failed and its errno ("write failed (errno 28)").
        call = "rename" if syscall == RENAME else syscall
        self.assertIn(b"%s failed (errno %d)" % (call.encode(), getattr(errno, error)), result.stderr)
        self.assertEqual(tree.store_bytes(), before, "the store changed although the write failed")
        self.assertEqual(tree.state_bytes("daemon"), state_before)
        self.assertEqual(tree.temps(), [], "temp file left behind")
        self.assertEqual(os.stat(tree.store).st_mode & 0o777, 0o600)

    def check_each_store_fault(self, argv, input, expected_message, after):
        """check_old_store_kept for each of STORE_FAULTS (a subTest each), then after(); then the next
        commands work."""
        for syscall, error in STORE_FAULTS:
            with self.subTest(syscall=syscall, error=error):
                self.check_old_store_kept(argv, input, syscall, error, expected_message)
                after()
        self.assert_next_commands_work()

    def test_set_new_user_keeps_old_store_on_each_fault(self):
        self.check_each_store_fault(
            self.tree.set_argv("sys"),
            ("%s\n%s\n" % (OTHER, OTHER)).encode(),
            "could not save the pattern",
            lambda: self.assertNotIn("sys", self.tree.records()),
        )

    def test_set_existing_user_keeps_old_pattern_on_each_fault(self):
        def old_pattern_kept():
            # The old pattern still works, the new one does not, the count was not cleared.
            self.assertEqual(self.tree.auth("daemon", OTHER)[0], PAM_AUTH_ERR)
            self.assertEqual(self.tree.ctl("reset", "daemon").returncode, 0)
            self.assertEqual(self.tree.auth("daemon", RIGHT)[0], PAM_SUCCESS)
            for wrong in (WRONG, OTHER_WRONG):  # different: a repeat is not counted
                self.tree.auth("daemon", wrong)

        self.check_each_store_fault(
            self.tree.set_argv("daemon"),
            ("%s\n%s\n" % (OTHER, OTHER)).encode(),
            "could not save the pattern",
            old_pattern_kept,
        )

    def test_remove_keeps_old_store_on_each_fault(self):
        self.check_each_store_fault(
            self.tree.ctl_argv("remove", "bin"),
            None,
            "bin",
            lambda: self.assertEqual(self.tree.auth("bin", OTHER)[0], PAM_SUCCESS),
        )

    def test_directory_fsync_failure_after_rename_leaves_the_whole_new_store(self):
        # The rename has happened: the new store is in place, whole; the command still reports the failure.
        tree = self.tree
        input = ("%s\n%s\n" % (OTHER, OTHER)).encode()
        argv = tree.set_argv("sys")
        when = tree.aim(argv, "fsync", tree.store_dir + ">", input=input)
        result = subprocess.run(inject("fsync", "EIO", when) + argv, input=input, capture_output=True)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn(b"fsync", result.stderr)
        self.assertIn("sys", tree.records())
        self.assertEqual(tree.auth("sys", OTHER)[0], PAM_SUCCESS)
        self.assertEqual(tree.temps(), [])
        self.assertEqual(tree.ctl("remove", "sys").returncode, 0)
        self.assert_next_commands_work()

    def test_set_whose_failure_count_reset_fails_keeps_a_whole_state(self):
        # set clears the user's failures after saving: a write or fsync fault there leaves the new
        # pattern and the old (or new) count, each whole; a reset then works.
        tree = self.tree
        input = ("%s\n%s\n" % (OTHER, OTHER)).encode()
        for syscall, error, allowed in (
            ("pwrite64", "EIO", [2]),
            ("pwrite64", "ENOSPC", [2]),
            ("fsync", "EIO", [0, 2]),
        ):
            with self.subTest(syscall=syscall, error=error):
                argv = tree.set_argv("daemon")
                when = tree.aim(argv, syscall, state_file("/state", "daemon"), input=input)
                result = subprocess.run(inject(syscall, error, when) + argv, input=input, capture_output=True)
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn(b"failure count could not be cleared", result.stderr)
                self.assertIn(tree.failures("daemon"), allowed)
                self.assertEqual(tree.auth("daemon", OTHER)[0], PAM_SUCCESS)  # the new pattern is in
                self.assertEqual(tree.failures("daemon"), 0)
                tree.set("daemon", RIGHT, check=True)
                for wrong in (WRONG, OTHER_WRONG):  # different: a repeat is not counted
                    tree.auth("daemon", wrong)
        self.assert_next_commands_work()


class StateWriteFaultTests(Base):
    """patternctl reset and the module's throttle update: an in-place 31-byte pwrite + fsync per user."""

    def aim_state(self, argv, syscall, user="daemon"):
        return self.tree.aim(argv, syscall, state_file("/state", user))

    def test_reset_keeps_a_whole_state_on_each_fault(self):
        tree = self.tree
        for syscall, error, allowed in (
            ("pwrite64", "EIO", [2]),
            ("pwrite64", "ENOSPC", [2]),
            ("fsync", "EIO", [0, 2]),
        ):
            with self.subTest(syscall=syscall, error=error):
                argv = tree.ctl_argv("reset", "daemon")
                when = self.aim_state(argv, syscall)
                result = subprocess.run(inject(syscall, error, when) + argv, capture_output=True)
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn(tree.failures("daemon"), allowed)
                # The next reset works.
                self.assertEqual(tree.ctl("reset", "daemon").returncode, 0)
                self.assertEqual(tree.failures("daemon"), 0)
                for wrong in (WRONG, OTHER_WRONG):  # different: a repeat is not counted
                    tree.auth("daemon", wrong)
        self.assert_next_commands_work()

    def test_module_never_accepts_a_guess_it_could_not_count(self):
        # The right pattern, but recording the attempt fails: no success (that would be a free guess
        # whenever the disk is full), the old count stays, and the next attempt works.
        tree = self.tree
        for syscall, error in (("pwrite64", "EIO"), ("pwrite64", "ENOSPC"), ("fsync", "EIO")):
            with self.subTest(syscall=syscall, error=error):
                argv = tree.auth_argv("daemon", RIGHT)
                when = self.aim_state(argv, syscall)
                code, transcript = tree.auth("daemon", RIGHT, prefix=inject(syscall, error, when))
                self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
                # pwrite failed: old count; fsync failed after the pwrite: the new count, whole.
                self.assertIn(tree.failures("daemon"), [2] if syscall == "pwrite64" else [3])
                parse_state(tree.state_bytes("daemon"))
                tree.write_state("daemon", 2, 1764460000)
        self.assertEqual(tree.auth("daemon", RIGHT)[0], PAM_SUCCESS)
        self.assertEqual(tree.failures("daemon"), 0)
        self.assert_next_commands_work()

    def test_module_wrong_guess_with_failed_record_is_refused_and_state_whole(self):
        tree = self.tree
        # A wrong pattern not among the last ones (setUp's WRONG and OTHER_WRONG would be free repeats).
        fresh = "2759"
        for syscall, error, allowed in (("pwrite64", "EIO", [2]), ("fsync", "EIO", [3])):
            with self.subTest(syscall=syscall, error=error):
                argv = tree.auth_argv("daemon", fresh)
                when = self.aim_state(argv, syscall)
                code, transcript = tree.auth("daemon", fresh, prefix=inject(syscall, error, when))
                self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
                self.assertIn(tree.failures("daemon"), allowed)
                tree.write_state("daemon", 2, 1764460000)
        self.assert_next_commands_work()

    def test_module_reset_after_success_fails_closed(self):
        # The second pwrite of a right guess is the reset to zero: if it fails the attempt is not a
        # success and the counted attempt stays recorded (the new state, whole).
        tree = self.tree
        argv = tree.auth_argv("daemon", RIGHT)
        copy = tree.snapshot()
        first = nth_call(argv, "pwrite64", state_file("/state", "daemon"))
        tree.restore(copy)
        code, transcript = tree.auth("daemon", RIGHT, prefix=inject("pwrite64", "EIO", first + 1))
        self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
        self.assertEqual(tree.failures("daemon"), 3)
        self.assertEqual(tree.auth("daemon", RIGHT)[0], PAM_SUCCESS)
        self.assert_next_commands_work()

    def test_module_first_failure_of_a_new_user_fails_closed(self):
        # bin has no state file yet: it is created, then written. A failed write leaves an empty (zero)
        # file or none, and no success.
        tree = self.tree
        self.assertIsNone(tree.state_bytes("bin"))
        argv = tree.auth_argv("bin", OTHER)
        when = self.aim_state(argv, "pwrite64", user="bin")
        code, _ = tree.auth("bin", OTHER, prefix=inject("pwrite64", "ENOSPC", when))
        self.assertEqual(code, PAM_AUTHINFO_UNAVAIL)
        self.assertIn(tree.state_bytes("bin"), (None, b""))
        self.assertEqual(tree.auth("bin", OTHER)[0], PAM_SUCCESS)
        self.assert_next_commands_work()


class FilesystemFaultTests(unittest.TestCase):
    """A read-only filesystem and a genuinely full one, on a tmpfs in a private mount namespace."""

    def setUp(self):
        require_root_and_build()
        self.base = tempfile.mkdtemp(prefix="pattern-fs-")
        self.addCleanup(shutil.rmtree, self.base, True)

    def tmpfs_tree(self, size, users):
        """(mount point, Tree) on a new tmpfs of `size` (run inside the private namespace), `users` set to RIGHT
        and one wrong guess counted for the first."""
        mnt = os.path.join(self.base, "mnt")
        os.mkdir(mnt, 0o700)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s,mode=0700" % size, "tmpfs", mnt], check=True)
        tree = Tree(base=mnt)
        for user in users:
            tree.set(user, RIGHT, check=True)
        assert tree.auth(users[0], WRONG)[0] == PAM_AUTH_ERR
        return mnt, tree

    def test_read_only_filesystem(self):
        def scenario():
            mnt, tree = self.tmpfs_tree("4m", ["daemon"])
            store, state = tree.store_bytes(), tree.state_bytes("daemon")
            subprocess.run(["mount", "-o", "remount,ro", mnt], check=True)
            seen = {
                "set": tree.set("bin", OTHER).returncode,
                "replace": tree.set("daemon", OTHER).returncode,
                "remove": tree.ctl("remove", "daemon").returncode,
                "reset": tree.ctl("reset", "daemon").returncode,
                "list": tree.ctl("list").returncode,
                "auth right": tree.auth("daemon", RIGHT)[0],
                "auth wrong": tree.auth("daemon", WRONG)[0],
            }
            unchanged = tree.store_bytes() == store and tree.state_bytes("daemon") == state
            subprocess.run(["mount", "-o", "remount,rw", mnt], check=True)
            after = {
                "set": tree.set("bin", OTHER).returncode,
                "auth right": tree.auth("daemon", RIGHT)[0],
                "failures": tree.failures("daemon"),
                "remove": tree.ctl("remove", "bin").returncode,
                "temps": tree.temps(),
            }
            parse_store(tree.store_bytes())
            subprocess.run(["umount", mnt], check=True)
            return seen, unchanged, after

        seen, unchanged, after = in_child(scenario, private_mounts=True)
        for command in ("set", "replace", "remove", "reset"):
            self.assertEqual(seen[command], 1, "%s on a read-only filesystem: %s" % (command, seen))
        self.assertEqual(seen["list"], 0, "reading must still work")
        # No state update possible: fail closed, even for the right pattern (no uncounted guesses).
        self.assertEqual(seen["auth right"], PAM_AUTHINFO_UNAVAIL, seen)
        self.assertEqual(seen["auth wrong"], PAM_AUTHINFO_UNAVAIL, seen)
        self.assertTrue(unchanged, "the store or the state changed on a read-only filesystem")
        self.assertEqual(after, {"set": 0, "auth right": PAM_SUCCESS, "failures": 0, "remove": 0, "temps": []})

    def test_full_tmpfs(self):
        def scenario():
            mnt, tree = self.tmpfs_tree("128k", ["daemon", "bin", "sys", "sync", "games"])
            # Fill every last block.
            subprocess.run(
                ["dd", "if=/dev/zero", "of=" + os.path.join(mnt, "filler"), "bs=4k"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            store, state = tree.store_bytes(), tree.state_bytes("daemon")
            seen = {
                "set": tree.set("man", OTHER),
                "remove": tree.ctl("remove", "bin"),
                "auth new state": tree.auth("sys", RIGHT)[0],
                "auth wrong new state": tree.auth("games", WRONG)[0],
            }
            seen = {
                k: (v.returncode, v.stderr.decode(errors="replace")) if hasattr(v, "returncode") else v
                for k, v in seen.items()
            }
            full = {
                "store same": tree.store_bytes() == store,
                "temps": tree.temps(),
                "sys state": tree.state_bytes("sys"),
                "games state": tree.state_bytes("games"),
            }
            # An existing 31-byte state is rewritten in place, which needs no new block: it may work.
            in_place = tree.auth("daemon", OTHER_WRONG)[0]  # not the WRONG tmpfs_tree typed: that would not count
            daemon_state = parse_state(tree.state_bytes("daemon"))
            os.unlink(os.path.join(mnt, "filler"))
            after = {
                "set": tree.set("man", OTHER).returncode,
                "remove": tree.ctl("remove", "bin").returncode,
                "auth": tree.auth("sys", RIGHT)[0],
                "auth man": tree.auth("man", OTHER)[0],
                "temps": tree.temps(),
            }
            parse_store(tree.store_bytes())
            subprocess.run(["umount", mnt], check=True)
            return seen, full, in_place, daemon_state, state, after

        seen, full, in_place, daemon_state, state_before, after = in_child(scenario, private_mounts=True)
        self.assertEqual(seen["set"][0], 1, seen["set"])
        self.assertIn("errno 28", seen["set"][1])
        self.assertEqual(seen["remove"][0], 1, seen["remove"])
        self.assertTrue(full["store same"], "the store changed on a full disk")
        self.assertEqual(full["temps"], [])
        # A new state file cannot get its first block: refused, never a success without a count.
        self.assertEqual(seen["auth new state"], PAM_AUTHINFO_UNAVAIL, seen)
        self.assertEqual(seen["auth wrong new state"], PAM_AUTHINFO_UNAVAIL, seen)
        self.assertIn(full["sys state"], (None, b""))
        self.assertIn(full["games state"], (None, b""))
        # The existing state is either updated in place (counted) or refused (unchanged); whole either way.
        before = parse_state(state_before)[0]
        if in_place == PAM_AUTH_ERR:
            self.assertEqual(daemon_state[0], before + 1)
        else:
            self.assertEqual((in_place, daemon_state[0]), (PAM_AUTHINFO_UNAVAIL, before))
        self.assertEqual(after, {"set": 0, "remove": 0, "auth": PAM_SUCCESS, "auth man": PAM_SUCCESS, "temps": []})


if __name__ == "__main__":
    unittest.main()
