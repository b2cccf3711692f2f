"""A release is a version: packaging/version.sh, the version `make deb` stamps, gives debian/changelog's version
only at the commit tagged v<version>, and every other commit a version of its own that sorts where the commit
belongs (dpkg's order); and the tree's release tags agree with the changelog they were cut from."""

import os
import shutil
import subprocess
import tempfile
import unittest

from support.paths import ROOT

SCRIPT = os.path.join(ROOT, "packaging", "version.sh")
ENTRY = """pam-pattern (%s) unstable; urgency=medium

  * A release.

 -- Someone <someone@example.org>  Mon, 30 Nov 2026 12:00:00 +0000

"""


def changelog_version(text):
    r = subprocess.run(
        ["dpkg-parsechangelog", "-l", "-", "-SVersion"], input=text, capture_output=True, text=True, check=True
    )
    return r.stdout.strip()


def sorts_before(a, b):
    return subprocess.run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0


class VersionScript(unittest.TestCase):
    """version.sh in a repository of its own, through a release, a commit after it and the next one's making."""

    def setUp(self):
        self.repo = tempfile.mkdtemp(prefix="pp-version.")
        self.addCleanup(shutil.rmtree, self.repo, ignore_errors=True)
        os.makedirs(os.path.join(self.repo, "packaging"))
        os.makedirs(os.path.join(self.repo, "debian"))
        shutil.copy(SCRIPT, os.path.join(self.repo, "packaging"))
        self.git("init", "-q")
        self.entries = ""

    def git(self, *args):
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t")
        env["GIT_COMMITTER_EMAIL"] = "t@example.org"
        return subprocess.run(["git", "-C", self.repo, *args], capture_output=True, text=True, check=True, env=env)

    def commit(self, version=None):
        if version:
            self.entries = ENTRY % version + self.entries
            with open(os.path.join(self.repo, "debian", "changelog"), "w") as f:
                f.write(self.entries)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", "a commit")
        return self.git("rev-parse", "--short=7", "HEAD").stdout.strip()

    def version(self):
        script = os.path.join(self.repo, "packaging", "version.sh")
        return subprocess.run([script], capture_output=True, text=True, check=True).stdout.strip()

    def test_only_the_tagged_release_has_the_bare_version_and_every_build_sorts_in_order(self):
        first = self.commit("1.2.0")
        self.assertEqual(self.version(), "1.2.0~git1.%s" % first, "untagged: on the way to 1.2.0")
        self.git("tag", "v1.2.0")
        released = self.version()
        self.assertEqual(released, "1.2.0")
        after = self.commit()
        self.assertEqual(self.version(), "1.2.0+git1.%s" % after)
        after_release = self.version()
        preparing = self.commit("1.3.0")
        self.assertEqual(self.version(), "1.3.0~git2.%s" % preparing, "two commits after v1.2.0")
        next_build = self.version()
        self.git("tag", "v1.3.0")
        order = [released, after_release, next_build, self.version()]
        self.assertEqual(order[-1], "1.3.0")
        for earlier, later in zip(order, order[1:]):
            self.assertTrue(sorts_before(earlier, later), "%s does not sort before %s" % (earlier, later))

    def test_outside_a_checkout_the_changelog_version(self):
        with open(os.path.join(self.repo, "debian", "changelog"), "w") as f:
            f.write(ENTRY % "1.2.0")
        shutil.rmtree(os.path.join(self.repo, ".git"))
        self.assertEqual(self.version(), "1.2.0")


class ReleaseTags(unittest.TestCase):
    """Each v* tag of this repository names a commit whose changelog's top entry is that version (before the
    source package moved it, the changelog was packaging/debian/changelog), and today's changelog has an entry for
    it. A clone without tags has nothing to check."""

    def test_each_release_tag_and_its_changelog_agree(self):
        tags = subprocess.run(
            ["git", "-C", ROOT, "tag", "-l", "v[0-9]*"], capture_output=True, text=True, check=True
        ).stdout.split()
        if not tags:
            self.skipTest("no release tags in this clone")
        with open(os.path.join(ROOT, "debian", "changelog")) as f:
            today = f.read()
        for tag in tags:
            with self.subTest(tag):
                shown = None
                for path in ("debian/changelog", "packaging/debian/changelog"):
                    r = subprocess.run(
                        ["git", "-C", ROOT, "show", "%s:%s" % (tag, path)], capture_output=True, text=True
                    )
                    if r.returncode == 0:
                        shown = r.stdout
                        break
                self.assertIsNotNone(shown, "%s has no changelog" % tag)
                self.assertEqual(changelog_version(shown), tag[1:])
                self.assertIn("pam-pattern (%s) " % tag[1:], today)


if __name__ == "__main__":
    unittest.main()
