"""The drawing surfaces' test drivers (Sources/Surfaces/*/driver.py): each a script run as root in a test's
namespace, in which a line `# include: shared/NAME.py` stands for that shared part (the X server's start, the
pointer's steps), put in its place here so the script that runs is whole."""

import os
import re

from support.paths import ROOT

SURFACES = os.path.join(ROOT, "Sources", "Surfaces")
INCLUDE = re.compile(r"^# include: (shared/driver_[a-z_]+\.py)\n", re.M)


def driver(surface):
    """The test driver of `surface` (a folder of Sources/Surfaces), its shared parts put in."""
    with open(os.path.join(SURFACES, surface, "driver.py")) as f:
        text = f.read()

    def shared(match):
        with open(os.path.join(SURFACES, match.group(1))) as f:
            return f.read()

    return INCLUDE.sub(shared, text)
