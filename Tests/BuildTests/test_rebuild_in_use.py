"""`make build` while the built files are in use: a sudo (or a test) with build/pam_pattern.so loaded, a helper
or a pad running from build/. Every file is put in place as a new file and renamed over the old one: copied over
it, a running binary made the build fail ("Text file busy") and a loaded module was rewritten under the process
that had it mapped.
"""

import os
import subprocess
import sys
import unittest

from support.paths import BUILD, HELPER, MODULE, ROOT, require_built

LOADS_THE_MODULE = "import ctypes, sys; ctypes.CDLL(sys.argv[1]); print('loaded', flush=True); sys.stdin.read()"


def mapped_inodes(pid, path):
    """Inodes of `path` in /proc/PID/maps (field 5 of each line that names it, renamed over or not)."""
    with open("/proc/%d/maps" % pid) as f:
        lines = [line.rstrip().removesuffix(" (deleted)") for line in f]
    return {int(line.split()[4]) for line in lines if line.endswith(" " + path)}


class RebuildInUseTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(MODULE, HELPER)
        if os.path.realpath(BUILD) != os.path.realpath(os.path.join(ROOT, "build")):
            raise unittest.SkipTest("PAM_PATTERN_BUILD is not this tree's build/: make build would not write it")

    def start(self, argv):
        child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.addCleanup(child.wait, 10)
        self.addCleanup(child.stdout.close)
        self.addCleanup(child.stdin.close)
        return child

    def test_a_build_while_the_module_is_loaded_and_the_helper_runs(self):
        module = os.path.realpath(MODULE)
        host = self.start([sys.executable, "-c", LOADS_THE_MODULE, module])
        self.assertEqual(host.stdout.readline(), b"loaded\n")
        # The helper reads its fields until end of input: it runs as long as this pipe is open.
        helper = self.start([HELPER, "verify", "root"])
        loaded = mapped_inodes(host.pid, module)
        self.assertEqual(len(loaded), 1, loaded)
        built = subprocess.run(
            ["make", "-s", "--no-print-directory", "-C", ROOT, "build"], capture_output=True, text=True
        )
        self.assertEqual(built.returncode, 0, built.stdout[-2000:] + built.stderr[-2000:])
        self.assertIsNone(helper.poll(), "the running helper did not survive the build")
        # The host keeps the module it loaded, whole; the tree has a new file under that name.
        self.assertEqual(mapped_inodes(host.pid, module), loaded)
        self.assertNotIn(os.stat(module).st_ino, loaded)
        self.assertEqual([name for name in os.listdir(BUILD) if name.endswith(".new")], [])


if __name__ == "__main__":
    unittest.main()
