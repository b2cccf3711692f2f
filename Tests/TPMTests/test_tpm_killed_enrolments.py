"""A user SIGKILLs their own self-service changes of a TPM-held pattern, 200 times: no NV index may be left behind.

A change defines the new index, writes the store line, then deletes the old index, in three conversations with
the TPM. Killed between the line and the deletion, it would leave the old index defined with no line naming it
(an orphan): enough of them fill the TPM's NV memory, and then nobody can enrol. The helper holds the TPM index
lock as real uid root from the new index until the old one is deleted (SignalProofHold), so the caller's
SIGKILL is refused in between. After 200 changes killed at random moments and one more change, the indexes in
pam_pattern's range must be exactly those the store names (and the session key's). swtpm (support.tpm),
support.helper's namespace, user ppkill1. Root only.
"""

import json
import os
import random
import shlex
import unittest

from support import helper
from support.system import TestUser, setpriv_argv
from support.tpm import enrol_in_store, tpm_for_helper

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401

PATTERNS = [helper.PATTERN, "8426519"]
ROUNDS = 200
FIRST, LAST, SESSION_KEY = 0x01A50000, 0x01A5FFFE, 0x01A5FFFF

# Run as the user: ROUNDS changes of their own pattern, each SIGKILLed after its delay; after a killed one the
# current pattern is found again with `verify`. Then one more change, run to its end. Prints one JSON report.
KILLER = r"""
import json, os, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
patterns = list(job["patterns"])

def run(operation, fields, delay=None):
    p = subprocess.Popen([job["helper"], operation, job["user"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env={})
    p.stdin.write("".join(field + "\0" for field in fields).encode())
    p.stdin.close()
    refused = False
    if delay is not None:
        time.sleep(delay)
        try:
            os.kill(p.pid, signal.SIGKILL)
        except PermissionError:
            refused = True
        except ProcessLookupError:
            pass
    answer = p.stdout.read().decode(errors="replace")
    p.wait()
    return answer, refused

report = {"killed": 0, "refused": 0, "finished": 0}
for delay in job["delays"]:
    answer, refused = run("set", patterns, delay)
    report["refused"] += refused
    if answer.startswith("accepted"):
        report["finished"] += 1
        patterns.reverse()
    elif answer == "":
        report["killed"] += 1
        if not run("verify", [patterns[0]])[0].startswith("accepted"):
            patterns.reverse()
report["last"] = run("set", patterns)[0]
print(json.dumps(report))
"""


class KilledEnrolmentsTest(unittest.TestCase):
    USER = "ppkill1"

    def setUp(self):
        self.tpm = tpm_for_helper(self)
        self.user = TestUser(self.USER)
        self.addCleanup(self.user.remove)
        self.sandbox = helper.Namespace(self)
        enrol_in_store(self.tpm, self.sandbox.store, ((self.USER, PATTERNS[0]),))
        # Never locked out by the wrong verify that finds the current pattern again after a kill.
        self.sandbox.write_conf("deny = 1000\nlock_after = 0\ntpm = yes\ntpm_tcti = %s\n" % self.tpm.tcti)

    def named_handles(self):
        handles = set()
        with open(self.sandbox.store) as f:
            for line in f:
                if "$tpm2$" in line:
                    handles.add(int(line.split("$tpm2$", 1)[1][:8], 16))
        return handles

    def test_killed_changes_leave_no_index_behind(self):
        rng = random.Random(27)
        job = {
            "helper": helper.HELPER_PATH,
            "user": self.USER,
            "patterns": PATTERNS,
            # Across a whole change on swtpm (three conversations), weighted to its start.
            "delays": [rng.uniform(0.0, 0.25) for _ in range(ROUNDS)],
        }
        script = self.sandbox.write_file("killer.py", KILLER)
        command = "exec %s /usr/bin/python3 %s %s" % (
            " ".join(setpriv_argv(self.user)),
            shlex.quote(script),
            shlex.quote(json.dumps(job)),
        )
        done = self.sandbox.run(command, timeout=1800)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout.decode().strip().splitlines()[-1])
        self.assertEqual(report["last"], "accepted\n", report)
        defined = {h for h in self.tpm.defined_indexes() if FIRST <= h <= LAST}
        self.assertEqual(defined, self.named_handles(), report)
        self.assertGreater(report["killed"] + report["refused"], 0, report)


class PruneAnyNumberTest(unittest.TestCase):
    """More orphan indexes than one listing of the TPM holds (256): one prune deletes them all."""

    ORPHANS = 300

    def setUp(self):
        self.tpm = tpm_for_helper(self)
        self.sandbox = helper.Namespace(self)
        self.sandbox.write_conf("tpm_tcti = %s\n" % self.tpm.tcti)
        with open(self.sandbox.store, "w") as f:
            f.write("")
        os.chmod(self.sandbox.store, 0o600)

    def test_one_prune_deletes_them_all(self):
        define = "tpm2_nvdefine -T %s 0x%%08x -C o -s 8 -a 'ownerread|ownerwrite' >/dev/null" % self.tpm.tcti
        command = "; ".join(define % (FIRST + 3 * i) for i in range(self.ORPHANS))
        done = self.sandbox.run(command + "; " + helper.helper_call("tpm-prune", "root"), timeout=600)
        self.assertEqual(helper.parse_call(done.stdout), ("pruned %d" % self.ORPHANS, helper.SUCCESS), done.stderr)
        self.assertEqual([h for h in self.tpm.defined_indexes() if FIRST <= h <= SESSION_KEY], [])

    def test_a_prune_blocked_by_an_enrolment_says_so(self):
        # Something holds the TPM index lock for longer than prune waits (12 s): no helper can (its watchdog
        # ends it after 10 s), flock(1) can.
        lock = os.path.join(self.sandbox.store_dir, ".patterns.tpm.lock")
        os.close(os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        command = "flock -s /etc/security/pam_pattern/.patterns.tpm.lock sleep 14 & sleep 0.3; %s prune 2>&1" % (
            helper.PATTERNCTL
        )
        done = self.sandbox.run(command, timeout=60)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn(b"an enrolment into the TPM was under way for longer than the wait", done.stdout)


if __name__ == "__main__":
    unittest.main()
