"""The drawing surfaces keep one shape (ARCHITECTURE.md, "The drawing surfaces"): every folder of
Sources/Surfaces but shared/ has ui/ (not empty), package.list (rows a binary package is made of) and driver.py
(the driver its support module runs); a surface missing a part, or a part nothing uses, fails here."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from support import debs
from support.paths import ROOT

PARTS = ("ui", "package.list", "driver.py")
SHARED = "shared"


def surfaces(root):
    top = os.path.join(root, "Sources", "Surfaces")
    return sorted(name for name in os.listdir(top) if os.path.isdir(os.path.join(top, name)) and name != SHARED)


def shape_problems(root, package_lists, tests_root):
    """What breaks the shape in the tree at `root`: missing or empty parts, a package list no package is made of,
    a driver no support module runs (`package_lists`: every list a package names; `tests_root`: the Tests
    folder whose support/<surface>.py must run surfaces.driver("<surface>"))."""
    problems = []
    top = os.path.join(root, "Sources", "Surfaces")
    for surface in surfaces(root):
        folder = os.path.join(top, surface)
        for part in PARTS:
            if not os.path.exists(os.path.join(folder, part)):
                problems.append("%s: no %s" % (surface, part))
        ui = os.path.join(folder, "ui")
        if os.path.isdir(ui) and not any(files for _, _, files in os.walk(ui)):
            problems.append("%s: ui/ is empty" % surface)
        listed = "Sources/Surfaces/%s/package.list" % surface
        if os.path.exists(os.path.join(folder, "package.list")) and listed not in package_lists:
            problems.append("%s: package.list is no package's (the Makefile's DEB_LISTS)" % surface)
        support = os.path.join(tests_root, "support", surface + ".py")
        runs = False
        if os.path.exists(support):
            with open(support) as f:
                runs = re.search(r'surfaces\.driver\("%s"\)' % re.escape(surface), f.read())
        if not runs:
            problems.append('%s: Tests/support/%s.py does not run surfaces.driver("%s")' % (surface, surface, surface))
    return problems


def package_lists():
    return {path for lists in debs.LISTS.values() for path in lists.split()}


class SurfaceShapeTests(unittest.TestCase):
    def test_every_surface_has_the_same_parts(self):
        self.assertEqual(surfaces(ROOT), ["draw", "gnome", "kde", "lightdm", "pad", "sddm", "wayland"])
        self.assertEqual(shape_problems(ROOT, package_lists(), os.path.join(ROOT, "Tests")), [])

    def test_every_part_is_used_by_a_build(self):
        """A surface's package list makes a package's files (a row of it is in `make print-install-list` of
        that package), and its driver, with the shared parts put in, is a whole Python script."""
        from support import surfaces as drivers

        for surface in surfaces(ROOT):
            with self.subTest(surface=surface):
                package = [p for p, lists in debs.LISTS.items() if "Surfaces/%s/" % surface in lists]
                self.assertEqual(len(package), 1, "one package holds %s" % surface)
                rows, _ = debs.install_rows(package[0])
                sources = {os.path.relpath(src, ROOT) for src, _, _ in rows}
                with open(os.path.join(ROOT, "Sources", "Surfaces", surface, "package.list")) as f:
                    own = {line.split()[0] for line in f if line.strip() and not line.startswith("#")}
                own.discard("-")
                # The list's sources, with the Makefile's $(BUILD) as the build directory.
                own = {source.replace("$(BUILD)", "build") for source in own}
                self.assertTrue(own and own <= sources, "%s's rows in %s: %s" % (surface, package[0], own - sources))
                script = drivers.driver(surface)
                self.assertIsNone(re.search(r"^# include: ", script, re.M), "a part left out of %s" % surface)
                compile(script, surface + "/driver.py", "exec")

    def test_a_broken_shape_is_caught(self):
        """The check above on copies of the tree: each part taken away from one surface, a list no package
        names and a driver no support module runs, each named."""
        lists = package_lists()
        for surface, damage, expected in (
            ("kde", "remove ui", "kde: no ui"),
            ("sddm", "remove package.list", "sddm: no package.list"),
            ("pad", "remove driver.py", "pad: no driver.py"),
            ("draw", "empty ui", "draw: ui/ is empty"),
            ("kde", "unlisted", "kde: package.list is no package's"),
            ("sddm", "not run", 'sddm: Tests/support/sddm.py does not run surfaces.driver("sddm")'),
            ("new", "new folder", "new: no ui"),
        ):
            with self.subTest(damage=damage, surface=surface):
                copy = tempfile.mkdtemp(prefix="pp-surfaces.")
                self.addCleanup(shutil.rmtree, copy, ignore_errors=True)
                shutil.copytree(os.path.join(ROOT, "Sources", "Surfaces"), os.path.join(copy, "Sources", "Surfaces"))
                shutil.copytree(os.path.join(ROOT, "Tests", "support"), os.path.join(copy, "Tests", "support"))
                folder = os.path.join(copy, "Sources", "Surfaces", surface)
                used = set(lists)
                if damage == "remove ui" or damage == "empty ui":
                    shutil.rmtree(os.path.join(folder, "ui"))
                    if damage == "empty ui":
                        os.makedirs(os.path.join(folder, "ui"))
                elif damage.startswith("remove "):
                    os.unlink(os.path.join(folder, damage.split()[1]))
                elif damage == "unlisted":
                    used.discard("Sources/Surfaces/%s/package.list" % surface)
                elif damage == "not run":
                    support = os.path.join(copy, "Tests", "support", surface + ".py")
                    with open(support) as f:
                        text = f.read()
                    with open(support, "w") as f:
                        f.write(text.replace('surfaces.driver("%s")' % surface, "DRIVER_TEXT"))
                elif damage == "new folder":
                    os.makedirs(folder)
                problems = shape_problems(copy, used, os.path.join(copy, "Tests"))
                self.assertTrue(any(p.startswith(expected) for p in problems), problems)

    def test_the_swift_target_handles_every_file(self):
        """The Swift target that spans Sources/Surfaces (PatternPad: shared/x11 and the two ui/ folders) excludes
        every other file there (a surface's package.list, driver.py, QML, the other targets' folders), else
        SwiftPM warns at every build of "unhandled" files and a new surface's part would be compiled as Swift."""
        swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
        if not os.path.exists(swift):
            self.skipTest("no swift toolchain")
        done = subprocess.run([swift, "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        targets = {t["name"]: t for t in json.loads(done.stdout)["targets"]}
        spanning = targets["PatternPad"]
        top = os.path.join(ROOT, spanning["path"])
        handled = [os.path.join(top, p) for p in spanning["sources"] + spanning["exclude"]]
        unhandled = []
        for directory, _, files in os.walk(top):
            for name in files:
                path = os.path.join(directory, name)
                if not any(path == h or path.startswith(h + "/") for h in handled):
                    unhandled.append(os.path.relpath(path, top))
        self.assertEqual(unhandled, [], "add them to PatternPad's exclude in Package.swift")


if __name__ == "__main__":
    unittest.main()
