"""Pointer paths for the hit rules' tests: seeded, so every run and every surface sees the same ones.

A path is (grid, steps): grid = (centerX, centerY, spacing, hitRadius), steps = [("P" or "M", x, y), ...]
(a press, a move). `line_of` writes one in the core's text form "G cx cy spacing radius P x y M x y ..."
(Tools/core-vectors, kind `pad`; Sources/Surfaces/shared/qml/PatternTrace.js reads the same).
"""

import math
import random

LIMIT = 1 << 24  # the QML port's coordinate domain (PatternTrace.js: coordinateLimit)


def ordinary_path(rng):
    """A press near one dot and a drawing of 2...30 samples, small steps and big jumps mixed."""
    spacing = rng.randint(20, 300)
    radius = rng.randint(1, spacing)  # above spacing / 2 the core clamps it
    cx, cy = rng.randint(-500, 2500), rng.randint(-500, 2500)
    grid = (cx, cy, spacing, radius)
    dot = rng.randint(1, 9)
    x = cx + ((dot - 1) % 3 - 1) * spacing + rng.randint(-radius, radius)
    y = cy + ((dot - 1) // 3 - 1) * spacing + rng.randint(-radius, radius)
    steps = [("P", x, y)]
    for _ in range(rng.randint(1, 30)):
        reach = rng.choice((3, 10, spacing // 2, spacing, 3 * spacing))
        x += rng.randint(-reach, reach)
        y += rng.randint(-reach, reach)
        steps.append(("M", x, y))
    return grid, steps


def swipe_path(rng):
    """A fast swipe: a press and one to three samples across the whole grid."""
    spacing = rng.randint(10, 400)
    radius = rng.randint(spacing // 4, spacing // 2)
    cx, cy = rng.randint(0, 2000), rng.randint(0, 2000)
    steps = [("P", cx + rng.randint(-2 * spacing, 2 * spacing), cy + rng.randint(-2 * spacing, 2 * spacing))]
    for _ in range(rng.randint(1, 3)):
        steps.append(("M", cx + rng.randint(-2 * spacing, 2 * spacing), cy + rng.randint(-2 * spacing, 2 * spacing)))
    return (cx, cy, spacing, radius), steps


def rim_path(rng):
    """Samples exactly on, just inside and just outside hit circles (an open circle: the rim misses)."""
    spacing = rng.randint(10, 200)
    radius = rng.randint(1, spacing // 2)
    cx, cy = rng.randint(0, 1000), rng.randint(0, 1000)
    steps = []
    for index in range(rng.randint(2, 12)):
        dot = rng.randint(1, 9)
        angle = rng.random() * 2 * math.pi
        distance = radius + rng.choice((-1, 0, 0, 1))
        x = cx + ((dot - 1) % 3 - 1) * spacing + round(distance * math.cos(angle))
        y = cy + ((dot - 1) // 3 - 1) * spacing + round(distance * math.sin(angle))
        steps.append(("P" if index == 0 else "M", x, y))
    return (cx, cy, spacing, radius), steps


def odd_path(rng):
    """Degenerate grids, moves before any press, coordinates at the port's limits."""
    spacing = rng.choice((-100, -1, 0, 1, 2, 3, 8192, 8193, 100000, rng.randint(-50, 50)))
    radius = rng.choice((-5, 0, 1, 2, 4096, 5000, 1 << 20, rng.randint(-10, 100)))
    cx, cy = rng.choice((0, -LIMIT, LIMIT, rng.randint(-LIMIT, LIMIT))), rng.randint(-LIMIT, LIMIT)
    steps = []
    for index in range(rng.randint(1, 8)):
        kind = "M" if index == 0 and rng.random() < 0.3 else rng.choice(("P", "M", "M", "M"))
        x = rng.choice((cx, -LIMIT, LIMIT, rng.randint(-LIMIT, LIMIT), cx + rng.randint(-20000, 20000)))
        y = rng.choice((cy, -LIMIT, LIMIT, rng.randint(-LIMIT, LIMIT), cy + rng.randint(-20000, 20000)))
        steps.append((kind, max(-LIMIT, min(LIMIT, x)), max(-LIMIT, min(LIMIT, y))))
    return (cx, cy, spacing, radius), steps


def paths_for(seed, count):
    rng = random.Random(seed)
    kinds = (ordinary_path, ordinary_path, swipe_path, rim_path, odd_path)
    return [kinds[index % len(kinds)](rng) for index in range(count)]


def line_of(path):
    grid, steps = path
    return " ".join(["G"] + [str(v) for v in grid] + ["%s %d %d" % step for step in steps])
