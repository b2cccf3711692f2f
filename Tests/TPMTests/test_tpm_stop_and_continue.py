"""Stop-and-continue probes of one's own TPM-held pattern: the TPM must never count more than the throttle.

The attack: a user runs `pam_pattern_helper verify SELF` with a guess and SIGSTOPs it around the moment its
PIN read goes to the TPM, then continues it after the check's 1.5 s deadline (and before the watchdog, 2 s). The TPM
judges and counts the guess, the helper no longer waits for the answer and says "unavailable"; had the throttle
then taken its count back, the attacker would guess on at the TPM's pace with the throttle still saying
`allowed`. The helper holds the TPM conversation as real uid root (the caller's SIGSTOP is refused), sends
nothing after its deadline (pattern_tcti.c), and keeps the count of a guess that went out unanswered
(TPMGuessResult.unanswered).

Here the TPM is swtpm behind a proxy adding 20 ms to each command, like a discrete chip; the proxy tells the
attacker the moment the PIN read (TPM2_NV_Read) arrives, and the attacker's own signaller (the user's uid, as the
attacker has) sends SIGSTOP then and SIGCONT 1.7 s later. After 8 probes the throttle must count at least what
the TPM counted, and the helper must not answer `allowed`. swtpm (support.tpm), support.helper's namespace,
user ppstco1. Root only.
"""

import json
import os
import shlex
import unittest

from support import formats, helper
from support.paths import PYTHONPATH
from support.guesses import wrong_patterns
from support.system import TestUser, setpriv_argv

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401
from support.tpm import driver, enrol_in_store, tpm_for_helper

PATTERN = helper.PATTERN
PROBES = 8

# Run as the user: sends the signals it is told to (one "SIG PID" line each), answers "sent" or the error.
SIGNALLER = r"""
import os, signal, sys
for line in sys.stdin:
    name, pid = line.split()
    try:
        os.kill(int(pid), getattr(signal, name))
        print("sent", flush=True)
    except OSError as error:
        print(type(error).__name__, flush=True)
"""

# Run as root in the namespace: the 20 ms proxy in front of swtpm, then PROBES probes, each stopped by the user's
# signaller when its NV_Read reaches the proxy and continued STOP_SECONDS later. Prints one JSON report.
ORCHESTRATOR = (
    r"""
import json, os, socket, struct, subprocess, sys, threading, time
job = json.loads(sys.argv[1])
NV_READ, DELAY = 0x14E, 0.020
signaller = subprocess.Popen(job["prefix"] + ["/usr/bin/python3", "-c", job["signaller"]],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={})
state = {"pid": None, "stops": []}

def signal_as_user(name, pid):
    signaller.stdin.write("%s %d\n" % (name, pid))
    signaller.stdin.flush()
    return signaller.stdout.readline().strip()

sys.path.insert(0, job["pythonpath"])
from support.tpm_latency import read_message

def serve(client):
    tpm = socket.socket(socket.AF_UNIX)
    tpm.connect(job["swtpm"])
    try:
        while True:
            command = read_message(client)
            if struct.unpack(">I", command[6:10])[0] == NV_READ and state["pid"] is not None:
                state["stops"].append(signal_as_user("SIGSTOP", state["pid"]))
                state["stopped_at"] = time.monotonic()
            time.sleep(DELAY)
            tpm.sendall(command)
            client.sendall(read_message(tpm))
    except (EOFError, OSError):
        pass
    finally:
        tpm.close()
        client.close()

listener = socket.socket(socket.AF_UNIX)
listener.bind(job["proxy"])
os.chmod(job["proxy"], 0o666)
listener.listen(8)
def accept():
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client,), daemon=True).start()
threading.Thread(target=accept, daemon=True).start()

"""
    + helper.STATE_FAILURES
    + r"""
probes = []
for guess in job["guesses"]:
    state["stopped_at"] = None
    helper_run = subprocess.Popen(job["prefix"] + [job["helper"], "verify", job["user"]], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={})
    state["pid"] = helper_run.pid
    helper_run.stdin.write((guess + "\0").encode())
    helper_run.stdin.close()
    deadline = time.monotonic() + 20
    while helper_run.poll() is None and time.monotonic() < deadline:
        if state["stopped_at"] is not None and time.monotonic() - state["stopped_at"] >= job["stop_seconds"]:
            state["stopped_at"] = None
            signal_as_user("SIGCONT", helper_run.pid)
        time.sleep(0.005)
    if helper_run.poll() is None:
        helper_run.kill()
    out = helper_run.stdout.read().decode(errors="replace").strip()
    helper_run.wait()
    state["pid"] = None
    probes.append({"answer": out, "status": helper_run.returncode, "throttle": state_failures()})
check = subprocess.run(job["prefix"] + [job["helper"], "check", job["user"]], capture_output=True, env={}, timeout=30)
signaller.stdin.close()
signaller.wait(timeout=10)
print(json.dumps({"probes": probes, "stops": state["stops"], "throttle": state_failures(),
                  "check": check.stdout.decode(errors="replace").strip()}))
"""
)


class StopAndContinueProbeTest(unittest.TestCase):
    USER = "ppstco1"

    def setUp(self):
        self.tpm = tpm_for_helper(self)
        self.user = TestUser(self.USER)
        self.addCleanup(self.user.remove)
        self.sandbox = helper.Namespace(self)
        self.record = enrol_in_store(self.tpm, self.sandbox.store, ((self.USER, PATTERN),))[self.USER]
        self.proxy = os.path.join(self.tpm.directory, "proxy")
        # The defaults but the TPM: deny 5 (the 5th failure starts a wait), lock_after 20.
        self.sandbox.write_conf("tpm_tcti = swtpm:path=%s\n" % self.proxy)

    def test_stopped_and_continued_probes_are_all_counted(self):
        job = {
            "prefix": setpriv_argv(self.user),
            "signaller": SIGNALLER,
            "swtpm": self.tpm.served,
            "pythonpath": PYTHONPATH,
            "proxy": self.proxy,
            "helper": helper.HELPER_PATH,
            "user": self.USER,
            "guesses": wrong_patterns(PROBES, avoid=(PATTERN,)),
            "stop_seconds": 1.7,
            "state_file": formats.state_file("/var/lib/pam_pattern", self.USER),
        }
        script = self.sandbox.write_file("orchestrator.py", ORCHESTRATOR)
        command = "exec /usr/bin/python3 %s %s" % (shlex.quote(script), shlex.quote(json.dumps(job)))
        done = self.sandbox.run(command, timeout=600)
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout.decode().strip().splitlines()[-1])
        status, counter = driver("counter", self.tpm.tcti, self.record)
        self.assertEqual(status, 0, counter)
        tpm_failures = int(counter.split()[0])
        # The probes reached the TPM (it counted them), and every stop aimed at one was tried.
        self.assertGreater(tpm_failures, 0, report)
        self.assertGreater(len(report["stops"]), 0, report)
        self.assertGreaterEqual(report["throttle"], tpm_failures, (counter, report))
        self.assertFalse(report["check"].startswith("allowed"), (counter, report))


if __name__ == "__main__":
    unittest.main()
