"""The built module's shape: what it exports, what it needs, how big it is.

dlopen(RTLD_NOW)/dlsym finds the entry points and no Swift
symbols; ldd shows no Swift runtime and no libstdc++; stripped < 192 KB.
"""

import ctypes
import os
import re
import subprocess
import unittest

from support.paths import MODULE, require_built

ENTRY_POINTS = {"pam_sm_authenticate", "pam_sm_setcred"}
# Libraries the module may need: libc, libpam, libcrypt and what they pull in.
ALLOWED_LIBRARIES = {
    "linux-vdso.so.1",
    "libc.so.6",
    "libpam.so.0",
    "libcrypt.so.1",
    "libaudit.so.1",
    "libcap-ng.so.0",
    "ld-linux-x86-64.so.2",
    "libm.so.6",
}


class ExportsTest(unittest.TestCase):
    def setUp(self):
        require_built(MODULE)

    def test_dlopen_now_finds_entry_points(self):
        # RTLD_NOW: every undefined symbol must resolve now, as with -z now in PAM.
        library = ctypes.CDLL(MODULE, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        for name in ENTRY_POINTS:
            self.assertIsNotNone(getattr(library, name), name)

    def test_dlsym_finds_no_swift_or_shim_symbols(self):
        library = ctypes.CDLL(MODULE, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        for name in (
            "pam_pattern_swift_authenticate",
            "pam_pattern_converse",
            "pam_pattern_log",
            "swift_retain",
            "swift_release",
            "swift_allocObject",
            "$ss5print",
            "pam_sm_open_session",
            "pam_sm_chauthtok",
            "pam_sm_acct_mgmt",
        ):
            with self.assertRaises(AttributeError, msg=name):
                getattr(library, name)

    def test_dynamic_symbol_table_exports_exactly_the_entry_points(self):
        out = subprocess.run(
            ["nm", "-D", "--defined-only", MODULE], check=True, stdout=subprocess.PIPE, text=True
        ).stdout
        names = {line.split()[-1] for line in out.splitlines() if line.strip()}
        self.assertEqual(names, ENTRY_POINTS, out)

    def test_no_swift_symbols_in_dynamic_table_at_all(self):
        out = subprocess.run(
            ["readelf", "--dyn-syms", "-W", MODULE], check=True, stdout=subprocess.PIPE, text=True
        ).stdout
        self.assertNotRegex(out, r"\$s|\$e|swift_", out)

    def test_ldd_shows_no_swift_runtime_and_no_libstdcxx(self):
        out = subprocess.run(["ldd", MODULE], check=True, stdout=subprocess.PIPE, text=True).stdout
        names = set()
        for line in out.splitlines():
            first = line.strip().split()[0]
            names.add(os.path.basename(first))
        self.assertNotRegex(out, r"swift|stdc\+\+|libgcc_s|Foundation", out)
        self.assertTrue({"libc.so.6", "libpam.so.0", "libcrypt.so.1"} <= names, out)
        self.assertTrue(names <= ALLOWED_LIBRARIES, "unexpected libraries: %s" % (names - ALLOWED_LIBRARIES))

    def test_direct_needs_are_only_libc_libpam_libcrypt(self):
        out = subprocess.run(["readelf", "-d", MODULE], check=True, stdout=subprocess.PIPE, text=True).stdout
        needed = set(re.findall(r"Shared library: \[([^\]]+)\]", out))
        self.assertTrue(needed <= {"libc.so.6", "libpam.so.0", "libcrypt.so.1", "libm.so.6"}, needed)
        # No search path at all: not into a toolchain (a machine without it could
        # not load the module), not $ORIGIN (make build passes --disable-local-rpath).
        self.assertNotRegex(out, r"R(?:UN)?PATH", out)

    def test_hardened_link(self):
        dynamic = subprocess.run(["readelf", "-d", MODULE], check=True, stdout=subprocess.PIPE, text=True).stdout
        self.assertRegex(dynamic, r"FLAGS.*BIND_NOW|FLAGS_1.*NOW")  # -z now
        self.assertRegex(dynamic, r"FLAGS_1.*NODELETE")  # loaded once: no per-reload leak of Swift globals
        segments = subprocess.run(["readelf", "-lW", MODULE], check=True, stdout=subprocess.PIPE, text=True).stdout
        self.assertIn("GNU_RELRO", segments)  # -z relro
        stack = [l for l in segments.splitlines() if "GNU_STACK" in l]
        self.assertTrue(stack and "RWE" not in stack[0], stack)  # no executable stack

    def test_stripped_and_small(self):
        size = os.path.getsize(MODULE)
        # 121 KB with function sections + --gc-sections (258 KB without: every public core function was
        # linked whether the module used it or not). The bound catches that regression.
        self.assertLess(
            size,
            192 * 1024,
            "module is %d bytes (a .build from before -function-sections keeps "
            "the old objects: SwiftPM does not rebuild on a flag change; rm -rf .build)" % size,
        )
        out = subprocess.run(["file", "-L", MODULE], stdout=subprocess.PIPE, text=True).stdout
        if out:
            self.assertIn("stripped", out)
            self.assertNotIn("not stripped", out)


if __name__ == "__main__":
    unittest.main()
