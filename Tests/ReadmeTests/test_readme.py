"""The README is one page for people: its quick start is exactly two commands, and they are what CI runs; every
relative link in it and in the reference it points to (docs/reference.md) leads to a file that exists."""

import os
import re
import unittest

from support.paths import ROOT

# Long enough for what, quick start, install, lockers, a forgotten pattern and the links; the rest is the
# reference's.
README_MAX_LINES = 120


def read(*parts):
    with open(os.path.join(ROOT, *parts)) as f:
        return f.read()


class ReadmeTests(unittest.TestCase):
    def setUp(self):
        self.readme = read("README.md")
        self.reference = read("docs", "reference.md")

    def quick_start_commands(self):
        section = self.readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
        return [line.split("#")[0].strip() for line in section.splitlines() if line.startswith("    ")]

    def test_quick_start_is_two_commands_demo_then_test(self):
        self.assertEqual(self.quick_start_commands(), ["make demo", "make test"])

    def test_readme_is_one_page_with_what_a_newcomer_asks(self):
        self.assertLessEqual(len(self.readme.splitlines()), README_MAX_LINES)
        headings = re.findall(r"(?m)^## (.+)$", self.readme)
        for wanted in ("Quick start", "Install", "Screen lockers", "Forgot your pattern?", "More"):
            self.assertIn(wanted, headings)
        self.assertIn("Swift 6", self.readme.split("## Quick start", 1)[1].split("\n## ", 1)[0])

    def test_every_relative_link_resolves(self):
        for name, text in (("README.md", self.readme), (os.path.join("docs", "reference.md"), self.reference)):
            here = os.path.dirname(os.path.join(ROOT, name))
            for target in re.findall(r"\]\(([^)\s]+)\)", text):
                if re.match(r"[a-z]+:|#", target):
                    continue
                self.assertTrue(os.path.exists(os.path.join(here, target)), f"{name} links to missing {target}")

    def test_the_references_contents_name_its_sections(self):
        anchors = set(re.findall(r"\]\(#([^)]+)\)", self.reference))
        headings = re.findall(r"(?m)^## (.+)$", self.reference)
        slugs = {re.sub(r"[^a-z0-9 _-]", "", h.lower()).replace(" ", "-") for h in headings}
        self.assertEqual(anchors, slugs)

    def test_ci_runs_the_readme_test_command(self):
        script = read(".ci", "run")
        commands = [l.strip() for l in script.splitlines() if l.strip() and not l.strip().startswith("#")]
        self.assertIn("exec make test", commands)
        self.assertTrue(os.access(os.path.join(ROOT, ".ci", "run"), os.X_OK))

    def test_makefile_has_the_targets_the_docs_name(self):
        makefile = read("Makefile")
        for target in set(re.findall(r"make (\w+)", self.readme + self.reference)):
            self.assertRegex(makefile, rf"(?m)^{target}:", f"README or docs/reference.md mentions 'make {target}'")


if __name__ == "__main__":
    unittest.main()
