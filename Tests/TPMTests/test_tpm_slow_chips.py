"""TPM mode on the slowest real chips: swtpm behind a proxy that answers each command no sooner than the
slowest published chip would (support.tpm_latency: per command code, key creation and ECDH and flash writes
included), through the real patternctl and setuid helper (test_tpm_patternctl's namespace and steps).

At the model's own speed every conversation fits its deadline with at least twice its time to spare, so
enrolment, a check right and wrong (bound to the session key, and salted without one), a root's and a user's
change and a prune all succeed. Slower than their margin, each fails with the deadline's words ("answered too
slowly"), never "no TPM", and nothing is changed: an enrolment or a change from 3x on, a check bound to the
session key from 12x on (its margin is wider), a prune of a page of strays from 4x on.

With PAM_PATTERN_TPM_SLOW_ALL=1 every test of test_tpm_patternctl runs through the proxy at the model's speed
too (`make test-tpm-slow`); `make test` runs only this file's own tests. Root only; user tpmslow1.
"""

import os
import shlex
import time
import unittest

import test_tpm_patternctl as patternctl_tests
from support import helper
from support.paths import BUILD, PATTERNCTL
from support.tpm_latency import SlowedTPM

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401

FIRST, SECOND = patternctl_tests.FIRST, patternctl_tests.SECOND
DEADLINE_WORDS = "the TPM is there but answered too slowly"
SESSION_KEY_FILE = "/etc/security/pam_pattern/.patterns.tpm-session-key"
TPM_DRIVER = os.path.join(BUILD, "tpm-driver")


class SlowChipTest(patternctl_tests.PatternctlTPMTest):
    USER = "tpmslow1"

    def setUp(self):
        super().setUp()
        self.model = self.slowed(1)

    def slowed(self, scale):
        """A proxy in front of this test's swtpm at `scale` times the slowest chips' model; its TCTI."""
        proxy = SlowedTPM(self.tpm, scale, name="slowed-%g" % scale)
        self.addCleanup(proxy.close)
        return proxy.tcti

    def conf(self, tpm, tcti=None):
        return super().conf(tpm, tcti or self.model)

    def strays(self, count):
        """`count` indexes no store line names, as killed enrolments leave them (straight into swtpm)."""
        one = "%s enroll %s stray %s 5 >/dev/null" % (TPM_DRIVER, shlex.quote(self.tpm.tools_tcti), FIRST)
        return " && ".join([one] * count)

    def assert_too_slow(self, step):
        output, status = step
        self.assertEqual(status, 1, output)
        self.assertIn(DEADLINE_WORDS, output)
        self.assertIn("nothing was changed", output)
        self.assertNotIn("no TPM", output)

    def test_on_the_slowest_chips_every_conversation_fits(self):
        started = time.monotonic()
        r = self.steps(
            [
                self.conf("yes"),
                self.root_set(FIRST),  # 1: a new session key, the write policy, the index, the line
                self.line,  # 2
                self.verify(FIRST),  # 3: bound to the session key
                self.verify(helper.WRONG_PATTERN),  # 4: wrong, and the TPM's count read
                "rm " + SESSION_KEY_FILE,  # 5: checks salt their sessions (key creation + ECDH)
                self.verify(FIRST),  # 6
                self.verify(helper.WRONG_PATTERN),  # 7
                self.own("set", FIRST, SECOND, SECOND),  # 8: the old index deleted, the session key made again
                self.verify(SECOND),  # 9
                self.root_set(FIRST),  # 10: root's change
                self.strays(4),  # 11
                "%s prune 2>&1" % PATTERNCTL,  # 12: a page of four strays in one conversation
                self.indexes(),  # 13
                self.line,  # 14
                self.verify(FIRST),  # 15
            ]
        )
        print("\n  slowest-chip steps took %.1f s" % (time.monotonic() - started))
        self.assertEqual(r[1][1], 0, r[1][0])
        self.assertIn("held by the TPM", r[1][0])
        self.assertEqual(r[3][1], helper.SUCCESS, r[3])
        self.assertEqual(r[4][1], helper.WRONG, r[4])
        self.assertEqual(r[5][1], 0, r[5][0])
        self.assertEqual(r[6][1], helper.SUCCESS, r[6])
        self.assertEqual(r[7][1], helper.WRONG, r[7])
        self.assertEqual(r[8][1], 0, r[8][0])
        self.assertEqual(r[9][1], helper.SUCCESS, r[9])
        self.assertEqual(r[10][1], 0, r[10][0])
        self.assertEqual(r[11][1], 0, r[11][0])
        self.assertEqual(r[12][1], 0, r[12][0])
        self.assertIn("4", r[12][0])
        self.assertEqual(self.handles(r[13][0]), {self.record_handle(r[14][0])})
        self.assertEqual(r[15][1], helper.SUCCESS, r[15])

    def test_slower_than_the_margin_each_fails_with_the_deadlines_words(self):
        three, twelve, four = self.slowed(3), self.slowed(12), self.slowed(4)
        r = self.steps(
            [
                self.conf("yes"),
                self.root_set(FIRST),  # 1: at the model's speed
                self.line,  # 2
                self.conf("yes", three),
                self.root_set(SECOND),  # 4: root's change at 3x
                self.own("set", FIRST, SECOND, SECOND),  # 5: the user's own change at 3x
                self.line,  # 6
                self.verify(FIRST),  # 7: a bound check still fits at 3x
                self.conf("yes", twelve),
                self.verify(FIRST),  # 9: not at 12x: unavailable, nothing counted
                self.conf("yes", three),
                self.verify(FIRST),  # 11: and it was not counted
                self.strays(4),  # 12
                self.conf("yes", four),
                "%s prune 2>&1" % PATTERNCTL,  # 14: a page of four strays at 4x
                self.conf("yes"),
                "%s prune 2>&1" % PATTERNCTL,  # 16: at the model's speed the rest go
                self.indexes(),  # 17
            ]
        )
        self.assertEqual(r[1][1], 0, r[1][0])
        self.assert_too_slow(r[4])
        self.assert_too_slow(r[5])
        self.assertEqual(r[6][0], r[2][0], "nothing was changed")
        self.assertEqual(r[7][1], helper.SUCCESS, r[7])
        self.assertEqual(r[9][1], helper.UNAVAILABLE, r[9])
        self.assertEqual(r[11][1], helper.SUCCESS, r[11])
        self.assertEqual(r[14][1], 1, r[14][0])
        self.assertIn(DEADLINE_WORDS, r[14][0])
        self.assertNotIn("no TPM", r[14][0])
        self.assertEqual(r[16][1], 0, r[16][0])
        self.assertEqual(self.handles(r[17][0]), {self.record_handle(r[2][0])})


# The inherited tests run through the model only when asked (make test-tpm-slow): test_tpm_patternctl runs
# them on swtpm's own speed anyway.
if os.environ.get("PAM_PATTERN_TPM_SLOW_ALL") != "1":
    for _name in dir(patternctl_tests.PatternctlTPMTest):
        if _name.startswith("test_"):
            setattr(SlowChipTest, _name, None)


if __name__ == "__main__":
    unittest.main()
