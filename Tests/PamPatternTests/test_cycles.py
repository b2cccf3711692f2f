"""1,000 pam_start/pam_authenticate/pam_end cycles in one process: no crash,
flat memory. libpam dlopens and dlcloses the module on every cycle, so a leak
per load, per call or per conversation would show as RSS growth.
"""

import json
import os
import subprocess
import sys
import unittest

from support.paths import PYTHONPATH
from support.sandbox import FixtureCase

CYCLES = 1000
MEASURE_FROM = 100
# Allowed RSS growth between cycle 100 and 1000. Measured: ~10 KiB (Python
# noise). Without -z nodelete the module leaked its Swift globals on every
# reload, ~180 KiB over these 900 cycles; this bound catches that.
BOUND_KIB = 128


class CyclesTest(FixtureCase):
    def test_thousand_cycles_flat_memory(self):
        # A fresh interpreter (not a fork of this one): the measurement then sees
        # the module and libpam, not heap state left by earlier tests.
        service = self.fixture.service("deny=1000 lock_after=0 show_grid")
        program = CHILD % {
            "confdir": self.fixture.confdir,
            "service": service,
            "cycles": CYCLES,
            "measure_from": MEASURE_FROM,
        }
        done = subprocess.run(
            [sys.executable, "-c", program],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=600,
            env=dict(os.environ, PYTHONPATH=PYTHONPATH),
        )
        self.assertEqual(
            done.returncode,
            0,
            "host process failed (negative = killed by signal): %d\n%s"
            % (done.returncode, done.stderr.decode()[-2000:]),
        )
        report = json.loads(done.stdout)
        self.assertEqual(report["mismatches"], [])
        rss = {int(k): v for k, v in report["rss"].items()}
        growth = rss[CYCLES] - rss[MEASURE_FROM]
        self.assertLess(
            growth, BOUND_KIB, "RSS grew %d KiB between cycle %d and %d (%r)" % (growth, MEASURE_FROM, CYCLES, rss)
        )


# Right, malformed, empty and unenrolled answers in turn: every path that
# allocates (hash, parse error message, conversation) is exercised.
CHILD = """
import gc, json, sys
from support.pam import *
script = [
    ("alice", [b"1379"], PAM_SUCCESS),
    ("alice", [b"12a4"], PAM_AUTH_ERR),
    ("alice", [b""], PAM_IGNORE),
    ("carol", [], PAM_USER_UNKNOWN),
]
mismatches, rss = [], {}
for i in range(1, %(cycles)d + 1):
    user, answers, expected = script[i %% len(script)]
    result = authenticate(%(confdir)r, %(service)r, user, Conversation(answers))
    if result.code != expected:
        mismatches.append((i, result.code, expected))
    if i in (%(measure_from)d, %(cycles)d):
        gc.collect()
        rss[i] = rss_kib()
print(json.dumps({"mismatches": mismatches, "rss": rss}))
"""


if __name__ == "__main__":
    unittest.main()
