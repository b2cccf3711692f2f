"""`make demo` driven like a person would: expect types at the real prompt.
It must show the prompt, refuse a wrong pattern, accept the demo pattern, and
leave /etc exactly as it was."""

import hashlib
import os
import subprocess
import unittest

from support import system
from support.paths import ROOT


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

# Enter at each of the three prompts: the demo runs out of tries.
EMPTY_ANSWERS_SCRIPT = r"""
set timeout 300
log_user 1
spawn make -s -C $env(PAM_PATTERN_ROOT) demo
for {set i 0} {$i < 3} {incr i} {
  expect {
    "Pattern: " {}
    timeout { exit 10 }
  }
  send "\r"
}
expect eof
catch wait result
exit [lindex $result 3]
"""


def setUpModule():
    # Suites that add users or files under /etc hold this lock; holding it too keeps their changes out of the digest.
    system.take_run_lock("make demo (the store is root-owned)")


tearDownModule = system.release_run_lock


def etc_digest():
    """path -> sha256 of every readable file under /etc."""
    out = subprocess.run(["find", "/etc", "-xdev", "-type", "f", "-readable"], capture_output=True, text=True).stdout
    digests = {}
    for path in sorted(out.split()):
        try:
            with open(path, "rb") as f:
                digests[path] = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            pass
    return digests


class DemoTests(unittest.TestCase):
    def demo(self, script):
        """`make demo` in this tree, typed at by expect running `script`; fails unless it exits 0 (the script's
        own exit codes say which prompt or verdict did not come)."""
        r = subprocess.run(
            ["expect", "-c", script],
            capture_output=True,
            text=True,
            timeout=400,
            env=dict(os.environ, PAM_PATTERN_ROOT=ROOT),
        )
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr[-2000:])
        return r

    def test_demo_prompts_refuses_wrong_accepts_right_and_leaves_etc_alone(self):
        before = etc_digest()
        tmp_before = set(os.listdir("/tmp"))
        r = self.demo(EXPECT_SCRIPT)
        self.assertIn("You have 3 tries", r.stdout)
        self.assertIn("attempt 1 of 3: REFUSED", r.stdout)
        self.assertIn("attempt 2 of 3: ACCEPTED", r.stdout)
        after = etc_digest()
        changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
        self.assertEqual(changed, [], "make demo changed these files under /etc")
        leftovers = [n for n in set(os.listdir("/tmp")) - tmp_before if n.startswith("pam_pattern-demo")]
        self.assertEqual(leftovers, [], "the demo's private store was not removed")

    def test_three_empty_answers_end_the_demo_with_a_sentence_not_a_make_error(self):
        r = self.demo(EMPTY_ANSWERS_SCRIPT)
        for attempt in (1, 2, 3):
            self.assertIn("attempt %d of 3: REFUSED" % attempt, r.stdout)
        self.assertIn("None of the 3 tries was the demo pattern 2759148", r.stdout)
        self.assertNotIn("Error", r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
