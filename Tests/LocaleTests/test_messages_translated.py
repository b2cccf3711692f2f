"""patternctl's messages other than help are translated too: a usage error, a self-service refusal, a TPM
refusal and prune's result line come out in Chinese under LANG=zh_CN.UTF-8 (no line left as in English,
option names, paths and user names kept), so such a sentence written without localized() fails here.
English stays byte-identical: the golden files of patternctlTests check that."""

import os
import re
import tempfile
import unittest

from chinese import ChineseLocaleCase
from support.formats import store_line, yescrypt_hash

CJK = re.compile("[\u4e00-\u9fff]")
# A name no account on a test machine has: prune removes its pattern.
GONE_USER = "patternctl-l10n-gone"


class MessageTranslationTest(ChineseLocaleCase):
    def both(self, *arguments, **options):
        """The English and the Chinese run, which end with the same exit status."""
        english = self.patternctl(*arguments, chinese=False, **options)
        chinese = self.patternctl(*arguments, chinese=True, **options)
        self.assertEqual(english.returncode, chinese.returncode, (english, chinese))
        return english, chinese

    def assert_translated(self, english, chinese, kept):
        """Every line of `chinese` is Chinese and differs from every English line; `kept` words stay."""
        english_lines = english.splitlines()
        chinese_lines = chinese.splitlines()
        self.assertEqual(len(chinese_lines), len(english_lines), (english, chinese))
        for line in chinese_lines:
            self.assertNotIn(line, english_lines, "an English line under zh_CN")
            self.assertRegex(line, CJK, "a line without Chinese under zh_CN")
        for word in kept:
            self.assertIn(word, english)
            self.assertIn(word, chinese)

    def test_usage_errors_are_translated(self):
        english, chinese = self.both("--bogus")
        self.assertEqual(english.returncode, 2)
        self.assertEqual(
            english.stderr, "patternctl: unknown option '--bogus'\nTry 'patternctl --help' for more information.\n"
        )
        self.assertEqual(chinese.stderr.splitlines()[0], "patternctl: 未知选项 '--bogus'")
        self.assert_translated(english.stderr, chinese.stderr, ["--bogus", "patternctl --help"])
        english, chinese = self.both("set", "--cost", "99")
        self.assertEqual(english.returncode, 2)
        self.assert_translated(english.stderr, chinese.stderr, ["--cost", "'99'", "patternctl set --help"])

    def test_self_service_refusal_is_translated(self):
        english, chinese = self.both("set", "root", as_nobody=True)
        self.assertEqual(english.returncode, 1)
        self.assertIn("only root can set the pattern of another user; yours is 'nobody'", english.stderr)
        self.assert_translated(english.stderr, chinese.stderr, ["patternctl: ", "'nobody'"])

    def test_weak_pattern_reason_is_translated(self):
        # The reason a pattern is refused (the core's words) is said in Chinese too, golden.
        english, chinese = self.both("show", "1235478")
        self.assertIn("strength: weak (It starts, turns and ends the way most people's patterns do", english.stdout)
        self.assertIn(
            "它的起点、转折和结尾都和大多数人的图案一样，按可能性先后猜测的攻击者很早就会试到它。", chinese.stdout
        )

    def test_tpm_refusal_is_translated(self):
        with tempfile.TemporaryDirectory(prefix="patternctl-l10n-") as work:
            conf = os.path.join(work, "pam_pattern.conf")
            missing = "device:" + os.path.join(work, "no-tpm")
            with open(conf, "w") as f:
                f.write("tpm = yes\ntpm_tcti = %s\n" % missing)
            # A store and state of its own, in case the refusal ever came too late.
            where = ["--conf", conf, "--store", os.path.join(work, "store"), "--state", os.path.join(work, "state")]
            english, chinese = self.both(*where, "set", "root")
        self.assertEqual(english.returncode, 1)
        self.assertIn("but no TPM is present (%s does not exist); nothing was changed" % missing, english.stderr)
        self.assert_translated(english.stderr, chinese.stderr, [conf, missing, "tpm = yes"])

    def test_prune_result_is_translated(self):
        line = store_line(GONE_USER.encode(), yescrypt_hash(b"1235789"), 1700000000)
        outputs = []
        for chinese in (False, True):
            with tempfile.TemporaryDirectory(prefix="patternctl-l10n-") as work:
                store = os.path.join(work, "store")
                with open(os.open(store, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as f:
                    f.write(line)
                state = os.path.join(work, "state")
                os.mkdir(state, 0o700)
                done = self.patternctl("--store", store, "--state", state, "prune", chinese=chinese)
                self.assertEqual((done.returncode, done.stderr), (0, ""), done)
                with open(store, "rb") as f:
                    self.assertEqual(f.read(), b"", "prune left the pattern of an account that does not exist")
                outputs.append(done.stdout)
        english, chinese = outputs
        self.assertEqual(english, "Removed the pattern of %s (no such account).\n" % GONE_USER)
        self.assert_translated(english, chinese, [GONE_USER])


if __name__ == "__main__":
    unittest.main()
