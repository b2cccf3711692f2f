"""No drawing is lost at the real xsecurelock with the shipped profile (pattern, then password): four different
wrong drawings, each begun 0.6 s (then 0.3 s) after the previous release, are all judged and counted, and the right
one begun as soon after the last unlocks. The pad keeps reading the pointer while the run it cancels (authproto_pam
at pam_unix's password prompt, which sits out pam_unix's fail delay) ends in the background. A screenshot 0.2 s
after each press shows the new drawing, not the old red message. Root only (make deps)."""

import unittest

from support import pad, screen
from support.guesses import wrong_patterns
from support.helper import PATTERN


setUpModule = pad.set_up_module

# The module's own line for each judged wrong pattern (the helper logs one as well, tagged pam_pattern_helper).
MODULE_WRONG = "pam_pattern(common-auth:auth): wrong pattern for user "


class NoDrawingLostTest(pad.PadCase):
    USER = "pphpad8"

    def drawings_with_gaps(self, gap):
        wrong = wrong_patterns(4, avoid=(PATTERN,))
        steps = [{"op": "wake"}]
        for index, digits in enumerate(wrong + [PATTERN]):
            steps.append(
                {
                    "op": "drag",
                    "path": pad.dots(digits),
                    "gap": gap if index else None,
                    "shot_after_press": {"name": "press-%d.xwd" % index, "delay": 0.2},
                }
            )
        steps.append({"op": "wait", "timeout": 30})
        report = self.session(steps)
        self.assertWoke(report)
        drags = [s for s in report["steps"] if s["op"] == "drag"]
        self.assertEqual(len(drags), 5, report)
        for index, drag in enumerate(drags[1:], 1):
            # The driver kept the gap (a loaded machine may stretch it a little, never to the old stall's length).
            self.assertLess(drag["gap"], gap + 0.4, "drawing %d begun %.2f s after the release" % (index, drag["gap"]))
        self.assertTrue(self.step(report, "wait")["unlocked"], report)
        judged = sum(line.count(MODULE_WRONG + self.USER) for line in report["log"])
        self.assertEqual(judged, 4, "wrong drawings judged: %d\n%s" % (judged, "\n".join(report["log"])))
        self.assertEqual(self.sandbox.failures(self.USER), 0)  # the right one reset the count
        for index, (drag, digits) in enumerate(zip(drags, wrong + [PATTERN])):
            image = self.shot("press-%d.xwd" % index)
            where = "drawing %d (%s), %.2f s after its press" % (index, digits, drag["shot_at"])
            self.assertTrue(
                pad.dot_shows(image, int(digits[0]), screen.is_accent), "%s: its first dot is not lit" % where
            )
            self.assertEqual(image.count(screen.is_red), 0, "%s: red on screen" % where)
            self.assertNotIn("Wrong pattern", drag["shot_caption"] or "", where)
            self.assertIn(self.USER, drag["shot_caption"] or "", where)  # the caption was read

    def test_four_wrong_drawings_0_6_s_apart_are_all_counted_then_the_right_one_unlocks(self):
        self.drawings_with_gaps(0.6)

    def test_four_wrong_drawings_0_3_s_apart_are_all_counted_then_the_right_one_unlocks(self):
        self.drawings_with_gaps(0.3)


if __name__ == "__main__":
    unittest.main()
