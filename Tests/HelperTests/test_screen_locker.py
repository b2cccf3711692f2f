"""A real screen locker: i3lock under Xvfb, run by an unprivileged user, with the shipped pam.d/i3lock
(the pattern, then Debian's "auth include login"), unlocked by typing with xdotool. The module runs as the
user, so every check goes through pam_pattern_helper (setuid root at its real path, support.helper's namespace).
Also pamtester run by the user against the same service.

Root only; needs xvfb, i3lock, xdotool, pamtester (make deps).
"""

import os
import shlex
import shutil
import unittest

from support import helper
from support.paths import MODULE, ROOT
from support.system import as_user
from support.helper import PATTERN, WRONG_PATTERN

PASSWORD = "Lock-test-pw-42"
STEP_TIMEOUT = 15  # seconds for i3lock to unlock or report a failure (pam_faildelay in login: 3 s)

# Runs in the namespace as root: Xvfb, then i3lock as the user; types each step and reports
# "step N unlocked" (i3lock exited 0), "step N locked" (i3lock said "Authentication failure"),
# or "step N timeout".
SESSION = r"""
set +e
W=%(root)s
Xvfb -displayfd 3 -nolisten tcp -ac 3>$W/display >/dev/null 2>&1 &
xpid=$!
for i in $(seq 200); do [ -s $W/display ] && break; sleep 0.05; done
export DISPLAY=:$(cat $W/display)
%(locker)s >$W/i3lock.log 2>&1 &
lpid=$!
for i in $(seq 200); do grep -q "Watching window" $W/i3lock.log && break; sleep 0.05; done
sleep 0.2
n=0
for typed in %(steps)s; do
  n=$((n+1))
  failures=$(grep -c "Authentication failure" $W/i3lock.log)
  xdotool type --delay 5 "$typed"; xdotool key Return
  result=timeout
  for i in $(seq %(ticks)d); do
    if ! kill -0 $lpid 2>/dev/null; then wait $lpid; result="unlocked rc=$?"; break; fi
    if [ "$(grep -c 'Authentication failure' $W/i3lock.log)" -gt "$failures" ]; then result=locked; break; fi
    sleep 0.05
  done
  echo "step $n $result"
  case "$result" in unlocked*) break;; esac
done
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null
kill $xpid; wait $xpid 2>/dev/null
"""


def setUpModule():
    for tool in ("Xvfb", "i3lock", "xdotool", "pamtester"):
        if not shutil.which(tool):
            raise unittest.SkipTest("%s is not installed (make deps)" % tool)
    helper.take_run_lock()


def tearDownModule():
    helper.release_run_lock()


class ScreenLockerTest(helper.HelperCase):
    USER = "pphlock1"
    PASSWORD = PASSWORD

    def namespace(self):
        with open(os.path.join(ROOT, "pam.d", "i3lock")) as f:
            # The shipped file, with the module named by the built path.
            lines = f.read().replace("pam_pattern.so", MODULE).splitlines()
        return helper.Namespace(self, service="i3lock", pam_lines=lines)

    def session(self, *steps):
        locker = as_user(self.user, "exec i3lock -n --debug", env={"DISPLAY": "DISPLAY_VALUE"})
        locker = locker.replace("DISPLAY=DISPLAY_VALUE", 'DISPLAY="$DISPLAY"')
        script = SESSION % {
            "root": shlex.quote(self.sandbox.root),
            "locker": locker,
            "steps": " ".join(shlex.quote(s) for s in steps),
            "ticks": STEP_TIMEOUT * 20,
        }
        done = self.sandbox.run(script, timeout=60 + STEP_TIMEOUT * len(steps))
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.decode().splitlines()

    def test_the_pattern_unlocks(self):
        self.assertEqual(self.session(PATTERN), ["step 1 unlocked rc=0"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_wrong_pattern_keeps_it_locked_and_counts(self):
        self.assertEqual(self.session(WRONG_PATTERN, PATTERN), ["step 1 locked", "step 2 unlocked rc=0"])
        # Counted by the wrong try, reset by the right one: check the count in between with a second session.
        # Two different wrong patterns: the same one again would be answered "wrong" without a count.
        self.assertEqual(self.session(WRONG_PATTERN, "147896"), ["step 1 locked", "step 2 locked"])
        self.assertEqual(self.sandbox.failures(self.USER), 2)

    def test_a_locked_pattern_falls_through_to_the_password(self):
        # Five wrong guesses through the helper lock the pattern (deny=5).
        self.assertEqual(sorted(r[0] for r in self.drive("parallel", count=5)), [helper.WRONG] * 5)
        status = self.sandbox.status(self.USER)
        self.assertTrue(status["locked"].startswith("until "), status)
        # The right pattern no longer unlocks (and is not counted); the password does.
        self.assertEqual(self.session(PATTERN, PASSWORD), ["step 1 locked", "step 2 unlocked rc=0"])
        self.assertEqual(self.sandbox.failures(self.USER), 5)

    def test_pamtester_run_by_the_user(self):
        command = "printf '%%s\\n' %s | pamtester i3lock %s authenticate; echo rc=$?"
        done = self.sandbox.run(as_user(self.user, command % (PATTERN, self.USER)))
        self.assertIn(b"successfully authenticated", done.stdout + done.stderr, done)
        self.assertIn(b"rc=0", done.stdout)
        self.assertEqual(self.sandbox.failures(self.USER), 0)
        done = self.sandbox.run(as_user(self.user, command % (WRONG_PATTERN, self.USER)))
        self.assertIn(b"Wrong pattern. 4 tries left", done.stdout + done.stderr, done)
        self.assertNotIn(b"rc=0", done.stdout)
        self.assertEqual(self.sandbox.failures(self.USER), 1)


if __name__ == "__main__":
    unittest.main()
