"""The LightDM greeter speaks the machine's language (support.lightdm with zh_CN: /etc/default/locale, which the
daemon's lightdm-greeter service reads, and the built catalogue): the hint and the module's verdict on a wrong
drawing in Chinese, from the one catalogue (po/zh_CN.po). Root only; needs lightdm, Xvfb and localedef."""

import unittest

from support import lightdm, zh_cn
from support.helper import WRONG_PATTERN

setUpModule = lightdm.set_up_module


class ChineseTest(lightdm.LightDMCase):
    USER = "lightdm3"
    PASSWORD = "Lightdm-test-pw-44"
    CHINESE = True

    def setUp(self):
        zh_cn.require_source()
        super().setUp()

    def test_the_hint_and_a_wrong_drawing_are_told_in_chinese(self):
        report = self.session(
            [
                self.select_user(),
                {"op": "caption", "until": "请绘制图案"},
                {"op": "drag", "path": [int(d) for d in WRONG_PATTERN]},
                {"op": "caption", "until": "图案错误"},
            ]
        )
        self.assertIn("请绘制图案，或输入密码后按回车键。", report["steps"][1]["text"] or "", report["greeter_log"])
        self.assertIn("图案错误", report["steps"][3]["text"] or "", report["greeter_log"])
        self.assertEqual(self.sandbox.failures(self.USER), 1)


if __name__ == "__main__":
    unittest.main()
