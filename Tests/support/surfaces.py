"""The drawing surfaces' test drivers (Sources/Surfaces/*/driver.py): each a script run as root in a test's
namespace, in which a line `# include: shared/NAME.py` stands for that shared part (the X server's start, the
pointer's steps), and `# include: support.MODULE.NAME` for a part the other suites' drivers use too (a string of
that support module), put in its place here so the script that runs is whole."""

import importlib
import os
import re

from support.paths import ROOT

SURFACES = os.path.join(ROOT, "Sources", "Surfaces")
INCLUDE = re.compile(r"^# include: (shared/driver_[a-z_]+\.py|support\.[a-z_]+\.[A-Z_]+)\n", re.M)


def driver(surface):
    """The test driver of `surface` (a folder of Sources/Surfaces), its shared parts put in."""
    with open(os.path.join(SURFACES, surface, "driver.py")) as f:
        return whole(f.read())


def whole(text):
    """A driver script's text with its shared parts put in."""

    def shared(match):
        part = match.group(1)
        if part.startswith("support."):
            module, name = part.rsplit(".", 1)
            return getattr(importlib.import_module(module), name)
        with open(os.path.join(SURFACES, part)) as f:
            return whole(f.read())  # a shared part may include another (the pointer's steps, the waiting)

    return INCLUDE.sub(shared, text)
