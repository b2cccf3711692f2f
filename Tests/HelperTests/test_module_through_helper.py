"""pam_pattern.so run by an unprivileged process (as a screen locker runs it) goes through
pam_pattern_helper, and gives the same PAM codes and messages as the same module run by root
(in-process), for the same store and state. Also: the module's own throttle arguments do not reach the
helper, SIGCHLD ignored by the host does not break it, no descriptor leaks into or out of the call, a
missing or non-setuid helper fails closed (PAM_AUTHINFO_UNAVAIL), the helper runs once per authentication
(`authenticate`: the check, then the guess), and a guess its run stopped waiting for goes as a `verify`,
counted once.

Root only: the real libpam through support.pam, inside support.helper's namespace.
"""

import os
import re
import shlex
import unittest

from support.formats import attempt_record_file
from support.guesses import wrong_patterns
from support import helper
from support.system import TestUser
from support.helper import PATTERN, WRONG_PATTERN
from support.paths import INSTALLED_HELPER as HELPER_PATH

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401


def normalised(report):
    """(code, messages) per call, with durations made comparable ("1 minute" vs "59 seconds")."""
    out = []
    for result in report["results"]:
        messages = [
            (style, re.sub(r"\d+ (seconds?|minutes?|hours?)( \d+ (seconds?|minutes?))?", "<duration>", text))
            for style, text in result["messages"]
        ]
        out.append((result["code"], messages, result["unexpected_prompts"]))
    return out


class ModuleThroughHelperTest(unittest.TestCase):
    USER = "pphmod1"
    # right, not a pattern, Enter, five wrong (the fifth starts a wait), then the right one while locked.
    # Five different wrong patterns (a repeat would be answered without a count) reach deny=5.
    ANSWERS = [PATTERN, "12a4", ""] + wrong_patterns(5, avoid=(PATTERN,)) + [PATTERN]

    def setUp(self):
        self.user = TestUser(self.USER)
        self.addCleanup(self.user.remove)

    def sandbox(self, **kwargs):
        sandbox = helper.Namespace(self, **kwargs)
        sandbox.enrol(self.USER)
        return sandbox

    def test_same_codes_and_messages_as_in_process(self):
        sandbox = self.sandbox()
        as_root = helper.drive_module(sandbox, self.user, self.ANSWERS, options="show_grid", as_root=True)
        self.assertEqual(sandbox.failures(self.USER), 5)
        self.assertEqual(sandbox.patternctl("reset", self.USER).returncode, 0)
        as_user = helper.drive_module(sandbox, self.user, self.ANSWERS, options="show_grid")
        self.assertEqual(sandbox.failures(self.USER), 5)
        self.assertEqual(normalised(as_user), normalised(as_root))
        codes = [r["code"] for r in as_user["results"]]
        self.assertEqual(codes, ["PAM_SUCCESS", "PAM_AUTH_ERR", "PAM_IGNORE"] + ["PAM_AUTH_ERR"] * 6)
        texts = [" ".join(m for _, m in r["messages"]) for r in as_user["results"]]
        self.assertIn("Not a pattern", texts[1])
        self.assertIn("4 tries left", texts[3])
        self.assertIn("Too many wrong patterns", texts[8])
        # Locked: no prompt at all for the last one.
        self.assertNotIn("Pattern: ", texts[8])

    def test_a_success_through_the_helper_ends_the_run_of_failures(self):
        # A screen locker's unlock is a success like any other: the next su tells only of failures after it,
        # not of failures from before it (it told nobody, but "since your last success" must stay true).
        sandbox = self.sandbox()
        wrong = wrong_patterns(2, avoid=(PATTERN,))
        locker = helper.drive_module(sandbox, self.user, [wrong[0], PATTERN])
        self.assertEqual([r["code"] for r in locker["results"]], ["PAM_AUTH_ERR", "PAM_SUCCESS"])
        with open(attempt_record_file(sandbox.state_dir, self.USER), "rb") as f:
            record = f.read()
        self.assertTrue(record.startswith(b"unseen 0\n"), record)
        # Listed under the program the person ran: the host's name with its PAM service (python3, the driver).
        self.assertRegex(record, rb"\n\d+ python3[.\d]*\(pattern-helper-test\) ")
        later = helper.drive_module(sandbox, self.user, [wrong[1], PATTERN], as_root=True)
        notice = " ".join(m for _, m in later["results"][1]["messages"])
        self.assertIn("1 failed pattern attempt since your last success, the last from python3", notice)

    def test_not_enrolled_and_nullok_match_in_process(self):
        sandbox = helper.Namespace(self)
        for options, code in (("", "PAM_USER_UNKNOWN"), ("nullok", "PAM_IGNORE")):
            with self.subTest(options=options):
                as_root = helper.drive_module(sandbox, self.user, [PATTERN], options=options, as_root=True)
                as_user = helper.drive_module(sandbox, self.user, [PATTERN], options=options)
                self.assertEqual(normalised(as_user), normalised(as_root))
                self.assertEqual(as_user["results"][0]["code"], code)

    def test_module_throttle_arguments_do_not_reach_the_helper(self):
        sandbox = self.sandbox()
        # deny=1 and another store on the locker's pam.d line: run by root they apply, run by the user they do not.
        options = "deny=1 lock_after=1 store=/nonexistent/patterns state=/nonexistent minlen=4"
        report = helper.drive_module(sandbox, self.user, [WRONG_PATTERN, PATTERN], options=options)
        self.assertEqual([r["code"] for r in report["results"]], ["PAM_AUTH_ERR", "PAM_SUCCESS"])
        self.assertIn("4 tries left", " ".join(m for _, m in report["results"][0]["messages"]))
        self.assertEqual(sandbox.failures(self.USER), 0)

    def test_host_ignoring_sigchld_and_descriptor_hygiene(self):
        sandbox = self.sandbox()
        report = helper.drive_module(sandbox, self.user, [PATTERN, WRONG_PATTERN, PATTERN] * 3, ignore_sigchld=True)
        self.assertEqual([r["code"] for r in report["results"]], ["PAM_SUCCESS", "PAM_AUTH_ERR", "PAM_SUCCESS"] * 3)
        # Nine calls, each with two pipes and a child: the host ends with the descriptors it started with.
        self.assertEqual(report["fds_after"], report["fds_before"])

    def test_missing_helper_fails_closed(self):
        sandbox = self.sandbox(helper_mode=None)
        report = helper.drive_module(sandbox, self.user, [PATTERN])
        self.assertEqual(report["results"][0]["code"], "PAM_AUTHINFO_UNAVAIL")
        self.assertEqual(report["results"][0]["unexpected_prompts"], 0)

    def test_helper_without_setuid_fails_closed(self):
        sandbox = self.sandbox(helper_mode=0o755)
        report = helper.drive_module(sandbox, self.user, [PATTERN])
        self.assertEqual(report["results"][0]["code"], "PAM_AUTHINFO_UNAVAIL")
        self.assertEqual(sandbox.failures(self.USER), 0)

    def test_another_users_pattern_cannot_be_tried_through_the_module(self):
        # xscreensaver also tries root's password: the user's process asking about root gets no verdict.
        sandbox = self.sandbox()
        sandbox.enrol("root")
        report = helper.drive_module(sandbox, self.user, [PATTERN], target="root")
        self.assertEqual(report["results"][0]["code"], "PAM_AUTHINFO_UNAVAIL")
        self.assertEqual(report["results"][0]["unexpected_prompts"], 0)
        self.assertEqual(sandbox.failures("root"), 0)


class CountedNamespace(helper.Namespace):
    """The real setuid helper moved to HELPER.real, and at HELPER a script (run as the caller) that writes each
    operation to `calls` and then runs `body` (default: the real helper)."""

    def __init__(self, test, body=None, **kwargs):
        super().__init__(test, **kwargs)
        self.calls = os.path.join(self.root, "calls")
        open(self.calls, "w").close()
        os.chmod(self.calls, 0o666)
        self.body = body or 'exec %s.real "$@"\n' % HELPER_PATH

    def setup_script(self):
        wrapper = '#!/bin/sh\necho "$1" >>%s\n%s' % (shlex.quote(self.calls), self.body)
        return super().setup_script() + (
            "cp -p %s %s.real\nprintf '%%s' %s >%s\nchmod 0755 %s\n"
            % (HELPER_PATH, HELPER_PATH, shlex.quote(wrapper), HELPER_PATH, HELPER_PATH)
        )

    def operations(self):
        with open(self.calls) as f:
            return f.read().split()


class OneRunPerAuthenticationTest(unittest.TestCase):
    USER = "pphmod2"

    def setUp(self):
        self.user = TestUser(self.USER)
        self.addCleanup(self.user.remove)

    def test_the_helper_runs_once_per_authentication(self):
        sandbox = CountedNamespace(self)
        sandbox.enrol(self.USER)
        report = helper.drive_module(sandbox, self.user, [PATTERN, WRONG_PATTERN, "", "12a4"])
        self.assertEqual(
            [r["code"] for r in report["results"]], ["PAM_SUCCESS", "PAM_AUTH_ERR", "PAM_IGNORE", "PAM_AUTH_ERR"]
        )
        # One run each: a guess, a wrong guess, Enter alone and a non-pattern (the last two end the run unguessed).
        self.assertEqual(sandbox.operations(), ["authenticate"] * 4)
        self.assertEqual(sandbox.failures(self.USER), 1)
        self.assertEqual(report["fds_after"], report["fds_before"])

    def test_a_guess_the_run_stopped_waiting_for_goes_as_a_verify_counted_once(self):
        # What the real helper answers once HelperRequest.guessWaitSeconds have passed with no guess.
        expired = 'if [ "$1" = authenticate ]; then echo "allowed 5"; echo expired; exit 7; fi\nexec %s.real "$@"\n'
        sandbox = CountedNamespace(self, body=expired % HELPER_PATH)
        sandbox.enrol(self.USER)
        report = helper.drive_module(sandbox, self.user, [WRONG_PATTERN, PATTERN])
        self.assertEqual([r["code"] for r in report["results"]], ["PAM_AUTH_ERR", "PAM_SUCCESS"])
        self.assertIn("4 tries left", " ".join(m for _, m in report["results"][0]["messages"]))
        self.assertEqual(sandbox.operations(), ["authenticate", "verify"] * 2)
        self.assertEqual(sandbox.failures(self.USER), 0)

    def test_without_a_pidfd_the_module_runs_check_and_then_verify(self):
        # pidfd_open refused in the host (an old kernel, a seccomp filter): no session; the same answers from a
        # check run and a verify run. strace traces the host alone (no -f): the helper it starts stays setuid.
        sandbox = CountedNamespace(self)
        sandbox.enrol(self.USER)
        tracer = "strace -qq -o /dev/null -e trace=pidfd_open -e inject=pidfd_open:error=ENOSYS "
        report = helper.drive_module(sandbox, self.user, [WRONG_PATTERN, PATTERN], tracer=tracer)
        self.assertEqual([r["code"] for r in report["results"]], ["PAM_AUTH_ERR", "PAM_SUCCESS"])
        self.assertEqual(sandbox.operations(), ["check", "verify"] * 2)
        self.assertEqual(sandbox.failures(self.USER), 0)
        self.assertEqual(report["fds_after"], report["fds_before"])


if __name__ == "__main__":
    unittest.main()
