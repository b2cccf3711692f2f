"""`patternctl set --draw`: a person sets and changes their own pattern by drawing it in pattern-draw's window,
run by a throwaway user with no privileges under Xvfb, through the setuid helper as the typed `set` is. A first
pattern comes after the account password typed in the window; a weak drawing is refused at once with the
strength rules' reason (words, the drawing red on the grid); a confirmation that differs is red and asks again;
a change starts with the current pattern drawn, a wrong one asked again with the throttle's words, or the
account password taken instead in the same window; Esc says cancelled and changes nothing. While the new
pattern is drawn the window shows whether the rules would take it, and a refusal says how to make that shape
pass. Dots are taken by a finger's touch (48 px and more). Afterwards the real module (through the helper, as a
locker calls it) accepts the drawn pattern and refuses the old one. Root only (make deps)."""

import os
import re
import time
import unittest

from support import draw, formats, helper, pad, screen, zh_cn
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import ROOT

# Drawn, so written as the dots a drag goes through (PATTERN, 2946138, takes 5 between 4 and 6).
SECOND = "8426519"
WEAK = "1235789"  # a Z: a common shape
MISMATCH = "2946183"
# Two strokes (refused as too simple); the middle-left dot at its end makes it pass (StrengthHint says so).
SIMPLE, SAVED = "2589", "25894"
CONFIRM = "Pattern recorded. Draw it again to confirm"
BUTTON = "Use password instead"
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


def new_pattern_twice(dots):
    """The window's steps from "Draw a new pattern" to patternctl's exit: `dots` drawn, recorded, confirmed."""
    return [
        {"op": "drag", "path": pad.dots(dots)},
        {"op": "caption", "until": CONFIRM},
        {"op": "drag", "path": pad.dots(dots)},
        {"op": "caption", "until": "Your new pattern is set."},
        {"op": "wait", "timeout": 30},
    ]


def amber(r, g, b):
    """A drawing the rules would not take yet (DrawRenderer.notYet, 0xFDD663)."""
    return r > 220 and 190 < g < 235 and 60 < b < 130


def accent(r, g, b):
    """The button's frame and words (PadRenderer.accent, 0x8AB4F8)."""
    return 110 < r < 170 and 160 < g < 200 and b > 220


def plain_dot(r, g, b):
    """A dot not taken (PadRenderer.dot, 0x80868B)."""
    return 110 < r < 150 and 115 < g < 155 and 120 < b < 160


def drawn_in(image, dots, predicate):
    """Whether each dot is lit in the predicate's colour (read beside its centre: a lit dot is wide)."""
    return all(predicate(*image.pixel(draw.dot_centre(d)[0], draw.dot_centre(d)[1] - draw.SPACING // 10)) for d in dots)


class DrawCaseWithAsserts(draw.DrawCase):
    PASSWORD = "Draw-test-pw-42"

    def texts(self, report):
        return [s["text"] or "" for s in report["steps"] if s["op"] == "caption"]

    def password_then_new_pattern(self, dots):
        """The steps from "Type your account password" on: the password typed, then `dots` as the new pattern."""
        return [
            {"op": "type", "text": self.PASSWORD},
            {"op": "key", "name": "Return"},
            {"op": "caption", "until": "Draw a new pattern"},
        ] + new_pattern_twice(dots)

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
                {"op": "caption", "until": CONFIRM},
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
        # With one concrete way to make this shape pass, the same words in the window and on the terminal.
        self.assertIn(
            "To make it pass, draw it up to the bottom-middle dot, then go on to the middle-right dot instead.", reason
        )
        self.assertIn(CONFIRM, confirm)
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
            ]
            + new_pattern_twice(SECOND)
        )
        log = report["patternctl_log"]
        self.assertIn("Your new pattern is set.", self.texts(report)[-1], log)
        self.assertEqual(self.step(report, "wait")["status"], 0, log)
        self.assertIn("Pattern changed (7 dots):", log)
        self.assertAccepts(SECOND, PATTERN)

    def test_a_wrong_current_pattern_is_asked_again_then_the_right_one_changes_it(self):
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": ["Draw your current pattern", BUTTON]},
                {"op": "drag", "path": pad.dots(WRONG_PATTERN)},
                {"op": "caption", "until": ["Wrong pattern. 4 tries left before a wait.", "Draw your current pattern"]},
                {"op": "failures"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "caption", "until": "Draw a new pattern"},
                {"op": "failures"},
            ]
            + new_pattern_twice(SECOND)
        )
        log = report["patternctl_log"]
        asked, wrong, new, confirm, done = self.texts(report)
        self.assertIn(BUTTON, asked, log)
        self.assertIn("Wrong pattern. 4 tries left before a wait.", wrong, log)
        self.assertIn("Draw your current pattern", wrong, log)
        self.assertIn("Draw a new pattern", new, log)
        self.assertIn(CONFIRM, confirm, log)
        self.assertIn("Your new pattern is set.", done, log)
        # The throttle counted the wrong drawing, and the right one cleared it.
        self.assertEqual([self.step(report, "failures", i)["count"] for i in (0, 1)], [1, 0], log)
        self.assertEqual(self.step(report, "wait")["status"], 0, log)
        self.assertAccepts(SECOND, PATTERN)

    def test_the_account_password_instead_in_the_same_window(self):
        button = draw.password_button_centre()
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": ["Draw your current pattern", BUTTON]},
                {"op": "shot", "name": "offered.xwd"},
                {"op": "click", "at": button},
                {"op": "caption", "until": "Type your account password"},
            ]
            + self.password_then_new_pattern(SECOND)
        )
        log = report["patternctl_log"]
        password = self.texts(report)[1]
        self.assertIn("in place of the forgotten one. Your account password first.", password, log)
        self.assertNotIn(BUTTON, password)
        self.assertEqual(self.step(report, "wait")["status"], 0, log)
        # The button is on the screen where it is pressed: its frame in the accent colour around that point.
        offered = self.window_shot("offered.xwd")
        x, y = button
        self.assertGreater(offered.count(accent, (x - 160, y - 25, x + 160, y + 25)), 200)
        self.assertAccepts(SECOND, PATTERN)

    def test_while_locked_the_wait_counts_down_and_the_password_is_offered(self):
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": ["Too many wrong patterns: try again in", "Your password still works."]},
                {"op": "shot", "name": "locked.xwd"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "sleep", "seconds": 1.5},
                {"op": "caption", "until": BUTTON},
                {"op": "failures"},
                {"op": "key", "name": "Tab"},
                {"op": "caption", "until": "Type your account password"},
            ]
            + self.password_then_new_pattern(SECOND)
            + [
                {"op": "failures"},
            ]
        )
        log = report["patternctl_log"]
        locked, still = self.texts(report)[:2]
        # Counted down: a second later the wait is shorter, and no drawing was taken meanwhile.
        self.assertIn("Too many wrong patterns: try again in", still, log)
        self.assertNotEqual(locked.splitlines()[0], still.splitlines()[0], "the wait is not counted down")
        self.assertEqual(self.step(report, "failures")["count"], 5, log)
        self.assertEqual(self.step(report, "wait")["status"], 0, log)
        self.assertEqual(self.step(report, "failures", 1)["count"], 0, log)
        self.assertFalse(drawn_in(self.window_shot("locked.xwd"), [5], plain_dot), "the grid is not dimmed")
        self.assertAccepts(SECOND, PATTERN)

    def test_a_touch_24_px_from_a_dot_takes_it(self):
        # PATTERN's last move (3 to 8) passes no other dot; it stops 24.6 px short of dot 8's centre, on the way.
        x8, y8 = draw.dot_centre(8)
        path = pad.dots(PATTERN)[:-1] + [[x8 + 11, y8 - 22]]
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": "Draw your current pattern"},
                {"op": "shot", "name": "grid.xwd"},
                {"op": "drag", "path": path},
                {"op": "caption", "until": "Draw a new pattern", "timeout": 10},
                {"op": "failures"},
                {"op": "key", "name": "Escape"},
                {"op": "wait", "timeout": 30},
            ]
        )
        log = report["patternctl_log"]
        self.assertIn("Draw a new pattern", self.texts(report)[1], log)
        self.assertEqual(self.step(report, "failures")["count"], 0, log)
        # The dots themselves are seen: each at least 16 px across (a row through dot 5's centre).
        grid = self.window_shot("grid.xwd")
        x5, y5 = draw.dot_centre(5)
        across = sum(1 for x in range(x5 - 30, x5 + 31) if plain_dot(*grid.pixel(x, y5)))
        self.assertGreaterEqual(across, 16)

    def test_the_new_pattern_shows_live_whether_it_would_pass(self):
        report = self.session(
            [
                {"op": "start"},
                {"op": "caption", "until": "Draw your current pattern"},
                {"op": "drag", "path": pad.dots(PATTERN)},
                {"op": "caption", "until": "Draw a new pattern"},
                {"op": "down", "path": pad.dots(SIMPLE)},
                {"op": "caption", "until": "Too simple a shape"},
                {"op": "shot", "name": "simple.xwd"},
                {"op": "glide", "path": [int(SIMPLE[-1]), int(SAVED[-1])]},
                {"op": "caption", "until": "Strong enough"},
                {"op": "shot", "name": "saved.xwd"},
                {"op": "up"},
                {"op": "caption", "until": CONFIRM},
                {"op": "key", "name": "Escape"},
                {"op": "wait", "timeout": 30},
            ]
        )
        log = report["patternctl_log"]
        simple, saved, confirm = self.texts(report)[2:5]
        self.assertIn("Too simple a shape", simple, log)
        self.assertIn("Strong enough", saved, log)
        self.assertIn(CONFIRM, confirm, log)
        # The trail amber while the rules would refuse it, green once they would take it.
        self.assertTrue(drawn_in(self.window_shot("simple.xwd"), pad.dots(SIMPLE), amber), "not amber")
        self.assertTrue(drawn_in(self.window_shot("saved.xwd"), pad.dots(SAVED), success), "not green")

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
        self.assertIn("cancelled; nothing was changed", log)
        with open(self.sandbox.store, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertAccepts(PATTERN, SECOND)

    def test_escape_at_the_password_says_cancelled(self):
        with open(self.sandbox.store, "rb") as f:
            before = f.read()
        report = self.session(
            [
                {"op": "start", "args": ["--forgot"]},
                {"op": "caption", "until": "Type your account password"},
                {"op": "key", "name": "Escape"},
                {"op": "window_gone"},
                {"op": "wait", "timeout": 30},
            ]
        )
        log = report["patternctl_log"]
        self.assertEqual(self.step(report, "wait")["status"], 1, log)
        self.assertIn("cancelled; nothing was changed", log)
        self.assertNotIn("no password given", log)
        with open(self.sandbox.store, "rb") as f:
            self.assertEqual(f.read(), before)


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
                {"op": "caption", "until": "图案错误。"},
                {"op": "key", "name": "Escape"},
                {"op": "wait", "timeout": 30},
            ],
            env={"LANG": "zh_CN.UTF-8", "LOCPATH": locales},
        )
        log = report["patternctl_log"]
        asked, refused = self.texts(report)
        lines = asked.splitlines()
        self.assertEqual(
            lines[:3], ["请画出当前图案", "正在更改 %s 的解锁图案。" % self.USER, "按 Esc 取消，不做任何更改。"], log
        )
        lines = refused.splitlines()
        self.assertEqual(lines[0], "请画出当前图案", log)
        self.assertTrue(lines[1].startswith("图案错误。"), lines)
        for line in asked.splitlines() + lines:
            if line:
                self.assertRegex(line, CJK, "a line left in English under zh_CN")
        self.assertEqual(self.step(report, "wait")["status"], 1, log)


if __name__ == "__main__":
    unittest.main()
