"""1,000 pam_start/pam_authenticate/pam_end cycles in one process: no crash,
flat memory. libpam dlopens and dlcloses the module on every cycle, so a leak
per load, per call or per conversation would show as RSS growth.
"""
import gc
import unittest

from pamharness import (
    PAM_AUTH_ERR, PAM_IGNORE, PAM_SUCCESS, PAM_USER_UNKNOWN, Conversation, Fixture, authenticate,
    in_child, require_module, require_root, rss_kib,
)

CYCLES = 1000
MEASURE_FROM = 100
# Allowed RSS growth between cycle 100 and 1000. Measured: ~10 KiB (Python
# noise). Without -z nodelete the module leaked its Swift globals on every
# reload, ~180 KiB over these 900 cycles; this bound catches that.
BOUND_KIB = 128


class CyclesTest(unittest.TestCase):
    def setUp(self):
        require_root(self)
        require_module()
        self.fixture = Fixture()
        self.addCleanup(self.fixture.close)
        self.fixture.enrol("alice", "1235789")  # cost 1: the cycles measure the module, not yescrypt

    def test_thousand_cycles_flat_memory(self):
        fixture = self.fixture
        service = fixture.service("deny=1000 lock_after=0 show_grid")
        # Right, malformed, empty and unenrolled answers in turn: every path that
        # allocates (hash, parse error message, conversation) is exercised.
        script = [
            ("alice", [b"1379"], PAM_SUCCESS),
            ("alice", [b"12a4"], PAM_AUTH_ERR),
            ("alice", [b""], PAM_IGNORE),
            ("carol", [], PAM_USER_UNKNOWN),
        ]

        def cycles():
            codes = []
            rss = {}
            for i in range(1, CYCLES + 1):
                user, answers, expected = script[i % len(script)]
                result = authenticate(fixture.confdir, service, user, Conversation(answers))
                if result.code != expected:
                    codes.append((i, result.code, expected))
                if i in (MEASURE_FROM, CYCLES):
                    gc.collect()
                    rss[i] = rss_kib()
            return codes, rss

        mismatches, rss = in_child(cycles, timeout=600)
        self.assertEqual(mismatches, [])
        growth = rss[CYCLES] - rss[MEASURE_FROM]
        self.assertLess(growth, BOUND_KIB, "RSS grew %d KiB between cycle %d and %d (%r)"
                        % (growth, MEASURE_FROM, CYCLES, rss))


if __name__ == "__main__":
    unittest.main()
