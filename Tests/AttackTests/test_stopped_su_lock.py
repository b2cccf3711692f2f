"""A user stops their own `su VICTIM` while it holds the victim's state lock, to freeze the victim's pattern.

su is setuid root but keeps its caller's real uid, so the kernel lets the caller SIGSTOP it. The attacker runs
`su VICTIM` again and again with wrong patterns, polls the world-readable /proc/locks, and sends SIGSTOP the
moment an su holds the lock on the victim's state file (the module holds it, briefly, before the prompt and when
it counts a guess). If such a stop ever landed, the victim's right pattern through pam_pattern_helper would wait
5 s for that lock and answer "unavailable", the victim's own su would fall to the password, and root's
`patternctl status` and `reset` would fail ("another process holds the lock"), for as long as the su stays
stopped. The module therefore holds every state lock as real uid root (SignalProofHold), which the caller
cannot signal: the attacker's SIGSTOP is refused while the lock is held. Whatever the attacker managed, the
victim and root must be answered within 3 s.

Everything runs in the private namespace of Tests/support/helper.py (store, state and the setuid helper at
their real paths), with su's PAM file bound over /etc/pam.d/su and a pam_pattern.conf that never locks the
victim out (deny=1000, lock_after=0), so every round counts a guess. Root only.
"""

import json
import os
import shlex
import unittest

from support import formats, helper
from support.guesses import wrong_patterns
from support.paths import MODULE
from support.system import TestUser, setpriv_argv
from support.helper import HELPER_PATH, PATTERN

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401

# How long the attacker tries to catch an su holding the lock (on the old module it did within a few rounds).
ATTACK_SECONDS = 15
# The victim and root must be answered within this.
ANSWER_SECONDS = 3.0

# Run as the attacker: polls /proc/locks until a process holds the victim's state file's lock, stops it, and
# keeps it stopped only if it still holds the lock once stopped. Reports what happened; holds on until stdin
# closes, then lets the stopped su go on.
ATTACKER = r"""
import json, os, signal, sys, time
inode = ":" + sys.argv[1]
deadline = time.monotonic() + float(sys.argv[2])
def holders():
    with open("/proc/locks") as f:
        for line in f:
            fields = line.split()
            if "->" not in fields and len(fields) > 5 and fields[5].endswith(inode):
                yield int(fields[4])
def stopped(pid):
    until = time.monotonic() + 1
    while time.monotonic() < until:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("T", "t"):
                    return True
        except OSError:
            return False
    return False
outcome = {"kind": "missed", "refused": 0, "let_go": 0}
while outcome["kind"] == "missed" and time.monotonic() < deadline:
    for pid in list(holders()):
        try:
            os.kill(pid, signal.SIGSTOP)
        except PermissionError:
            outcome["refused"] += 1
            continue
        except ProcessLookupError:
            continue
        if stopped(pid) and pid in holders():
            outcome.update(kind="stopped", pid=pid)
            break
        os.kill(pid, signal.SIGCONT)  # it let go before the stop landed: try again
        outcome["let_go"] += 1
print(json.dumps(outcome), flush=True)
sys.stdin.read()
if outcome["kind"] == "stopped":
    os.kill(outcome["pid"], signal.SIGCONT)
"""

# Run as root in the namespace: su rounds typed by the attacker until the attacker reports, then (while the
# attacker keeps any su it stopped) root's status and reset and the victim's right pattern, each timed.
ORCHESTRATOR = r"""
import json, os, pty, select, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
inode = str(os.stat(job["state_file"]).st_ino)
attacker = subprocess.Popen(job["prefix"] + ["/usr/bin/python3", job["attacker"], inode, str(job["seconds"])],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={})
def su_round(user_prefix, pattern, watch, timeout):
    # One `su VICTIM` on a pty typed `pattern`: (seconds, output); gives up when `watch` becomes readable.
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(user_prefix[0], user_prefix + ["su", job["victim"], "-c", "echo SWITCHED-$(id -un)"])
    output, sent, ready = b"", False, []
    while time.monotonic() - start < timeout:
        ready, _, _ = select.select([fd] + watch, [], [], 0.05)
        if watch and watch[0] in ready:
            break
        if fd in ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                break
            output += chunk
        if not sent and b"Pattern: " in output:
            os.write(fd, pattern.encode() + b"\n")
            sent = True
    seconds = time.monotonic() - start
    if watch and watch[0] in ready:
        left.append(pid)  # perhaps the su the attacker keeps stopped: it must keep what it holds
        return seconds, output
    for sig in (signal.SIGKILL, signal.SIGCONT):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass
    os.close(fd)
    os.waitpid(pid, 0)
    return seconds, output
left = []
rounds = 0
while True:
    ready, _, _ = select.select([attacker.stdout], [], [], 0)
    if ready:
        break
    su_round(job["prefix"], job["wrong"][rounds % len(job["wrong"])], [attacker.stdout], 10)
    rounds += 1
report = {"attacker": json.loads(attacker.stdout.readline()), "rounds": rounds}
for name, argv in (("status", ["status"]), ("reset", ["reset"])):
    start = time.monotonic()
    done = subprocess.run([job["patternctl"]] + argv + [job["victim"]], capture_output=True, timeout=60)
    report[name] = {"status": done.returncode, "seconds": time.monotonic() - start,
                    "output": (done.stdout + done.stderr).decode(errors="replace")}
start = time.monotonic()
done = subprocess.run(job["victim_prefix"] + [job["helper"], "verify", job["victim"]],
                      input=(job["pattern"] + "\0").encode(), capture_output=True, timeout=60, env={})
report["helper"] = {"answer": done.stdout.decode(errors="replace"), "seconds": time.monotonic() - start}
seconds, output = su_round(job["victim_prefix"], job["pattern"], [], 20)
report["su"] = {"seconds": seconds, "output": output.decode(errors="replace")}
attacker.stdin.close()
attacker.wait(timeout=30)
for pid in left:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
print(json.dumps(report))
"""


class StoppedSuHoldingTheLockTest(unittest.TestCase):
    ATTACKER_NAME = "ppsulk1"
    VICTIM = "ppsulk2"

    def setUp(self):
        self.attacker = TestUser(self.ATTACKER_NAME)
        self.addCleanup(self.attacker.remove)
        self.victim = TestUser(self.VICTIM)
        self.addCleanup(self.victim.remove)
        self.sandbox = helper.Namespace(
            self,
            service="su",
            pam_lines=[
                "auth required %s" % MODULE,
                "account required pam_permit.so",
                "session required pam_permit.so",
            ],
        )
        self.sandbox.write_conf("deny = 1000\nlock_after = 0\n")
        self.sandbox.enrol(self.VICTIM)
        # The state file exists from the start, so the attacker knows which lock to watch for.
        state = formats.state_file(self.sandbox.state_dir, self.VICTIM)
        with open(state, "wb") as f:
            f.write(formats.state_record(0, 0))
        os.chmod(state, 0o600)

    def test_a_stopped_su_never_freezes_the_victim_or_root(self):
        job = {
            "state_file": formats.state_file("/var/lib/pam_pattern", self.VICTIM),
            "prefix": setpriv_argv(self.attacker),
            "victim_prefix": setpriv_argv(self.victim),
            "attacker": self.sandbox.write_file("attacker.py", ATTACKER),
            "seconds": ATTACK_SECONDS,
            "wrong": wrong_patterns(40, avoid=(PATTERN,)),
            "helper": HELPER_PATH,
            "patternctl": helper.PATTERNCTL,
            "victim": self.VICTIM,
            "pattern": PATTERN,
        }
        orchestrator = self.sandbox.write_file("orchestrator.py", ORCHESTRATOR)
        command = "exec /usr/bin/python3 %s %s" % (shlex.quote(orchestrator), shlex.quote(json.dumps(job)))
        done = self.sandbox.run(command, timeout=600)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout)
        # The attacker had su rounds to aim at (each one holds the lock before its prompt and when it counts).
        self.assertGreater(report["rounds"], 0, report)
        for name in ("status", "reset"):
            self.assertEqual(report[name]["status"], 0, report)
            self.assertLess(report[name]["seconds"], ANSWER_SECONDS, report)
        self.assertTrue(report["helper"]["answer"].startswith("accepted"), report)
        self.assertLess(report["helper"]["seconds"], ANSWER_SECONDS, report)
        self.assertIn("SWITCHED-" + self.VICTIM, report["su"]["output"], report)
        self.assertLess(report["su"]["seconds"], ANSWER_SECONDS, report)
        # Never stopped holding the lock: the attacker met su holding it, and the kernel refused every SIGSTOP.
        self.assertEqual(report["attacker"]["kind"], "missed", report)
        self.assertGreater(report["attacker"]["refused"], 0, report)


if __name__ == "__main__":
    unittest.main()
