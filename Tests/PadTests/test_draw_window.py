"""`patternctl set --draw`: a person sets and changes their own pattern by drawing it in pattern-draw's window,
run by a throwaway user with no privileges under Xvfb, through the setuid helper as the typed `set` is. A first
pattern comes after the account password typed in the window; a weak drawing is refused at once with the
strength rules' reason (words, the drawing red on the grid); a confirmation that differs is red and asks again;
a change starts with the current pattern drawn; Esc changes nothing. Afterwards the real module (through the
helper, as a locker calls it) accepts the drawn pattern and refuses the old one. Root only (make deps)."""

import os
import re
import unittest

from support import draw, helper, pad, screen, zh_cn
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import ROOT

# Drawn, so written as the dots a drag goes through (PATTERN, 2946138, takes 5 between 4 and 6).
SECOND = "8426519"
WEAK = "1235789"  # a Z: a common shape
MISMATCH = "2946183"
README_SHOT = os.path.join(ROOT, "docs", "set-pattern-by-drawing.png")

CJK = re.compile(r"[\u4e00-\u9fff]")


def setUpModule():
    draw.set_up_module()
    zh_cn.require_source()


def success(r, g, b):
    """The stored pattern's colour (PadRenderer.success, 0x81C995)."""
    return 100 < r < 160 and g > 180 and 120 < b < 180


def grid_box():
    (x0, y0), (x1, y1) = draw.dot_centre(1), draw.dot_centre(9)
    margin = draw.SPACING // 2
    return x0 - margin, y0 - margin, x1 + margin, y1 + margin


def drawn_in(image, dots, predicate):
    """Whether each dot is lit in the predicate's colour (read beside its centre: a lit dot is wide)."""
    return all(predicate(*image.pixel(draw.dot_centre(d)[0], draw.dot_centre(d)[1] - draw.SPACING // 10)) for d in dots)


class DrawCaseWithAsserts(draw.DrawCase):
    PASSWORD = "Draw-test-pw-42"

    def texts(self, report):
        return [s["text"] or "" for s in report["steps"] if s["op"] == "caption"]

    def assertAccepts(self, accepted, refused):
        """The real module, run by the user (so through the helper), takes `accepted` and refuses `refused`."""
        report = helper.drive_module(self.sandbox, self.user, [refused, accepted])
        self.assertEqual([r["code"] for r in report["results"]], ["PAM_AUTH_ERR", "PAM_SUCCESS"], report)


class FirstPatternTest(DrawCaseWithAsserts):
    USER = "ppdraw1"
    ENROL = False

    def test_a_first_pattern_is_drawn_twice_after_the_password_weak_and_mismatched_ones_are_red(self):
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": "Type your account password"},
                {"op": "type", "text": self.PASSWORD},
                {"op": "key", "name": "Return"},
                {"op": "caption", "until": "Draw a new pattern"},
                {"op": "drag", "path": pad.dots(WEAK)},
                {"op": "caption", "until": ["too easy to guess", "Draw a new pattern"]},
                {"op": "shot", "name": "weak.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "caption", "until": "again to confirm"},
                {"op": "drag", "path": pad.dots(MISMATCH)},
                {"op": "caption", "until": ["not the same pattern", "Draw a new pattern"]},
                {"op": "shot", "name": "mismatch.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "caption", "until": "again to confirm"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "caption", "until": "Your new pattern is set."},
                {"op": "shot", "name": "done.xwd"},
                {"op": "wait", "timeout": 30},
                {"op": "key", "name": "Return"},
                {"op": "window_gone"},
            ]
        )
        log = report["patternctl_log"]
        self.assertTrue(report["steps"][0]["ready"], report)
        password, new, weak, confirm, mismatch, confirm2, done = self.texts(report)
        self.assertIn("Setting a first unlock pattern for %s. Your account password first." % self.USER, password, log)
        # Refused at once, with the strength rules' reason (the words patternctl says on a terminal).
        self.assertIn("Refused as too easy to guess.", weak)
        self.assertIn("refused as too easy to guess.", log)
        reason = log.split("refused as too easy to guess.", 1)[1].split("Try again.", 1)[0].strip()
        self.assertTrue(reason, log)
        self.assertIn(reason, weak)
        self.assertIn("Draw a new pattern", weak)
        self.assertIn("The two entries are not the same pattern; try again", mismatch)
        self.assertIn("Draw a new pattern", mismatch)
        self.assertEqual(self.step(report, "wait")["status"], 0, log)
        self.assertIn("Your new pattern is set.", done)
        self.assertTrue(self.step(report, "wait")["window_open"], "the window went before it was closed")
        self.assertTrue(self.step(report, "window_gone")["gone"])
        # On the grid: the refused drawing red, the mismatch red, the stored pattern green.
        weak_shot, mismatch_shot, done_shot = (self.window_shot(n) for n in ("weak.xwd", "mismatch.xwd", "done.xwd"))
        self.assertTrue(drawn_in(weak_shot, pad.dots(WEAK), screen.is_red), "the weak drawing is not red")
        self.assertTrue(drawn_in(mismatch_shot, (2, 9, 4, 6, 1, 8, 3), screen.is_red), "the mismatch is not red")
        self.assertTrue(drawn_in(done_shot, pad.dots(PATTERN), success), "the stored pattern is not green")
        self.assertEqual(done_shot.count(screen.is_red, grid_box()), 0)
        self.assertIsNone(pad.committed_shot_differs(README_SHOT, weak_shot))
        self.assertAccepts(PATTERN, SECOND)


class ChangeTest(DrawCaseWithAsserts):
    USER = "ppdraw2"

    def test_a_change_starts_with_the_current_pattern_drawn(self):
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": "Draw your current pattern"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "caption", "until": "Draw a new pattern"},
                {"op": "drag", "path": pad.dots(SECOND)},
                {"op": "caption", "until": "again to confirm"},
                {"op": "drag", "path": pad.dots(SECOND)},
                {"op": "caption", "until": "Your new pattern is set."},
                {"op": "wait", "timeout": 30},
            ]
        )
        log = report["patternctl_log"]
        self.assertIn("Your new pattern is set.", self.texts(report)[-1], log)
        self.assertEqual(self.step(report, "wait")["status"], 0, log)
        self.assertIn("Pattern changed (7 dots):", log)
        self.assertAccepts(SECOND, PATTERN)

    def test_escape_changes_nothing(self):
        with open(self.sandbox.store, "rb") as f:
            before = f.read()
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": "Draw your current pattern"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "caption", "until": "Draw a new pattern"},
                {"op": "drag", "path": pad.dots(SECOND)},
                {"op": "caption", "until": "again to confirm"},
                {"op": "key", "name": "Escape"},
                {"op": "window_gone"},
                {"op": "wait", "timeout": 30},
            ]
        )
        log = report["patternctl_log"]
        self.assertTrue(self.step(report, "window_gone")["gone"], log)
        self.assertEqual(self.step(report, "wait")["status"], 1, log)
        self.assertIn("nothing was changed", log)
        with open(self.sandbox.store, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertAccepts(PATTERN, SECOND)


class ChineseTest(DrawCaseWithAsserts):
    USER = "ppdraw3"
    CHINESE = True

    def test_the_window_and_patternctl_speak_chinese(self):
        locales = os.path.join(self.sandbox.root, "locales")
        os.mkdir(locales, 0o755)
        zh_cn.compile_into(locales)
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": "请画出当前图案"},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "caption", "until": "图案错误；未做任何更改"},
                {"op": "wait", "timeout": 30},
            ],
            env={"LANG": "zh_CN.UTF-8", "LOCPATH": locales},
        )
        log = report["patternctl_log"]
        asked, refused = self.texts(report)
        self.assertEqual(
            asked.splitlines(),
            ["请画出当前图案", "正在更改 %s 的解锁图案。" % self.USER, "按 Esc 取消，不做任何更改。"],
            log,
        )
        lines = refused.splitlines()
        self.assertEqual(lines[0], "未做任何更改。", log)
        self.assertTrue(lines[1].startswith("图案错误；未做任何更改（"), lines)
        for line in lines:
            if line:
                self.assertRegex(line, CJK, "a line left in English under zh_CN")
        self.assertEqual(self.step(report, "wait")["status"], 1, log)


if __name__ == "__main__":
    unittest.main()
