"""Every file the setuid helper makes is root:root, though it runs with the person's group (setuid changes the
effective uid only): the throttle state and the attempt record after a wrong guess, the store and the enrolment
record after a change of pattern (FILEFORMAT.md). support.helper's namespace; user pprough1 (their gid is not 0).
"""

import os
import shlex
import unittest

from support import helper
from support.helper import PATTERN, WRONG_PATTERN, helper_call
from support.paths import PATTERNCTL
from support.system import as_user

# unittest calls these around the module: the shared run flock (users, /etc).
from support.system import release_run_lock as tearDownModule  # noqa: F401
from support.system import take_run_lock as setUpModule  # noqa: F401

NEW_PATTERN = "1562943"


def owners(*tops):
    """{path: (uid, gid)} of every directory and file under `tops`, the tops included."""
    found = {}
    for top in tops:
        for directory, _, files in os.walk(top):
            for path in [directory] + [os.path.join(directory, name) for name in files]:
                st = os.lstat(path)
                found[path] = (st.st_uid, st.st_gid)
    return found


class RootOwnedFilesTest(helper.HelperCase):
    USER = "pprough1"

    def test_files_the_helper_makes_are_root_root(self):
        self.assertNotEqual(self.user.uid, 0)  # as_user runs it with the gid of that number
        script = "\n".join(
            [
                as_user(self.user, helper_call("verify", self.USER, "printf '%s\\0'" % WRONG_PATTERN)),
                as_user(
                    self.user,
                    "printf '%%s\\n' %s %s %s | %s set" % (PATTERN, NEW_PATTERN, NEW_PATTERN, shlex.quote(PATTERNCTL)),
                ),
            ]
        )
        done = self.sandbox.run(script)
        self.assertIn("rc=%d" % helper.WRONG, done.stdout.decode(), done)
        self.assertIn("Pattern changed", done.stdout.decode(), done)
        found = owners(self.sandbox.state_dir, self.sandbox.store_dir)
        self.assertGreater(len([p for p in found if p.startswith(self.sandbox.state_dir + "/")]), 1, found)
        self.assertEqual({path: owner for path, owner in found.items() if owner != (0, 0)}, {})


if __name__ == "__main__":
    unittest.main()
