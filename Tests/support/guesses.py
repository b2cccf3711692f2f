"""Distinct valid wrong patterns, for tests that count failures: the same wrong pattern typed again with nothing
tried in between is not counted (RepeatedGuess.swift), so a test that wants N counted failures types N different
ones."""

import itertools


def _valid(dots):
    """Android's rules: no dot twice, and a straight jump over a dot needs that dot visited already."""
    seen = set()
    for a, b in zip(dots, dots[1:]):
        seen.add(a)
        (ra, ca), (rb, cb) = divmod(a - 1, 3), divmod(b - 1, 3)
        if (ra - rb) % 2 == 0 and (ca - cb) % 2 == 0:
            middle = ((ra + rb) // 2) * 3 + (ca + cb) // 2 + 1
            if middle not in seen:
                return False
    return True


def wrong_patterns(count, avoid=(), length=5):
    """`count` distinct canonical patterns of `length` dots (as digit strings), none of them in `avoid`."""
    found = []
    for dots in itertools.permutations(range(1, 10), length):
        text = "".join(map(str, dots))
        if _valid(dots) and text not in avoid:
            found.append(text)
            if len(found) == count:
                return found
    raise ValueError("not enough patterns of %d dots" % length)
