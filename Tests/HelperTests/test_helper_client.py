"""Nothing waits for pam_pattern_helper for ever (PatternCore/HelperProtocol/HelperClient.swift, CPatternSystem/helper_spawn.c):
the module kills a helper that has not answered after 5 s and returns PAM_AUTHINFO_UNAVAIL, so real su goes on
to the password; patternctl kills it after 60 s and says so. An honest slow check (cost 9) still fits. A helper
that answers but never exits is killed at the same bound; without a pidfd to wait on, the wait still works.

The stuck helper is a stand-in at /usr/sbin/pam_pattern_helper in the test's namespace that stops itself:
what the caller sees of a helper waiting for something it will not get (a TPM that another user's stopped
helper holds, say). Root only (setuid, users, namespaces); see Tests/support/helper.py.
"""

import glob
import os
import re
import shlex
import signal
import time
import unittest

from support import helper
from support.paths import MODULE, PATTERNCTL, ROOT
from support.system import TestUser, Terminal, as_user
from support.helper import PATTERN

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401

MODULE_DEADLINE = 5.0
COMMAND_DEADLINE = 60.0
# Room for su, python and the machine's load around a deadline.
SLACK = 5.0

# Stops itself once started: SIGSTOP cannot be ignored, so only its caller's deadline can end the wait.
STUCK_HELPER = "#!/bin/sh\nkill -STOP $$\necho accepted\n"

# Answers, closes its stdout, then stops: the caller has its line but no exit, and waits for the exit (a pidfd,
# or waitpid polling without one) only until the same deadline.
ANSWER_THEN_STOP_HELPER = "#!/bin/sh\necho 'allowed 5'\nexec 1>&-\nkill -STOP $$\n"

PASSWORD = "pp-deadline-Secret-1"


def deadline_constant(name):
    """A deadline of HelperClient.swift, in seconds."""
    (path,) = glob.glob(os.path.join(ROOT, "Sources", "PatternCore", "**", "HelperClient.swift"), recursive=True)
    with open(path) as f:
        found = re.search(r"static let %s: Int32 = (\d+)" % name, f.read())
    return int(found.group(1).replace("_", "")) / 1000


class DeadlinesAreDocumented(unittest.TestCase):
    def test_the_man_pages_state_the_deadlines_the_code_keeps(self):
        module, command = (
            deadline_constant("moduleDeadlineMilliseconds"),
            deadline_constant("commandDeadlineMilliseconds"),
        )
        self.assertEqual((module, command), (MODULE_DEADLINE, COMMAND_DEADLINE))
        pages = {}
        for page in ("pam_pattern.8", "pam_pattern_helper.8", "patternctl.8"):
            with open(os.path.join(ROOT, "man", page)) as f:
                pages[page] = re.sub(r"\s+", " ", f.read())
        self.assertIn("waits at most %d seconds for .BR pam_pattern_helper" % module, pages["pam_pattern.8"])
        self.assertIn("after %d seconds without an answer" % module, pages["pam_pattern_helper.8"])
        self.assertIn("does the same after %d seconds" % command, pages["pam_pattern_helper.8"])
        self.assertIn("patternctl waits at most %d seconds for the helper" % command, pages["patternctl.8"])


class HelperDeadlineTest(unittest.TestCase):
    VICTIM = "pphdl1"
    CALLER = "pphdl2"

    def setUp(self):
        self.victim = TestUser(self.VICTIM, password=PASSWORD)
        self.addCleanup(self.victim.remove)
        self.caller = TestUser(self.CALLER)
        self.addCleanup(self.caller.remove)

    def stuck_namespace(self, stand_in=STUCK_HELPER, **kwargs):
        """A namespace whose helper stops itself; any stand-in left (stopped) by a failing run is killed after."""
        sandbox = helper.Namespace(self, helper_mode=0o755, **kwargs)
        with open(sandbox.helper, "w") as f:
            f.write(stand_in)
        self.addCleanup(self.kill_stand_ins)
        return sandbox

    def stand_ins(self):
        """PIDs of stand-in helpers started for this test's users (argv: sh HELPER OPERATION USER)."""
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if (
                len(argv) >= 4
                and argv[1] == helper.HELPER_PATH.encode()
                and argv[3].decode()
                in (
                    self.VICTIM,
                    self.CALLER,
                )
            ):
                found.append(int(entry))
        return found

    def kill_stand_ins(self):
        for pid in self.stand_ins():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def write_tpm_record(self, sandbox):
        # A pattern the TPM holds: root's in-process check hands it to the helper (sudo and su never map libtss2).
        line = "%s:%d:$tpm2$01a50000$000b%s$%s:1764462400\n" % (self.VICTIM, self.victim.uid, "5a" * 32, "0f" * 16)
        with open(sandbox.store, "w") as f:
            f.write(line)
        os.chmod(sandbox.store, 0o600)

    def test_a_stuck_helper_sends_su_on_to_the_password_within_the_bound(self):
        pam_lines = [
            "auth [success=done authinfo_unavail=ignore default=die] %s" % MODULE,
            "auth required pam_unix.so",
            "account required pam_permit.so",
            "session required pam_permit.so",
        ]
        sandbox = self.stuck_namespace(service="su", pam_lines=pam_lines)
        self.write_tpm_record(sandbox)
        # Started by an unprivileged user, as an attacker's victim would start it (su is setuid root).
        command = as_user(self.caller, "exec su %s -c 'echo SWITCHED-$(id -un)'" % self.VICTIM)
        # A $tpm2$ record's check goes to the helper before the prompt (one decision point): the stuck helper
        # holds su there, and the deadline sends su on to the password without a pattern prompt.
        started = time.monotonic()
        terminal = Terminal(sandbox.argv(command))
        self.addCleanup(terminal.kill)
        prompted = terminal.expect(b"Password: ", MODULE_DEADLINE + 2 * SLACK)
        waited = time.monotonic() - started
        self.assertTrue(prompted, "no password prompt %.1f s after su started: %r" % (waited, terminal.output))
        self.assertGreater(waited, MODULE_DEADLINE - 1.0, "the helper cannot have answered: %.1f s" % waited)
        self.assertNotIn(b"Pattern", terminal.output)
        terminal.send(PASSWORD.encode() + b"\n")
        self.assertTrue(terminal.expect(b"SWITCHED-" + self.VICTIM.encode(), 20), terminal.output)
        terminal.finish()
        # Killed and reaped: nothing of it is left running or stopped.
        self.assertEqual(self.stand_ins(), [])

    def assert_locker_fails_closed_at_the_bound(self, stand_in, prompted=False):
        """A screen locker's authentication (the module as the user) with `stand_in` as the helper: the call
        never completes, so PAM_AUTHINFO_UNAVAIL at the bound, with no prompt (`prompted`: the check's line came,
        the guess's never did), nothing counted, no fd left open and no stand-in left running."""
        sandbox = self.stuck_namespace(stand_in)
        sandbox.enrol(self.CALLER)
        started = time.monotonic()
        report = helper.drive_module(sandbox, self.caller, [PATTERN], timeout=MODULE_DEADLINE + 3 * SLACK)
        took = time.monotonic() - started
        result = report["results"][0]
        self.assertEqual(result["code"], "PAM_AUTHINFO_UNAVAIL", report)
        (self.assertIn if prompted else self.assertNotIn)("Pattern: ", " ".join(m for _, m in result["messages"]))
        self.assertGreater(took, MODULE_DEADLINE - 1.0, "the helper cannot have finished: %.1f s" % took)
        self.assertLess(took, MODULE_DEADLINE + SLACK, took)
        self.assertEqual(report["fds_after"], report["fds_before"])
        self.assertEqual(self.stand_ins(), [])
        self.assertEqual(sandbox.failures(self.CALLER), 0)

    def test_a_stuck_helper_under_a_screen_locker_fails_closed_within_the_bound(self):
        self.assert_locker_fails_closed_at_the_bound(STUCK_HELPER)

    def test_a_helper_that_answers_but_never_exits_is_killed_at_the_bound(self):
        # authenticate's first line is the check's answer, so the module prompts; the guess then gets no verdict
        # with an exit status, which is no answer (the pidfd wait, too, ends at the deadline).
        self.assert_locker_fails_closed_at_the_bound(ANSWER_THEN_STOP_HELPER, prompted=True)

    def test_without_a_pidfd_the_helper_is_still_waited_for(self):
        # pidfd_open refused (an old kernel, a seccomp filter, the fd limit): waitpid is polled instead, and the
        # answer is the same. strace traces patternctl alone (no -f), so the helper it runs stays setuid.
        sandbox = helper.Namespace(self)
        sandbox.enrol(self.CALLER)
        strace = "strace -qq -e trace=pidfd_open -e inject=pidfd_open:error=ENOSYS "  # its trace on stderr
        done = sandbox.run(as_user(self.caller, strace + "%s status" % shlex.quote(PATTERNCTL)), timeout=60)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn(b"enrolled: yes", done.stdout)
        refused = [line for line in done.stderr.decode().splitlines() if "pidfd_open(" in line and "INJECTED" in line]
        self.assertTrue(refused, "patternctl never asked for a pidfd: the fallback was not what ran")

    def test_patternctl_on_a_stuck_helper_exits_within_its_bound(self):
        sandbox = self.stuck_namespace()
        sandbox.enrol(self.CALLER)
        started = time.monotonic()
        done = sandbox.run(
            as_user(self.caller, "%s status" % shlex.quote(PATTERNCTL)), timeout=COMMAND_DEADLINE + 3 * SLACK
        )
        took = time.monotonic() - started
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn(
            b"pam_pattern_helper gave no answer within 60 seconds and was killed; see patternctl status for what was done",
            done.stderr,
        )
        self.assertGreater(took, COMMAND_DEADLINE - 1.0)
        self.assertLess(took, COMMAND_DEADLINE + SLACK)
        self.assertEqual(self.stand_ins(), [])

    def test_an_honest_slow_check_fits_the_bound(self):
        # Cost 9 (256 MiB, the slowest cost the bound is chosen for) through the real helper, run as the user.
        sandbox = helper.Namespace(self)
        done = sandbox.patternctl("set", "--cost", "9", self.CALLER, stdin=("%s\n%s\n" % (PATTERN, PATTERN)).encode())
        self.assertEqual(done.returncode, 0, done.stderr)
        report = helper.drive_module(sandbox, self.caller, [PATTERN])
        self.assertEqual(report["results"][0]["code"], "PAM_SUCCESS", report)
        self.assertEqual(sandbox.failures(self.CALLER), 0)


if __name__ == "__main__":
    unittest.main()
