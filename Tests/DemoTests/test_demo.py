"""`make demo` driven like a person would: expect types at the real prompt.
It must show the prompt, refuse a wrong pattern, accept the demo pattern, and
leave /etc exactly as it was."""
import hashlib
import os
import subprocess
import unittest

ROOT = os.environ.get("PAM_PATTERN_ROOT", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

EXPECT_SCRIPT = r"""
set timeout 300
log_user 1
spawn make -s -C $env(PAM_PATTERN_ROOT) demo
expect {
  "Pattern: " {}
  timeout { exit 10 }
}
send "2759184\r"
expect {
  "REFUSED" {}
  timeout { exit 11 }
}
expect {
  "Pattern: " {}
  timeout { exit 12 }
}
send "2759148\r"
expect {
  "ACCEPTED" {}
  timeout { exit 13 }
}
expect eof
catch wait result
exit [lindex $result 3]
"""


def etc_digest():
    out = subprocess.run(["find", "/etc", "-xdev", "-type", "f", "-readable"], capture_output=True, text=True).stdout
    h = hashlib.sha256()
    for path in sorted(out.split()):
        try:
            with open(path, "rb") as f:
                h.update(path.encode() + b"\0" + f.read())
        except OSError:
            pass
    return h.hexdigest()


@unittest.skipUnless(os.geteuid() == 0, "make demo needs root (the store is root-owned)")
class DemoTests(unittest.TestCase):
    def test_demo_prompts_refuses_wrong_accepts_right_and_leaves_etc_alone(self):
        before = etc_digest()
        tmp_before = set(os.listdir("/tmp"))
        r = subprocess.run(["expect", "-c", EXPECT_SCRIPT], capture_output=True, text=True, timeout=400,
                           env=dict(os.environ, PAM_PATTERN_ROOT=ROOT))
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-2000:])
        self.assertIn("attempt 1: REFUSED", r.stdout)
        self.assertIn("attempt 2: ACCEPTED", r.stdout)
        self.assertEqual(etc_digest(), before, "make demo changed /etc")
        leftovers = [n for n in set(os.listdir("/tmp")) - tmp_before if n.startswith("pam_pattern-demo")]
        self.assertEqual(leftovers, [], "the demo's private store was not removed")


if __name__ == "__main__":
    unittest.main()
