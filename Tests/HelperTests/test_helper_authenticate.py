"""pam_pattern_helper's `authenticate` (the check, then one guess in the same run: what the module runs once per
authentication through the helper), the real setuid helper run by a throwaway user in a private mount
namespace. What each test shows: the two lines and the exit status; no guess ends the run at once and counts
nothing; a refused check does not wait; a run waiting for its guess holds no lock (another call for the same user
goes through, even while the waiting helper is stopped), and the guess is judged on the state when it comes,
not the check's; the wait has a deadline; a malformed guess is refused uncounted; and the module runs the helper
once per authentication, sending a late guess (after "expired") as a verify of its own, counted once.

Root only (setuid, users, namespaces). See Tests/support/helper.py for the namespace.
"""

import json
import os
import re
import shlex
import time
import unittest

from support import formats, helper
from support.helper import PATTERN, WRONG_PATTERN
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401
from support.paths import INSTALLED_HELPER as HELPER_PATH
from support.system import setpriv_argv

# Runs inside the namespace (as root) with a JSON job on argv[1]: one `authenticate` run as the user, driven step
# by step; prints a JSON report.
DRIVER = r"""
import json, os, select, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
prefix = job["prefix"] + [job["helper"]]
run = subprocess.Popen(prefix + ["authenticate", job["user"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
report = {"steps": []}
def first_line(timeout):
    line = b""
    end = time.monotonic() + timeout
    while not line.endswith(b"\n") and time.monotonic() < end:
        ready, _, _ = select.select([run.stdout], [], [], max(0, end - time.monotonic()))
        if not ready:
            break
        byte = os.read(run.stdout.fileno(), 1)
        if not byte:
            break
        line += byte
    return line.decode()
started = time.monotonic()
report["first"] = first_line(10)
report["first_after"] = time.monotonic() - started
for step in job["steps"]:
    result = {"op": step["op"]}
    if step["op"] == "call":
        # Another call for the same user while this run waits for its guess.
        begun = time.monotonic()
        done = subprocess.run(prefix + [step["operation"], job["user"]], input=step["input"].encode("latin-1"),
                              capture_output=True, timeout=30)
        result.update(took=time.monotonic() - begun, out=done.stdout.decode(), rc=done.returncode)
    elif step["op"] == "signal":
        os.kill(run.pid, getattr(signal, step["name"]))
    elif step["op"] == "sleep":
        time.sleep(step["seconds"])
    elif step["op"] == "still_running":
        result["running"] = run.poll() is None
    report["steps"].append(result)
begun = time.monotonic()
if job.get("guess") is not None:
    run.stdin.write(job["guess"].encode("latin-1"))
run.stdin.close()
report["rest"] = run.stdout.read().decode()
report["rc"] = run.wait(timeout=30)
report["finish_took"] = time.monotonic() - begun
print(json.dumps(report))
"""


def nul(*fields):
    return "".join(field + "\0" for field in fields)


class AuthenticateOperationTest(helper.HelperCase):
    USER = "pphauth1"

    def authenticate(self, guess=None, steps=(), timeout=120):
        path = os.path.join(self.sandbox.root, "authenticate_driver.py")
        with open(path, "w") as f:
            f.write(DRIVER)
        job = {
            "prefix": setpriv_argv(self.user),
            "helper": HELPER_PATH,
            "user": self.USER,
            "guess": guess,
            "steps": list(steps),
        }
        done = self.sandbox.run(
            "/usr/bin/python3 %s %s" % (shlex.quote(path), shlex.quote(json.dumps(job))), timeout=timeout
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def failures(self):
        return self.sandbox.failures(self.USER)

    def test_the_check_then_the_guess_in_one_run(self):
        report = self.authenticate(nul(WRONG_PATTERN, "i3lock", ":0"))
        self.assertEqual((report["first"], report["rest"], report["rc"]), ("allowed 5\n", "wrong allowed 4\n", 1))
        self.assertEqual(self.failures(), 1)
        report = self.authenticate(nul(PATTERN))
        self.assertEqual((report["first"], report["rest"], report["rc"]), ("allowed 4\n", "accepted\n", 0))
        self.assertEqual(self.failures(), 0)

    def test_no_guess_ends_the_run_at_once_and_counts_nothing(self):
        report = self.authenticate(None)
        self.assertEqual((report["first"], report["rest"], report["rc"]), ("allowed 5\n", "", 0))
        self.assertLess(report["finish_took"], 2.0, report)
        self.assertEqual(self.failures(), 0)

    def test_a_refused_check_answers_without_waiting_for_a_guess(self):
        # Locked: the run ends after the check's line, though the caller keeps stdin open for 3 s.
        formats.write_state(self.sandbox.state_dir, self.USER, 5, int(time.time()))
        report = self.authenticate(None, steps=[{"op": "sleep", "seconds": 1}, {"op": "still_running"}])
        self.assertRegex(report["first"], r"^locked wait \d+\n$")
        self.assertEqual((report["rest"], report["rc"]), ("", 2))
        self.assertFalse(report["steps"][1]["running"], "a locked check waited for a guess")
        self.assertEqual(self.failures(), 5)

    def test_a_malformed_guess_is_refused_and_not_counted(self):
        # Not the protocol's shape (unterminated, too long, a field too many): refused; not a pattern: malformed.
        for garbage in ("1234", "1" * 600 + "\0", nul("1234", "a", "b", "c")):
            report = self.authenticate(garbage)
            self.assertEqual((report["first"], report["rest"], report["rc"]), ("allowed 5\n", "refused input\n", 6))
        for not_a_pattern in ("12a4", "123", "11"):
            report = self.authenticate(nul(not_a_pattern))
            self.assertEqual((report["rest"], report["rc"]), ("malformed minlen 4\n", 4), not_a_pattern)
        self.assertEqual(self.failures(), 0)

    def test_a_run_waiting_for_its_guess_holds_no_lock_and_the_guess_meets_the_state_of_its_time(self):
        # Stopped while it waits (its user may signal it; here root does): the user's other calls go through at
        # once, and five wrong guesses meanwhile lock the pattern, so the right guess sent afterwards is refused
        # uncounted, though the check had said "allowed 5".
        wrong = [
            {"op": "call", "operation": "verify", "input": nul(pattern)}
            for pattern in ("24678", "13579", "12369", "78963", "14789")
        ]
        report = self.authenticate(
            nul(PATTERN),
            steps=[{"op": "signal", "name": "SIGSTOP"}, *wrong, {"op": "signal", "name": "SIGCONT"}],
        )
        self.assertEqual(report["first"], "allowed 5\n")
        calls = [step for step in report["steps"] if step["op"] == "call"]
        self.assertEqual([call["rc"] for call in calls], [1, 1, 1, 1, 1], calls)
        self.assertLess(max(call["took"] for call in calls), 3.0, calls)
        self.assertRegex(report["rest"], r"^locked wait \d+\n$")
        self.assertEqual(report["rc"], 2)
        self.assertEqual(self.failures(), 5)

    def test_the_wait_for_the_guess_has_a_deadline(self):
        # HelperRequest.guessWaitSeconds (120 s) is too long for a test to sit through: the helper's one wait
        # for its guess, a poll on stdin, is traced (root calls it here: strace keeps a setuid binary's rights
        # only for root) and its timeout read.
        command = "sleep 2 | strace -qq -e trace=poll %s authenticate %s 2>&1 >/dev/null" % (HELPER_PATH, self.USER)
        done = self.sandbox.run(command, timeout=60)
        waits = [int(m) for m in re.findall(r"poll\(\[\{fd=0, events=POLLIN\}\], 1, (\d+)\)", done.stdout.decode())]
        self.assertTrue(waits, done.stdout)
        self.assertTrue(110_000 <= waits[0] <= 120_000, waits)


if __name__ == "__main__":
    unittest.main()
