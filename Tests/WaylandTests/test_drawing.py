"""What pattern-lock sends for what is drawn, at a real headless sway driven by a virtual pointer, with the pad's
authproto stand-in as its PAM child (it records every reply): a drawing of fewer dots than minlen is never sent;
random drags send exactly the dots the core (build/core-vectors-embedded, the PadTrace rules) reads from the same
pointer path; on both paths (support.wayland). Root only (make deps)."""

import os
import random
import subprocess
import unittest

from support import paths, pointer_paths, wayland


setUpModule = wayland.set_up_module

VECTORS = os.path.join(paths.BUILD, "core-vectors-embedded")
# The locker's grid on the 800x600 output with XSECURELOCK_PATTERN_SIZE=100 (PadLayout: hit radius 3/10 of it).
GRID = wayland.centre() + (wayland.SPACING, wayland.SPACING * 3 // 10)


def core_reading(paths_):
    """The digits the core takes from each path ((grid, steps), as support.pointer_paths), "" for none."""
    lines = "".join("pad %s\n" % pointer_paths.line_of(p).encode().hex() for p in paths_)
    done = subprocess.run([VECTORS], input=lines, capture_output=True, text=True, timeout=60, check=True)
    answers = done.stdout.split("\n")[: len(paths_)]
    return [bytes.fromhex(answer.split(" ", 1)[1]).decode().strip("-") for answer in answers]


def random_drags(seed, count):
    """Drags on the screen: a press near a dot, then 3 to 12 samples, each near another dot (a hand's way through
    the grid, corners cut or not) or a step anywhere (off the grid too)."""
    rng = random.Random(seed)
    drags = []
    for _ in range(count):
        dot = rng.randint(1, 9)
        x, y = wayland.dot_centre(dot)
        x, y = x + rng.randint(-25, 25), y + rng.randint(-25, 25)
        steps = [("P", x, y)]
        for _ in range(rng.randint(3, 12)):
            if rng.random() < 0.7:
                x, y = wayland.dot_centre(rng.randint(1, 9))
                x, y = x + rng.randint(-40, 40), y + rng.randint(-40, 40)
            else:
                reach = rng.choice((15, 50, 100, 220))
                x, y = x + rng.randint(-reach, reach), y + rng.randint(-reach, reach)
            x, y = max(0, min(wayland.SCREEN[0] - 1, x)), max(0, min(wayland.SCREEN[1] - 1, y))
            steps.append(("M", x, y))
        drags.append((GRID, steps))
    return drags


class Drawing:
    def replies(self):
        """What the recorder got, without its last line when the session ends (its stdin closed: "None None")."""
        return [reply for reply in self.recorded() if reply != ("None", "None")]

    def test_a_three_dot_drawing_is_never_sent(self):
        report = self.session(
            [
                {"op": "ready"},
                {"op": "drag", "path": [1, 2, 3]},
                {"op": "screen", "until": "Too short", "timeout": 2},
                {"op": "sleep", "seconds": 0.5},
                {"op": "drag", "path": [7, 8, 9, 6]},
                {"op": "sleep", "seconds": 1},
            ],
            recorder=True,
        )
        self.assertReady(report)
        self.assertIn("Too short: connect at least 4 dots.", self.step(report, "screen")["text"])
        self.assertEqual(self.replies(), [("p", "7896")])

    def test_a_drawing_made_while_the_last_is_judged_is_not_lost(self):
        # The PAM child takes 2 s to judge each answer (a slow hash): the second drawing comes while the first is
        # judged, and the loop, which never waits on PAM, takes it and sends it to a new run.
        report = self.session(
            [
                {"op": "ready"},
                {"op": "drag", "path": [1, 2, 3, 6]},
                {"op": "sleep", "seconds": 0.3},
                {"op": "drag", "path": [7, 8, 9, 6]},
                {"op": "sleep", "seconds": 1.5},
            ],
            env={"PAD_RECORDER_DELAY": "2"},
            recorder=True,
        )
        self.assertReady(report)
        # The first run, judging when the second drawing came, is left to end by itself and told so ("x"): the
        # drawings are the "p" replies.
        drawings = [reply for reply in self.replies() if reply[0] == "p"]
        self.assertEqual(drawings, [("p", "1236"), ("p", "7896")], report["lock_log"][-2000:])

    def test_random_drags_send_what_the_core_reads(self):
        drags = random_drags(20261206, 24)
        expected = [digits for digits in core_reading(drags) if len(digits) >= 4]
        steps = [{"op": "ready"}]
        for _, samples in drags:
            steps.append({"op": "drag", "path": [[x, y] for _, x, y in samples], "steps": 1})
            steps.append({"op": "sleep", "seconds": 0.35})
        report = self.session(steps, recorder=True)
        self.assertReady(report)
        self.assertGreater(len(expected), 5, "too few drags of 4 dots or more to say anything")
        self.assertEqual(self.replies(), [("p", digits) for digits in expected], report["lock_log"][-2000:])


class DrawingTest(Drawing, wayland.WaylandCase):
    USER = "wayland4"


class DrawingDebian13Test(Drawing, wayland.Debian13Case):
    USER = "wayland4"


if __name__ == "__main__":
    unittest.main()
