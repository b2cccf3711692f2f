"""The README's quick start is exactly two commands, and they are what CI runs."""

import os
import re
import unittest

from support.paths import ROOT


class ReadmeTests(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(ROOT, "README.md")) as f:
            self.readme = f.read()

    def quick_start_commands(self):
        section = self.readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
        return [line.split("#")[0].strip() for line in section.splitlines() if line.startswith("    ")]

    def test_quick_start_is_two_commands_demo_then_test(self):
        self.assertEqual(self.quick_start_commands(), ["make demo", "make test"])

    def test_ci_runs_the_readme_test_command(self):
        with open(os.path.join(ROOT, ".ci", "run")) as f:
            script = f.read()
        commands = [l.strip() for l in script.splitlines() if l.strip() and not l.strip().startswith("#")]
        self.assertIn("exec make test", commands)
        self.assertTrue(os.access(os.path.join(ROOT, ".ci", "run"), os.X_OK))

    def test_makefile_has_the_targets_the_readme_names(self):
        with open(os.path.join(ROOT, "Makefile")) as f:
            makefile = f.read()
        for target in set(re.findall(r"make (\w+)", self.readme)):
            self.assertRegex(makefile, rf"(?m)^{target}:", f"README mentions 'make {target}'")


if __name__ == "__main__":
    unittest.main()
