"""Enrolments SIGKILLed at random moments, 200 times: no NV index may be left behind once the next enrolment, or
a prune, has run.

A change defines the new index, writes the store line, then deletes the old index, in conversations of its own
with the TPM. Killed between the index and the line, it leaves the new index with no line naming it; killed
between the line and the deletion, the old one (an orphan either way): enough of them fill the TPM's NV memory,
and then nobody can enrol. A user cannot kill their own change there (the helper holds the TPM index lock as
real uid root, SignalProofHold), but root, a crash or the hold's own watchdog can. So every enrolment deletes
the indexes no line names (a few, in the conversation that defines its own) under the index lock held
exclusively, and `patternctl prune` deletes any number. Root kills its own changes here (root's kill always
lands); after each killed one the indexes no line names are counted, so the test shows that kills did leave
some behind. swtpm (support.tpm), support.helper's namespace, user ppkill1. Root only.
"""

import json
import os
import shlex
import unittest

from support import helper
from support.system import TestUser
from support.tpm import enrol_in_store, tpm_for_helper

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401

PATTERNS = [helper.PATTERN, "8426519"]
ROUNDS = 200
FIRST, LAST, SESSION_KEY = 0x01A50000, 0x01A5FFFE, 0x01A5FFFF

# Run as root in the namespace: ROUNDS changes of the user's pattern, each SIGKILLed after its delay; after a
# killed one the current pattern is found again with `verify`, and the indexes no line names are counted.
# Then `then` (one more change run to its end, or a prune), once a kill has left a stray. Prints one JSON report.
KILLER = r"""
import json, os, random, re, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
patterns = list(job["patterns"])

def run(operation, fields, delay=None):
    p = subprocess.Popen([job["helper"], operation, job["user"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env={})
    p.stdin.write("".join(field + "\0" for field in fields).encode())
    p.stdin.close()
    if delay is not None:
        time.sleep(delay)
        try:
            os.kill(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    answer = p.stdout.read().decode(errors="replace")
    p.wait()
    return answer

def strays():
    listing = subprocess.run(["tpm2_getcap", "-T", job["tools_tcti"], "handles-nv-index"], capture_output=True, text=True)
    defined = {int(h, 16) for h in re.findall(r"0x[0-9a-fA-F]+", listing.stdout)}
    named = {int(h, 16) for h in re.findall(r"\$tpm2\$([0-9a-f]{8})\$", open(job["store"]).read())}
    return len({h for h in defined if job["first"] <= h <= job["last"]} - named)

# The kills land across a whole change however fast this machine and its swtpm are: the delays are drawn
# over the time one change takes here (the slowest of three, so a kill also lands after some).
spans = []
for _ in range(3):
    started = time.monotonic()
    if not run("set", patterns).startswith("accepted"):
        sys.exit("an unkilled change failed")
    spans.append(time.monotonic() - started)
    patterns.reverse()
rng = random.Random(job["seed"])
report = {"killed": 0, "finished": 0, "left": 0, "most": 0, "span": round(max(spans), 3)}

def kill_one():
    answer = run("set", patterns, rng.uniform(0.0, max(spans)))
    if answer.startswith("accepted"):
        report["finished"] += 1
        patterns.reverse()
    elif answer == "":
        report["killed"] += 1
        if not run("verify", [patterns[0]]).startswith("accepted"):
            patterns.reverse()
        left = strays()
        report["left"] += left > 0
        report["most"] = max(report["most"], left)

for _ in range(job["rounds"]):
    kill_one()
# What comes next must have something to clean: more kills (up to as many again) until one leaves a stray.
for _ in range(job["rounds"]):
    if strays() > 0:
        break
    kill_one()
report["before"] = strays()
if job["then"] == "set":
    report["answer"] = run("set", patterns)
else:
    done = subprocess.run([job["patternctl"], "prune"], capture_output=True, text=True)
    report["answer"] = done.stdout + done.stderr
    report["status"] = done.returncode
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

    def kill_changes(self, rounds, then):
        job = {
            "helper": helper.HELPER_PATH,
            "patternctl": helper.PATTERNCTL,
            "user": self.USER,
            "patterns": PATTERNS,
            "tools_tcti": self.tpm.tools_tcti,
            "store": "/etc/security/pam_pattern/patterns",
            "first": FIRST,
            "last": LAST,
            "rounds": rounds,
            "seed": 27,
            "then": then,
        }
        script = self.sandbox.write_file("killer.py", KILLER)
        command = "exec /usr/bin/python3 %s %s" % (shlex.quote(script), shlex.quote(json.dumps(job)))
        done = self.sandbox.run(command, timeout=1800)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout.decode().strip().splitlines()[-1])
        # Kills did leave indexes no line names, and some were there when the last step ran (so the cleaning
        # below is what the test shows).
        self.assertGreater(report["killed"], 0, report)
        self.assertGreater(report["left"], 0, report)
        self.assertGreater(report["before"], 0, report)
        return report

    def assert_no_index_behind(self, report):
        defined = {h for h in self.tpm.defined_indexes() if FIRST <= h <= LAST}
        self.assertEqual(defined, self.named_handles(), report)

    def test_killed_changes_leave_no_index_behind_after_the_next_change(self):
        report = self.kill_changes(ROUNDS, "set")
        self.assertEqual(report["answer"], "accepted\n", report)
        self.assert_no_index_behind(report)
        # Each enrolment cleaned up after the ones killed before it: they never piled up.
        self.assertLessEqual(report["most"], 1, report)

    def test_killed_changes_leave_no_index_behind_after_a_prune(self):
        report = self.kill_changes(ROUNDS // 4, "prune")
        self.assertEqual(report["status"], 0, report)
        self.assert_no_index_behind(report)


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
        define = "tpm2_nvdefine -T %s 0x%%08x -C o -s 8 -a 'ownerread|ownerwrite' >/dev/null" % self.tpm.tools_tcti
        command = "; ".join(define % (FIRST + 3 * i) for i in range(self.ORPHANS))
        done = self.sandbox.run(command + "; " + helper.helper_call("tpm-prune", "root"), timeout=600)
        self.assertEqual(helper.parse_call(done.stdout), ("pruned %d" % self.ORPHANS, helper.SUCCESS), done.stderr)
        self.assertEqual([h for h in self.tpm.defined_indexes() if FIRST <= h <= SESSION_KEY], [])

    def test_a_prune_blocked_by_an_enrolment_says_so(self):
        # Something holds the TPM index lock for longer than prune waits (18 s): no helper can (its watchdog
        # ends it after 17.5 s), flock(1) can.
        lock = os.path.join(self.sandbox.store_dir, ".patterns.tpm.lock")
        os.close(os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        command = "flock -s /etc/security/pam_pattern/.patterns.tpm.lock sleep 20 & sleep 0.3; %s prune 2>&1" % (
            helper.PATTERNCTL
        )
        done = self.sandbox.run(command, timeout=60)
        self.assertEqual(done.returncode, 1, done.stdout)
        # Named: the lock and who takes it (not "store or state unusable").
        self.assertIn(
            b"another enrolment, removal or sweep held the TPM index lock (.tpm.lock beside the pattern store) for "
            b"longer than the wait; try again",
            done.stdout,
        )


if __name__ == "__main__":
    unittest.main()
