"""i3lock, the real screen locker, run by a test user on a private Xvfb display inside a helper namespace
(support.helper.Namespace: the module, the store and the setuid helper at their real paths), each answer typed
with xdotool and followed by Return: what became of it. Needs Xvfb, i3lock and xdotool (make deps)."""

import shlex

from support import xvfb
from support.system import as_user_at_display

STEP_TIMEOUT = 15  # seconds for i3lock to unlock or report a failure (pam_faildelay in login: 3 s)

# Runs in the namespace as root: Xvfb, then i3lock as the user; types each step and reports
# "step N unlocked rc=R" (i3lock exited), "step N locked" (i3lock said "Authentication failure"),
# or "step N timeout".
SESSION = r"""
set +e
W=%(root)s
%(start_xvfb)s%(locker)s >$W/i3lock.log 2>&1 &
lpid=$!
for i in $(seq 600); do grep -q "Watching window" $W/i3lock.log && break; sleep 0.05; done
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
  # i3lock ending by itself with a failure status: its log says why, in the test's failure.
  case "$result" in "unlocked rc=0") ;; unlocked*) sed 's/^/i3lock-log: /' $W/i3lock.log | tail -20;; esac
  case "$result" in unlocked*) break;; esac
done
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null
kill $xpid; wait $xpid 2>/dev/null
"""


def session(sandbox, user, *answers):
    """One i3lock (its pam.d service "i3lock") for `user` in `sandbox`, the answers typed in turn until one
    unlocks: a line per answer typed, as SESSION reports it. A session that cannot run fails the test."""
    script = SESSION % {
        "root": shlex.quote(sandbox.root),
        "locker": as_user_at_display(user, "exec i3lock -n --debug"),
        "steps": " ".join(shlex.quote(answer) for answer in answers),
        "ticks": STEP_TIMEOUT * 20,
        "start_xvfb": xvfb.start(),
    }
    done = sandbox.run(script, timeout=60 + xvfb.START_SECONDS + STEP_TIMEOUT * len(answers))
    if done.returncode != 0:
        raise AssertionError("the i3lock session did not run: %s" % done.stderr.decode(errors="replace"))
    return done.stdout.decode().splitlines()
