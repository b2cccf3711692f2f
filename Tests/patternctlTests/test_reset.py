"""`patternctl reset` repairs a malformed throttle state file and refuses an unsafe one (run as root).

A malformed file is what the module logs as "the throttle state file is
malformed (reset it with patternctl)": a torn write, a hand edit. Reset
rewrites it as zero failures and the user's pattern works again. An unsafe
file (owner, mode, hard links, type) may be someone's attack or mistake:
reset refuses it with the reason and leaves it exactly as it was.
"""

import os
import stat
import unittest

from support.cli import USER_A, GOOD
from support.formats import state_record
from support.sandbox import SandboxCase

ZERO_RECORD = state_record(0, 0)

# Contents the module cannot parse: torn writes of a 31-byte record and hand edits.
MALFORMED = {
    "torn after 5 bytes": b"00000",
    "torn after 25 bytes": b"0000000003 000000000000001",
    "text": b"three failures\n",
    "missing newline": b"0000000003 0000000001700000000",
    "sign in the count": b"-000000003 0000000001700000000\n",
}


class ResetRepairTests(SandboxCase):
    def setUp(self):
        super().setUp()
        done = self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))
        self.assertEqual(done.code, 0, done)
        self.path = self.box.state_path(USER_A)

    def write_state(self, content, mode=0o600):
        descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
        os.chmod(self.path, mode)

    def test_repairs_a_malformed_state_file(self):
        for name, content in MALFORMED.items():
            with self.subTest(name):
                self.write_state(content)
                # The precondition: status (like the module) refuses the file as malformed.
                broken = self.ctl("status", USER_A)
                self.assertEqual(broken.code, 1, broken)
                self.assertIn("malformed (reset it with patternctl)", broken.err)
                done = self.ctl("reset", USER_A)
                self.assertEqual(done.code, 0, done)
                self.assertIn("Repaired the malformed throttle state of %s" % USER_A, done.out)
                with open(self.path, "rb") as handle:
                    self.assertEqual(handle.read(), ZERO_RECORD)
                info = os.stat(self.path)
                self.assertEqual((info.st_uid, stat.S_IMODE(info.st_mode), info.st_nlink), (0, 0o600, 1))
                status = self.ctl("status", USER_A)
                self.assertEqual(status.code, 0, status)
                self.assertIn("failures: 0 wrong tries", status.out)
                self.assertIn("locked: no\n", status.out)

    def assert_refused_and_untouched(self, reason):
        before = os.lstat(self.path)
        content = None
        if stat.S_ISREG(before.st_mode):
            with open(self.path, "rb") as handle:
                content = handle.read()
        done = self.ctl("reset", USER_A)
        self.assertEqual(done.code, 1, done)
        self.assertIn("could not reset %s: %s" % (USER_A, reason), done.err)
        self.assertEqual(done.out, "")
        after = os.lstat(self.path)
        self.assertEqual(
            (after.st_ino, after.st_mode, after.st_uid, after.st_nlink, after.st_size),
            (before.st_ino, before.st_mode, before.st_uid, before.st_nlink, before.st_size),
        )
        if content is not None:
            with open(self.path, "rb") as handle:
                self.assertEqual(handle.read(), content)

    # Each unsafe file is also malformed, so only the safety check can be what refuses it.
    def test_refuses_a_state_file_owned_by_another_user(self):
        self.write_state(b"garbage\n")
        os.chown(self.path, 65534, 65534)
        self.assert_refused_and_untouched("the file is owned by uid 65534, not root")

    def test_refuses_a_state_file_readable_by_others(self):
        self.write_state(b"garbage\n", mode=0o644)
        self.assert_refused_and_untouched("the file is readable by group or others")

    def test_refuses_a_state_file_writable_by_others(self):
        self.write_state(b"garbage\n", mode=0o602)
        self.assert_refused_and_untouched("the file is writable by group or others")

    def test_refuses_a_hard_linked_state_file(self):
        self.write_state(b"garbage\n")
        other = os.path.join(self.box.directory, "second-name")
        os.link(self.path, other)
        self.assert_refused_and_untouched("the file has 2 hard links")

    def test_refuses_a_symlinked_state_file(self):
        target = os.path.join(self.box.directory, "elsewhere")
        with open(target, "wb") as handle:
            handle.write(b"garbage\n")
        os.chmod(target, 0o600)
        os.symlink(target, self.path)
        self.assert_refused_and_untouched("the file is a symbolic link")
        with open(target, "rb") as handle:
            self.assertEqual(handle.read(), b"garbage\n")

    def test_refuses_a_fifo_or_directory_as_state_file(self):
        for kind, make in (
            ("fifo", lambda: os.mkfifo(self.path, 0o600)),
            ("directory", lambda: os.mkdir(self.path, 0o700)),
        ):
            with self.subTest(kind):
                make()
                self.assert_refused_and_untouched("the file is not a regular file")
                (os.rmdir if kind == "directory" else os.unlink)(self.path)


if __name__ == "__main__":
    unittest.main()
