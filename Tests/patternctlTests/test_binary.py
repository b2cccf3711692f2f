"""The installed CLI must run on a machine without the Swift toolchain."""

import re
import subprocess
import unittest

from support.paths import PATTERNCTL as CTL
from support.paths import require_built


class BinaryTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(CTL)

    def test_links_no_swift_runtime_and_has_no_search_path(self):
        ldd = subprocess.run(["ldd", CTL], capture_output=True, text=True, check=True).stdout
        self.assertNotRegex(ldd, r"libswift|/opt/swift", ldd)
        dynamic = subprocess.run(["readelf", "-d", CTL], capture_output=True, text=True, check=True).stdout
        self.assertIsNone(re.search(r"R(?:UN)?PATH", dynamic), dynamic)

    def test_runs_with_an_empty_library_path(self):
        r = subprocess.run([CTL, "--version"], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("patternctl", r.stdout)


if __name__ == "__main__":
    unittest.main()
