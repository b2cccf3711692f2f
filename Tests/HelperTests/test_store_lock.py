"""A user who stops their own `set` (the setuid helper) while it holds the store-wide lock
(PatternCore/Store/PatternStore.swift): every other write of the store (root's patternctl, other users' own set,
remove, enroll) waits for that lock, 5 s at most and then fails, for as long as the stopped helper lives.
The helper therefore holds the lock as real uid root, which its caller cannot signal; a login of another
user never waits for the store lock at all (reads take none).

The attacker's own program spawns `pam_pattern_helper set SELF` on a store large enough to hold the lock
for a while, watches /proc/locks, and sends SIGSTOP the moment the helper holds the lock. The same attack on
their own `verify` while it holds their own state lock is refused too (every state lock is held as real uid
root), and would delay nobody else anyway (the lock is per user). Root only; see Tests/support/helper.py for the namespace.
"""

import json
import os
import shlex
import unittest

from support import formats, helper
from support.paths import MODULE
from support.system import TestUser, setpriv_argv
from support.helper import HELPER_PATH, PATTERN

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401

SECOND_PATTERN = "8426519"
FILLER_LINES = 40000
STORE = "/etc/security/pam_pattern/patterns"

# Run as root in the namespace: the attacker, then (while it keeps its helper) root's write for the victim and
# the victim's login through the module in-process, each timed.
ORCHESTRATOR = r"""
import json, os, subprocess, sys, time
from support import pam as ph
job = json.loads(sys.argv[1])
info = os.stat(job["lock_file"])
job["attacker_job"]["lock"] = "%02x:%02x:%d" % (os.major(info.st_dev), os.minor(info.st_dev), info.st_ino)
attacker = subprocess.Popen(job["prefix"] + ["/usr/bin/python3", job["attacker"], json.dumps(job["attacker_job"])],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={})
report = {"attacker": json.loads(attacker.stdout.readline())}
start = time.monotonic()
done = subprocess.run([job["patternctl"], "set", "--cost", "1", job["victim"]],
                      input=("%s\n%s\n" % (job["pattern"], job["pattern"])).encode(), capture_output=True, timeout=60)
report["write"] = {"status": done.returncode, "seconds": time.monotonic() - start,
                   "stderr": done.stderr.decode(errors="replace")}
start = time.monotonic()
result = ph.authenticate(job["confdir"], "pattern-store-lock", job["victim"], ph.Conversation([job["pattern"].encode()]))
report["login"] = {"code": ph.code_name(result.code), "seconds": time.monotonic() - start}
attacker.stdin.close()
attacker.wait(timeout=30)
print(json.dumps(report))
"""


class StoppedSetTest(unittest.TestCase):
    ATTACKER_NAME = "pphslk1"
    VICTIM = "pphslk2"

    def setUp(self):
        self.attacker = TestUser(self.ATTACKER_NAME)
        self.addCleanup(self.attacker.remove)
        self.victim = TestUser(self.VICTIM)
        self.addCleanup(self.victim.remove)
        self.sandbox = helper.Namespace(self)
        self.sandbox.enrol(self.ATTACKER_NAME)
        self.sandbox.enrol(self.VICTIM)
        # Many other lines: the helper holds the lock while it reads, rewrites and syncs all of them.
        with open(self.sandbox.store) as f:
            line = f.read().splitlines()[0]
        rest = line.split(":", 2)[2]
        with open(self.sandbox.store, "a") as f:
            for i in range(FILLER_LINES):
                f.write("ppfill%05d:%d:%s\n" % (i, 60000 + i, rest))

    def write(self, name, text, mode=0o644):
        path = os.path.join(self.sandbox.root, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def attack(self, operation, fields, patterns, lock_file):
        """The attacker runs `operation` on themselves until SIGSTOP meets the helper holding `lock_file`; while it
        is kept stopped, root writes the victim's pattern and the victim logs in. The orchestrator's report."""
        confdir = os.path.join(self.sandbox.root, "pam.d")
        os.makedirs(confdir, exist_ok=True)
        os.chmod(confdir, 0o755)
        with open(os.path.join(confdir, "pattern-store-lock"), "w") as f:
            f.write("auth required %s\naccount required pam_permit.so\n" % MODULE)
        job = {
            "lock_file": lock_file,
            "prefix": setpriv_argv(self.attacker),
            "attacker": self.write("attacker.py", helper.LOCK_STOPPER),
            "attacker_job": {
                "helper": HELPER_PATH,
                "user": self.ATTACKER_NAME,
                "operation": operation,
                "fields": fields,
                "patterns": patterns,
                "attempts": 40,
            },
            "patternctl": helper.PATTERNCTL,
            "victim": self.VICTIM,
            "pattern": PATTERN,
            "confdir": confdir,
        }
        orchestrator = self.write("orchestrator.py", ORCHESTRATOR)
        command = "PYTHONPATH=%s exec /usr/bin/python3 %s %s" % (
            shlex.quote(helper.PYTHONPATH),
            shlex.quote(orchestrator),
            shlex.quote(json.dumps(job)),
        )
        done = self.sandbox.run(command, timeout=600)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)

    def assert_victim_unaffected(self, report):
        # Root's write for another user went ahead at once (behind a stopped holder it waits 5 s and fails).
        self.assertEqual(report["write"]["status"], 0, report)
        self.assertLess(report["write"]["seconds"], 4.0, report)
        # A login reads the store without its lock: never delayed by a writer, stopped or not.
        self.assertEqual(report["login"]["code"], "PAM_SUCCESS", report)
        self.assertLess(report["login"]["seconds"], 4.0, report)

    def test_a_stopped_set_cannot_stall_other_users_writes_and_never_delays_a_login(self):
        lock = os.path.join(os.path.dirname(STORE), ".patterns.lock")
        report = self.attack("set", 2, [PATTERN, SECOND_PATTERN], lock)
        # The attacker reached the helper while it held the lock, and the kernel refused their SIGSTOP.
        self.assertEqual(report["attacker"]["kind"], "refused", report)
        self.assert_victim_unaffected(report)

    def test_a_verify_holding_its_own_state_lock_cannot_be_stopped_and_delays_nobody_else(self):
        # The state lock is per user, so the attacker's own verify holds nothing another user's login or root's
        # write needs; and it holds it as real uid root like every state lock (a user's su holds another user's),
        # so the attacker's SIGSTOP is refused while it does. Their own right pattern: every try takes the lock
        # twice and never locks them out.
        state = formats.state_file(self.sandbox.state_dir, self.ATTACKER_NAME)
        with open(state, "wb") as f:
            f.write(formats.state_record(0, 0))
        os.chmod(state, 0o600)
        lock = formats.state_file("/var/lib/pam_pattern", self.ATTACKER_NAME)
        report = self.attack("verify", 1, [PATTERN], lock)
        self.assertEqual(report["attacker"]["kind"], "refused", report)
        self.assert_victim_unaffected(report)


if __name__ == "__main__":
    unittest.main()
