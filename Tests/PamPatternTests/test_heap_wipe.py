"""The pattern does not stay in the host's memory: a C program (heap_scan.c) authenticates through the
real libpam with a pattern typed in a short form ("1379", whose canonical form 1235789 only the module
computes), wipes its own copy, calls pam_end, and searches its own heap and anonymous mappings for the
canonical dots, as raw dot bytes and as ASCII digits. Nothing may be found: every buffer of the module
that held the parsed pattern (the parser's arrays, Pattern.dots, the hash input) was zeroed before it
was freed. Right and wrong answers, and an answer refused as too short.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

from support.pam import PAM_AUTH_ERR, PAM_SUCCESS, code_name
from support.paths import MODULE, require_built, require_root
from support.sandbox import Fixture

HERE = os.path.dirname(os.path.abspath(__file__))
USER = "alice"


class HeapWipeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if shutil.which("gcc") is None:
            raise unittest.SkipTest("needs gcc")
        cls.directory = tempfile.mkdtemp(prefix="heap-scan-")
        cls.binary = os.path.join(cls.directory, "heap_scan")
        subprocess.run(
            ["gcc", "-Wall", "-Wextra", "-O0", "-o", cls.binary, os.path.join(HERE, "heap_scan.c"), "-lpam"], check=True
        )

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory, ignore_errors=True)

    def setUp(self):
        require_built(MODULE)
        require_root("the store and state must be root-owned")
        self.fixture = Fixture()
        self.addCleanup(self.fixture.close)

    def scan(self, enrolled, typed, canonical, options=""):
        self.fixture.enrol(USER, enrolled)
        service = self.fixture.service(options)
        done = subprocess.run(
            [self.binary, self.fixture.confdir, service, USER, typed, canonical],
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertIn(done.returncode, (0, 1), done)
        code = int([l for l in done.stdout.splitlines() if l.startswith("rc=")][0][3:])
        found = [l for l in done.stdout.splitlines() if l.startswith("found:")]
        return code, found

    def test_right_pattern_leaves_no_canonical_dots_in_the_heap(self):
        code, found = self.scan("1235789", "1379", "1235789")
        self.assertEqual(code_name(code), code_name(PAM_SUCCESS))
        self.assertEqual(found, [])

    def test_wrong_pattern_leaves_no_canonical_dots_in_the_heap(self):
        code, found = self.scan("1235789", "1397", "1236987")
        self.assertEqual(code_name(code), code_name(PAM_AUTH_ERR))
        self.assertEqual(found, [])

    def test_too_short_answer_leaves_no_canonical_dots_in_the_heap(self):
        # "19" is 1-5-9: three dots, refused by minlen=4 after the parser made them.
        code, found = self.scan("1235789", "19", "159")
        self.assertEqual(code_name(code), code_name(PAM_AUTH_ERR))
        self.assertEqual(found, [])


if __name__ == "__main__":
    unittest.main()
