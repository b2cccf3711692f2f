"""A pattern belongs to an account, not to a name: after `userdel -r NAME` and a new `useradd NAME` (another
uid), the old account's pattern must not unlock the new one. Real users (useradd/userdel, under the
real-client flock), the real module through libpam (pam_once), patternctl as root would use it.

Also the migration of stores written before records carried a uid: a `user:hash:setAt` line still works,
and patternctl's next write binds it to the account the name has then.
"""

import os
import pwd
import unittest

from support import clients
from support.paths import run
from support.fault import pam_once

# unittest calls these around the module: the shared run flock (users, /etc).
from support.system import release_run_lock as tearDownModule  # noqa: F401
from support.system import take_run_lock as setUpModule  # noqa: F401

NAME = "ppatk3"
OTHER = "ppatk4"
PATTERN = clients.PATTERN
PAM_SUCCESS, PAM_AUTHINFO_UNAVAIL, PAM_USER_UNKNOWN = 0, 9, 10


class AccountReuseTest(clients.ClientCase):
    tools = ("useradd", "userdel")

    def setUp(self):
        super().setUp()
        pam_once()
        self.confdir = os.path.join(self.root, "pam.d")
        os.mkdir(self.confdir)
        with open(os.path.join(self.confdir, "pattern-reuse"), "w") as f:
            f.write(self.auth_line() + "\n")
        with open(os.path.join(self.confdir, "other"), "w") as f:
            f.write("auth required pam_deny.so\n")

    def auth(self, user, answer):
        done = run([pam_once(), self.confdir, "pattern-reuse", user, answer])
        lines = done.stdout.decode(errors="replace").splitlines()
        self.assertTrue(lines and lines[-1].startswith("rc="), done)
        return int(lines[-1][3:]), lines[:-1]

    def store_line(self, user):
        with open(self.store, "rb") as f:
            for line in f.read().splitlines():
                if line.split(b":")[0] == user.encode():
                    return line
        return None

    def test_a_recreated_account_does_not_inherit_the_pattern(self):
        old = self.make_user(NAME)
        self.enrol(NAME)
        old_uid = pwd.getpwnam(NAME).pw_uid
        self.assertEqual(self.store_line(NAME).split(b":")[1], str(old_uid).encode(), "the record carries the uid")
        self.assertEqual(self.auth(NAME, PATTERN)[0], PAM_SUCCESS)

        # The account goes; a new person gets the same name (and another uid).
        old.remove()
        new_uid = old_uid + 1
        while True:
            try:
                pwd.getpwuid(new_uid)
                new_uid += 1
            except KeyError:
                break
        made = run(["useradd", "-m", "-s", "/bin/sh", "-u", str(new_uid), NAME])
        self.assertEqual(made.returncode, 0, made.stderr)

        code, transcript = self.auth(NAME, PATTERN)
        self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
        self.assertFalse(any(l.startswith("prompt:") for l in transcript), "prompted for another account's pattern")
        self.assertTrue(any("set for uid %d" % old_uid in l for l in transcript), transcript)
        status = self.status(NAME)
        self.assertTrue(status["account"].startswith("MISMATCH: set for uid %d" % old_uid), status)
        listed = self.patternctl("list")
        self.assertEqual(listed.returncode, 0, listed)
        self.assertIn(("note: %s: account MISMATCH: set for uid %d" % (NAME, old_uid)).encode(), listed.stderr)

        # root prunes it; the new account is then simply not enrolled.
        pruned = self.patternctl("prune")
        self.assertEqual(pruned.returncode, 0, pruned)
        self.assertIn(b"Removed the pattern of " + NAME.encode(), pruned.stdout)
        self.assertIsNone(self.store_line(NAME))
        self.assertEqual(self.auth(NAME, PATTERN)[0], PAM_USER_UNKNOWN)

    def test_a_record_without_uid_works_and_the_next_write_binds_it(self):
        self.make_user(NAME)
        self.make_user(OTHER)
        self.enrol(NAME)
        line = self.store_line(NAME)
        fields = line.split(b":")
        legacy = b":".join([fields[0]] + fields[2:]) + b"\n"  # user:hash:setAt
        with open(self.store, "wb") as f:
            f.write(legacy)
        self.assertEqual(self.auth(NAME, PATTERN)[0], PAM_SUCCESS)
        self.assertTrue(self.status(NAME)["account"].startswith("unbound"))
        self.enrol(OTHER)  # any write of the store
        self.assertEqual(self.store_line(NAME), line, "the legacy record was not bound to its account")
        self.assertEqual(self.store_line(NAME).split(b":")[1], str(pwd.getpwnam(NAME).pw_uid).encode())
        self.assertNotIn("account", self.status(NAME), "a bound record is not flagged")
        self.assertEqual(self.auth(NAME, PATTERN)[0], PAM_SUCCESS)


if __name__ == "__main__":
    unittest.main()
