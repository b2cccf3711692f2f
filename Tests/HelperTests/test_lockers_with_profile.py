"""Real screen lockers with the pam-auth-update profile enabled (pam-auth-update run in a private namespace over
overlays of /etc/pam.d, /usr/share/pam-configs, /var/lib and debconf's cache): one answer is judged once even
where the locker's file holds a pattern line too, and xsecurelock, whose authproto_pam sets PAM_RHOST=localhost,
gets the pattern prompt. Everything runs as an unprivileged user, through pam_pattern_helper.

- i3lock under Xvfb with the shipped pam.d/i3lock (the pattern, then "auth include login", which includes
  common-auth, where the profile's line is): one wrong pattern costs exactly one try;
- xscreensaver's shipped file (pattern line, then @include common-auth) through pamtester run by the user
  (xscreensaver cannot run headless here): the same;
- xsecurelock (Debian's, stock auth_x11 and authproto_pam, service common-auth) under Xvfb: the typed pattern
  unlocks, a wrong one does not and costs one try, and the password typed once at the pattern's prompt unlocks
  (the profile's forward_non_pattern hands it to pam_unix: a one-field screen needs one entry);
- a one-field client (pamtester given one answer, service common-auth as the profile writes it): the password
  or the pattern, typed once at the one prompt, authenticates; a wrong pattern is told with its tries left,
  counted once, and pam_unix then asks for the password itself.

Root only; needs xvfb, i3lock, xsecurelock, xdotool, pamtester (make deps).
"""

import os
import shlex
import shutil
import unittest

from support import helper, i3lock, xvfb
from support.formats import attempt_record_file
from support.helper import PATTERN, WRONG_PATTERN
from support.i3lock import STEP_TIMEOUT
from support.paths import MODULE, ROOT
from support.system import as_user, as_user_at_display

# xsecurelock as the user under Xvfb: wake it (pointer motion starts auth_x11), type one answer and Return, then
# "unlocked rc=R" when it exits within the wait, else "locked" (its auth_x11 is then asking for the password).
XSECURELOCK_SESSION = r"""
set +e
W=%(root)s
%(start_xvfb)s%(locker)s >$W/xsecurelock.log 2>&1 &
lpid=$!
sleep 2
xdotool mousemove 100 100; sleep 0.3; xdotool mousemove_relative 5 5
sleep 2
xdotool type --delay 30 %(typed)s; xdotool key Return
result=locked
for i in $(seq %(ticks)d); do
  if ! kill -0 $lpid 2>/dev/null; then wait $lpid; result="unlocked rc=$?"; break; fi
  sleep 0.05
done
echo "$result"
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null
kill $xpid; wait $xpid 2>/dev/null
"""


def setUpModule():
    for tool in ("Xvfb", "i3lock", "xsecurelock", "xdotool", "pamtester", "pam-auth-update"):
        if not shutil.which(tool):
            raise unittest.SkipTest("%s is not installed (make deps)" % tool)
    helper.take_run_lock()


def tearDownModule():
    helper.release_run_lock()


def shipped(name):
    """A shipped pam.d example with the module named by the built path."""
    with open(os.path.join(ROOT, "pam.d", name)) as f:
        return f.read().replace("pam_pattern.so", MODULE).splitlines()


class LockersWithProfileTest(helper.HelperCase):
    USER = "pphprof1"
    PASSWORD = "Profile-test-pw-7"

    def namespace(self):
        return helper.Namespace(
            self,
            pam_d={
                "i3lock": shipped("i3lock"),
                "xscreensaver": shipped("xscreensaver"),
                # A stock service file: nothing but the common stack the profile writes.
                "one-field": ["@include common-auth", "@include common-account"],
            },
            profile=True,
        )

    def xsecurelock(self, typed, wait=STEP_TIMEOUT):
        script = XSECURELOCK_SESSION % {
            "root": shlex.quote(self.sandbox.root),
            "locker": as_user_at_display(self.user, "exec xsecurelock"),
            "typed": shlex.quote(typed),
            "ticks": wait * 20,
            "start_xvfb": xvfb.start("-screen 0 1024x768x24"),
        }
        done = self.sandbox.run(script, timeout=60 + xvfb.START_SECONDS + wait)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.decode().splitlines()

    def test_the_profile_is_in_common_auth(self):
        done = self.sandbox.run("grep -v '^#' /etc/pam.d/common-auth")
        lines = [line for line in done.stdout.decode().splitlines() if line.strip()]
        self.assertIn(MODULE, lines[0], lines)
        self.assertIn("pam_unix.so", lines[1], lines)
        # One entry at a one-field screen: the pattern's line hands a non-pattern on, pam_unix's line takes it.
        self.assertIn("forward_non_pattern", lines[0].split(), lines)
        self.assertIn("try_first_pass", lines[1].split(), lines)

    def recorded(self):
        """(service, tty) of each entry of the user's attempt record."""
        with open(attempt_record_file(self.sandbox.state_dir, self.USER), "rb") as f:
            lines = f.read().splitlines()[1:]
        return [tuple(line.split(b" ")[1:3]) for line in lines if not line.startswith(b"repeat ")]

    def test_one_wrong_pattern_at_i3lock_counts_one(self):
        self.assertEqual(i3lock.session(self.sandbox, self.user, WRONG_PATTERN), ["step 1 locked"])
        self.assertEqual(self.sandbox.failures(self.USER), 1)
        # Named by the program the person used, through the helper: i3lock on its display.
        [(service, tty)] = self.recorded()
        self.assertEqual(service, b"i3lock")
        self.assertRegex(tty, rb"^:\d+$")
        self.assertEqual(
            i3lock.session(self.sandbox, self.user, WRONG_PATTERN + "9", PATTERN),
            ["step 1 locked", "step 2 unlocked rc=0"],
        )
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_one_wrong_pattern_through_xscreensavers_stack_counts_one(self):
        # The same answer for every prompt, as a locker gives: a second pattern prompt would count it twice.
        command = "printf '%%s\\n' %s %s %s | pamtester xscreensaver %s authenticate; echo rc=$?"
        done = self.sandbox.run(as_user(self.user, command % ((WRONG_PATTERN,) * 3 + (self.USER,))))
        output = done.stdout + done.stderr
        self.assertEqual(output.count(b"Pattern: "), 1, output)
        self.assertNotIn(b"rc=0", done.stdout)
        self.assertEqual(self.sandbox.failures(self.USER), 1)
        done = self.sandbox.run(as_user(self.user, command % ((PATTERN,) * 3 + (self.USER,))))
        self.assertIn(b"rc=0", done.stdout, done.stdout + done.stderr)
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_xsecurelock_unlocks_with_the_pattern(self):
        self.assertEqual(self.xsecurelock(PATTERN), ["unlocked rc=0"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_xsecurelock_unlocks_with_the_password_typed_once(self):
        # Typed at the pattern's prompt (auth_x11 has one field): handed on to pam_unix, not "Not a pattern".
        self.assertEqual(self.xsecurelock(self.PASSWORD), ["unlocked rc=0"])
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def one_answer(self, answer):
        """pamtester at the one-field service given exactly one answer (a second prompt would read end of file):
        its output (prompts and messages) and whether it authenticated."""
        command = "printf '%%s\n' %s | pamtester one-field %s authenticate; echo rc=$?"
        done = self.sandbox.run(as_user(self.user, command % (shlex.quote(answer), self.USER)))
        output = (done.stdout + done.stderr).decode(errors="replace")
        return output, "rc=0" in output

    def test_a_one_field_client_unlocks_with_the_password_at_the_patterns_prompt(self):
        output, authenticated = self.one_answer(self.PASSWORD)
        self.assertTrue(authenticated, output)
        self.assertEqual(output.count("Pattern or password: "), 1, output)
        self.assertNotIn("Password: ", output)
        self.assertNotIn("Not a pattern", output)
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_a_one_field_client_unlocks_with_the_pattern_and_a_wrong_one_counts_once(self):
        output, authenticated = self.one_answer(WRONG_PATTERN)
        self.assertFalse(authenticated, output)
        self.assertEqual(output.count("Pattern or password: "), 1, output)
        # Told as a wrong pattern, not tried as the password: pam_unix asks for that itself.
        self.assertIn("Wrong pattern. 4 tries left before a wait.", output)
        self.assertIn("Password: ", output)
        self.assertEqual(self.sandbox.failures(self.USER), 1)
        output, authenticated = self.one_answer(PATTERN)
        self.assertTrue(authenticated, output)
        self.assertEqual(self.sandbox.failures(self.USER), 0)

    def test_xsecurelock_stays_locked_on_a_wrong_pattern(self):
        # The wrong pattern fails; pam_unix then asks for the password, which nobody types.
        self.assertEqual(self.xsecurelock(WRONG_PATTERN, wait=6), ["locked"])
        self.assertEqual(self.sandbox.failures(self.USER), 1)


if __name__ == "__main__":
    unittest.main()
