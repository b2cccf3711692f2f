"""The pad speaks the person's language: under LANG=zh_CN.UTF-8 (compiled with localedef into the sandbox,
LOCPATH) and the built catalogue mounted over /usr/share/locale/zh_CN, the hint, the module's "wrong pattern,
N tries left" (which authproto_pam delivers in English: it sets only LC_CTYPE), the countdown and the hint while
the pattern is held back are Chinese under the grid. Root only (make deps; the locales package)."""

import os
import re
import time
import unittest

from support import formats, helper, pad, zh_cn

CJK = re.compile(r"[\u4e00-\u9fff]")


def setUpModule():
    pad.set_up_module()
    zh_cn.require_source()


class ChineseTest(pad.PadCase):
    USER = "pphpad6"
    CHINESE = True

    def setUp(self):
        super().setUp()
        self.locales = os.path.join(self.sandbox.root, "locales")
        os.mkdir(self.locales, 0o755)
        zh_cn.compile_into(self.locales)
        self.env = {"LANG": "zh_CN.UTF-8", "LOCPATH": self.locales}

    def test_a_wrong_drawing_is_told_in_chinese(self):
        report = self.session(
            [
                {"op": "wake"},
                {"op": "drag", "path": pad.dots(helper.WRONG_PATTERN)},
                {"op": "caption", "until": ["图案错误", "密码："], "timeout": 10},
            ],
            env=self.env,
        )
        self.assertWoke(report)
        lines = self.step(report, "caption")["text"].splitlines()
        self.assertEqual(lines[0], self.USER)
        # The verdict, then the screen's way out for a forgotten pattern (no command at a locked screen).
        self.assertIn("图案错误。还可再试 4 次，之后需要等待。 忘记图案了？请使用密码。", lines)
        self.assertIn("请绘制图案，或输入密码后按回车键。", lines)
        self.assertIn("密码：", lines)
        for line in lines[1:]:
            self.assertRegex(line, CJK, "a line left in English under zh_CN")

    def test_the_countdown_is_in_chinese(self):
        # The failures 3 s ago: a wait of exactly 60 s left (a caption read within the second) is "1 分钟", no seconds.
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()) - 3)
        report = self.session([{"op": "wake"}, {"op": "caption"}], env=self.env)
        self.assertWoke(report)
        text = self.step(report, "caption")["text"]
        self.assertRegex(text, r"\d+ 秒", text)
        self.assertNotIn("Too many", text)
        # While held back the grid takes no drawing: the hint says to type the password.
        self.assertIn("请输入密码后按回车键。", text.splitlines())


if __name__ == "__main__":
    unittest.main()
