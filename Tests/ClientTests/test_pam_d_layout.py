"""Where the shipped pam.d files put the pattern line: below every auth restriction.

A right pattern ends the auth stack (`sufficient`), so a restriction below the
pattern line (pam_wheel, pam_nologin, pam_faillock preauth...) would never be
checked. pam.d/su must also keep Debian 12's stock file whole (its pam_wheel
lines, commented as shipped), so enabling wheel is uncommenting one line.
The real su with wheel enabled is tested in test_shipped_su.py (root).
"""

import hashlib
import os
import unittest

from support.paths import ROOT

SHIPPED_SU = os.path.join(ROOT, "pam.d", "su")

# md5 of Debian 12's stock /etc/pam.d/su (a conffile of util-linux; dpkg-query -W -f='${Conffiles}' util-linux).
STOCK_SU_MD5 = "60fbbe65c90d741bc0d380543cefe8af"


def auth_modules(lines):
    """(index, module) of every auth line, commented-out stock lines included."""
    found = []
    for index, line in enumerate(lines):
        fields = line.lstrip("# ").split()
        if len(fields) >= 3 and fields[0] == "auth":
            found.append((index, fields[2]))
    return found


class ShippedPamFilesLayoutTest(unittest.TestCase):
    def test_keeps_every_stock_line_in_order(self):
        with open("/etc/pam.d/su", "rb") as f:
            stock = f.read()
        if hashlib.md5(stock).hexdigest() != STOCK_SU_MD5:
            self.skipTest("/etc/pam.d/su here is not Debian 12's stock file")
        with open(SHIPPED_SU, "rb") as f:
            shipped = f.read().decode().splitlines()
        remaining = iter(shipped)
        for line in stock.decode().splitlines():
            self.assertTrue(
                any(line == candidate for candidate in remaining), "stock line missing or out of order: %r" % line
            )

    def test_pattern_comes_after_rootok_and_every_wheel_line(self):
        with open(SHIPPED_SU) as f:
            modules = auth_modules(f.read().splitlines())
        pattern = [index for index, module in modules if module == "pam_pattern.so"]
        self.assertEqual(len(pattern), 1, modules)
        before = [module for index, module in modules if index < pattern[0]]
        self.assertEqual(before, ["pam_rootok.so", "pam_wheel.so", "pam_wheel.so", "pam_wheel.so"], modules)

    def test_no_shipped_file_puts_the_pattern_above_a_restriction(self):
        # Stock auth restrictions a right pattern must not skip (commented-out lines count: enabling one
        # where it stands must work).
        restrictions = {
            "pam_wheel.so",
            "pam_nologin.so",
            "pam_securetty.so",
            "pam_faillock.so",
            "pam_access.so",
            "pam_time.so",
            "pam_succeed_if.so",
            "pam_listfile.so",
        }
        directory = os.path.join(ROOT, "pam.d")
        # pam.d/patternctl is the password check for a first self-service pattern: it must not offer the
        # pattern at all (a pattern cannot vouch for setting the first pattern).
        without_pattern = {"patternctl"}
        for name in sorted(os.listdir(directory)):
            if name in without_pattern:
                with open(os.path.join(directory, name)) as f:
                    self.assertNotIn("pam_pattern.so", f.read(), name)
                continue
            with open(os.path.join(directory, name)) as f:
                modules = auth_modules(f.read().splitlines())
            pattern = [index for index, module in modules if module == "pam_pattern.so"]
            with self.subTest(name):
                self.assertTrue(pattern, modules)
                late = [module for index, module in modules if index > pattern[0] and module in restrictions]
                self.assertEqual(late, [], "%s: restriction below the pattern line" % name)


if __name__ == "__main__":
    unittest.main()
