"""Attacks on the TPM conversation by a user with a pattern of their own in the TPM (self-enrolment is on by
default), through their own setuid helper, against another user's TPM pattern (TPMConnection,
TPMConversationLock, the layer's TCTI). Real su started by an unprivileged user (the victim's own), the
module run as root in-process (pam-try), the real setuid helper, swtpm (one connection at a time, no
resource manager).

- Stopped mid-TPM-talk: the attacker runs `pam_pattern_helper verify SELF` with their right pattern and
  SIGSTOPs it (its real uid is theirs, the kernel allows it) while it holds a connection to the TPM. The
  victim's su and root's in-process check must still accept the victim's right pattern within the bound
  (the TPM part of a check: 3 s lock wait + 1.5 s of commands) and count nothing against the victim.
- Killed mid-TPM-talk, 8 times: each SIGKILL leaves what the helper had loaded (a key, a session) in a
  TPM without a resource manager. The victim's pattern must still work, and the victim's check leaves
  nothing loaded behind.
- Many stopped at once (a real TPM has a few dozen session slots for everyone): none outlives the bound,
  at most one session is loaded.
- Low hard RLIMIT_AS / RLIMIT_CPU set by the caller: a right pattern is accepted or "unavailable", never
  wrong, never counted.

Users ppconv1 (attacker) and ppconv2 (victim), made per test and removed even when a test fails. Root only,
in support.helper's namespace.
"""

import json
import os
import shlex
import unittest

from support import helper
from support.paths import BUILD, MODULE
from support.system import TestUser
from support.tpm import driver, enrol_in_store, tpm_for_helper

# The TPM part of one check (TPMConversationBound.check: lock wait + deadline of the commands), and room
# for su, the two execs and a loaded machine.
TPM_BOUND = 4.5
SLACK = 3.0
VICTIM_PATTERN = helper.PATTERN
ATTACKER_PATTERN = "1236987"
VICTIM_PASSWORD = "conversation-Password-1"

# Runs in the namespace as root, JSON job on argv[1]: catches the attacker's own helper while it talks to
# the TPM (a unix socket open beside its stdin/stdout pipes: the helper logs nothing for a right pattern),
# stops or kills it, then times the victim's su and root's in-process check. Prints one JSON object.
ATTACK = r"""
import json, os, pty, random, select, signal, subprocess, sys, time
job = json.loads(sys.argv[1])

def sockets(pid):
    found = set()
    try:
        for fd in os.listdir("/proc/%d/fd" % pid):
            if int(fd) > 2:
                link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
                if link.startswith("socket:"):
                    found.add(link)
    except OSError:
        pass
    return found

def talking(pid):
    return bool(sockets(pid))

def state(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[0]

def caught(sig):
    # The attacker's own verify, signalled while it holds its TPM connection; None if it never was.
    for _ in range(300):
        p = subprocess.Popen(job["as_attacker"] + [job["helper"], "verify", job["attacker"]],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={})
        p.stdin.write(job["attacker_input"].encode())
        p.stdin.close()
        # A stop lands at once; a kill anywhere in the conversation, while a key or a session may be loaded:
        # at the 2nd or 3rd connection (a TCTI that connects per command) or a few ms into a single one.
        target, pause = random.choice((2, 3)), random.uniform(0.002, 0.03)
        seen, first = set(), None
        while p.poll() is None:
            now = sockets(p.pid)
            if now and first is None:
                first = time.monotonic()
            seen |= now
            if first is not None and (sig == signal.SIGSTOP or len(seen) >= target or time.monotonic() - first > pause):
                os.kill(p.pid, sig)
                break
        if sig == signal.SIGSTOP and p.poll() is None:
            while state(p.pid) != "T":
                time.sleep(0.001)
            if talking(p.pid):
                return p
            os.kill(p.pid, signal.SIGCONT)
        p.wait()
        p.stdout.close()
        if sig == signal.SIGKILL and p.returncode == -signal.SIGKILL:
            return p
    return None

def victims_su(as_user=None):
    # The victim's own `su VICTIM` on a pty (su's real uid is the victim's, as for any su the victim runs: the
    # helper then checks the victim's own pattern); the victim's pattern typed at the prompt. With `as_user`,
    # another user's `su VICTIM` (su's real uid is theirs, its effective uid root).
    master, slave = pty.openpty()
    p = subprocess.Popen((as_user or job["as_victim"]) + ["su", job["victim"], "-c", "echo SWITCHED-$(id -un)"],
                         stdin=slave, stdout=slave, stderr=slave, env={"PATH": "/usr/bin:/bin"},
                         start_new_session=True)
    os.close(slave)
    output, sent, started, limit = b"", None, time.monotonic(), job["limit"]
    while time.monotonic() - started < limit + 10:
        ready = select.select([master], [], [], 0.05)[0]
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        if sent is None and b"Pattern" in output:
            os.write(master, job["victim_pattern"].encode() + b"\n")
            sent = time.monotonic()
        if b"SWITCHED-" in output or b"assword" in output.split(b"Pattern", 1)[-1]:
            break
        if sent is not None and time.monotonic() - sent > limit:
            break
    took = None if sent is None else time.monotonic() - sent
    p.kill()
    p.wait()
    os.close(master)
    return {"seconds": took, "switched": ("SWITCHED-" + job["victim"]).encode() in output,
            "output": output.decode(errors="replace")}

def root_check():
    started = time.monotonic()
    try:
        done = subprocess.run([job["pam_try"], job["confdir"], "tpm-conv", job["victim"], "1"],
                              input=(job["victim_pattern"] + "\n").encode(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=job["limit"] + 10)
        status, output = done.returncode, done.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        status, output = None, "timed out"
    return {"seconds": time.monotonic() - started, "status": status, "output": output}

def victim_verify():
    done = subprocess.run(job["as_victim"] + [job["helper"], "verify", job["victim"]],
                          input=(job["victim_pattern"] + "\0").encode(), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, env={}, timeout=job["limit"] + 10)
    return {"status": done.returncode, "output": done.stdout.decode(errors="replace")}

def limited_verify(user_argv, user, pattern, limits):
    # The user's own verify under hard limits they set (prlimit --as=N), or after burning CPU up to just
    # below their own RLIMIT_CPU (the kernel's SIGKILL then lands inside the helper).
    done = subprocess.run(user_argv + ["prlimit"] + limits + ["--", job["helper"], "verify", user],
                          input=(pattern + "\0").encode(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          env={"PATH": "/usr/bin:/bin"}, timeout=job["limit"] + 10)
    return [done.returncode, done.stdout.decode(errors="replace").strip()]

BURN = "import os, resource, sys, time\n" \
       "resource.setrlimit(resource.RLIMIT_CPU, (1, 1))\n" \
       "target = float(sys.argv[1])\n" \
       "while time.process_time() < target: pass\n" \
       "os.execv(sys.argv[2], sys.argv[2:])\n"

def loaded(what):
    try:
        done = subprocess.run(["tpm2_getcap", "-T", job["tools_tcti"], what], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, timeout=5)
        return len([line for line in done.stdout.splitlines() if line.strip()])
    except subprocess.TimeoutExpired:
        return None  # swtpm busy with a connection nobody serves

result = {}
if job["mode"] == "many":
    # Many of the attacker's own helpers at once, each stopped when it talks to the TPM or has the TPM
    # conversation lock's file open (waiting for it); one that gets neither far holds nothing of the TPM.
    def at_the_tpm(pid):
        try:
            return talking(pid) or any(os.readlink("/proc/%d/fd/%s" % (pid, fd)).endswith(".tpm-conversation.lock")
                                       for fd in os.listdir("/proc/%d/fd" % pid))
        except OSError:
            return False
    helpers = []
    for _ in range(job["count"]):
        p = subprocess.Popen(job["as_attacker"] + [job["helper"], "verify", job["attacker"]],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={})
        p.stdin.write(job["attacker_input"].encode())
        p.stdin.close()
        helpers.append(p)
    stopped, waiting, started = [], list(helpers), time.monotonic()
    while waiting and time.monotonic() - started < 10:
        for p in list(waiting):
            if p.poll() is not None:
                waiting.remove(p)
            elif at_the_tpm(p.pid):
                os.kill(p.pid, signal.SIGSTOP)
                while p.poll() is None and state(p.pid) != "T":
                    time.sleep(0.001)
                # Seen at the TPM just before it let go: stopped after, it holds nothing; let it finish.
                if p.poll() is None and not at_the_tpm(p.pid):
                    os.kill(p.pid, signal.SIGCONT)
                    continue
                stopped.append(p)
                waiting.remove(p)
    result["stopped"] = len(stopped)
    time.sleep(job["settle"])
    result["caught"] = True
    result["still_there"] = sum(1 for p in stopped if p.poll() is None)
    result["sessions"] = loaded("handles-loaded-session")
    result["objects"] = loaded("handles-transient")
    for p in helpers:
        if p.poll() is None:
            p.kill()
        p.wait()
    result["victim"] = victim_verify()
elif job["mode"] == "rlimit":
    result["caught"] = True
    result["as"] = [[n] + limited_verify(job["as_victim"], job["victim"], job["victim_pattern"], ["--as=%d" % n])
                    for n in job["address_limits"]]
    cpu = []
    for burn in job["cpu_burns"]:
        done = subprocess.run(job["as_attacker"] + ["python3", "-c", BURN, str(burn), job["helper"], "verify",
                                                    job["attacker"]],
                              input=job["attacker_input"].encode(), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env={}, timeout=60)
        cpu.append([burn, done.returncode, done.stdout.decode(errors="replace").strip()])
    result["cpu"] = cpu
    result["victim"] = victim_verify()
elif job["mode"] == "other_su":
    result["caught"] = True
    result["su"] = victims_su(job["as_attacker"])
elif job["mode"] == "stop":
    stopped = caught(signal.SIGSTOP)
    result["caught"] = stopped is not None
    if stopped is not None:
        result["su"] = victims_su()
        result["root"] = root_check()
        stopped.kill()
        stopped.wait()
else:
    kills = 0
    for _ in range(job["kills"]):
        if caught(signal.SIGKILL) is not None:
            kills += 1
    result["caught"] = kills == job["kills"]
    result["victim"] = victim_verify()
    result["root"] = root_check()
print(json.dumps(result))
"""


class TPMConversationAttackTest(unittest.TestCase):
    ATTACKER = "ppconv1"
    VICTIM = "ppconv2"
    CONF = "/etc/security/pam_pattern.conf"

    @classmethod
    def setUpClass(cls):
        helper.take_run_lock()

    @classmethod
    def tearDownClass(cls):
        helper.release_run_lock()

    def setUp(self):
        self.tpm = tpm_for_helper(self)
        self.attacker = TestUser(self.ATTACKER)
        self.addCleanup(self.attacker.remove)
        self.victim = TestUser(self.VICTIM, password=VICTIM_PASSWORD)
        self.addCleanup(self.victim.remove)
        self.pam_lines = ["auth sufficient %s" % MODULE, "auth required pam_unix.so"]
        self.sandbox = helper.Namespace(self, service="su", pam_lines=self.pam_lines)
        records = enrol_in_store(
            self.tpm, self.sandbox.store, ((self.ATTACKER, ATTACKER_PATTERN), (self.VICTIM, VICTIM_PATTERN))
        )
        self.victim_record = records[self.VICTIM]
        self.confdir = os.path.join(self.sandbox.root, "pam.d")
        os.mkdir(self.confdir, 0o755)
        with open(os.path.join(self.confdir, "tpm-conv"), "w") as f:
            f.write("".join(line + "\n" for line in self.pam_lines))
        self.script = os.path.join(self.sandbox.root, "attack.py")
        with open(self.script, "w") as f:
            f.write(ATTACK)

    def attack(self, mode, kills=0, **extra):
        def as_user(user):
            return ["setpriv", "--reuid=%d" % user.uid, "--regid=%d" % user.uid, "--clear-groups"]

        job = {
            "mode": mode,
            "kills": kills,
            "helper": helper.HELPER_PATH,
            "attacker": self.ATTACKER,
            "victim": self.VICTIM,
            "as_attacker": as_user(self.attacker),
            "as_victim": as_user(self.victim),
            "attacker_input": ATTACKER_PATTERN + "\0",
            "victim_pattern": VICTIM_PATTERN,
            "pam_try": os.path.join(BUILD, "pam-try"),
            "confdir": self.confdir,
            "limit": TPM_BOUND + SLACK,
            "tools_tcti": self.tpm.tools_tcti,
        }
        job.update(extra)
        # deny/lock_after high: the attacker's killed checks stay counted (no free guess) and must not lock
        # the attacker out of the TPM before the 8th kill.
        conf = "deny = 100\nlock_after = 0\ntpm_tcti = %s\n" % self.tpm.tcti
        command = "printf %s > %s && chmod 0644 %s && python3 %s %s" % (
            shlex.quote(conf),
            self.CONF,
            self.CONF,
            self.script,
            shlex.quote(json.dumps(job)),
        )
        done = self.sandbox.run(command, timeout=600)
        self.assertEqual(done.returncode, 0, done.stderr)
        result = json.loads(done.stdout.decode().strip().splitlines()[-1])
        self.assertTrue(result["caught"], "the attacker's helper was never caught talking to the TPM")
        return result

    def assert_victim_untouched(self):
        self.assertEqual(self.sandbox.failures(self.VICTIM), 0)
        self.assertEqual(driver("counter", self.tpm.tcti, self.victim_record), (0, "0 50"))

    def test_a_stopped_helper_delays_another_users_su_and_roots_check_by_at_most_the_bound(self):
        result = self.attack("stop")
        su, root = result["su"], result["root"]
        self.assertIsNotNone(su["seconds"], su["output"])
        self.assertLessEqual(su["seconds"], TPM_BOUND + SLACK, su["output"])
        self.assertTrue(su["switched"], su["output"])  # the stopped helper held the TPM only for a while
        self.assertEqual(root["status"], 0, root["output"])
        self.assertLessEqual(root["seconds"], TPM_BOUND + SLACK, root["output"])
        self.assert_victim_untouched()

    def test_another_users_su_reaches_the_victims_tpm_pattern(self):
        # su run by someone else: the module hands the $tpm2$ record to the helper, which must see a root caller
        # (su's effective uid), not su's real uid asking about another user (then "unavailable", the password).
        su = self.attack("other_su")["su"]
        self.assertTrue(su["switched"], su["output"])
        self.assertNotIn("assword", su["output"].split("Pattern", 1)[-1], su["output"])
        self.assert_victim_untouched()

    def test_eight_killed_helpers_leave_the_other_users_pattern_working(self):
        result = self.attack("kill", kills=8)
        self.assertEqual(helper.parse_call(result["victim"]["output"].encode())[0], "accepted", result)
        self.assertEqual(result["victim"]["status"], helper.SUCCESS, result)
        self.assertEqual(result["root"]["status"], 0, result["root"]["output"])
        self.assert_victim_untouched()
        # The victim's own checks left nothing loaded (and what the killed ones left is gone).
        for what in ("handles-transient", "handles-loaded-session"):
            self.assertEqual(self.tpm.tool("tpm2_getcap", what).stdout.strip(), "", what)

    def test_many_stopped_helpers_hold_at_most_one_session_and_not_for_long(self):
        """Ten of the attacker's own helpers started at once and stopped (talking to the TPM or waiting for
        it): on a real TPM each would otherwise keep a session slot of the chip's few dozen. Only the lock
        holder ever has the TPM open, and every watchdog ends its stopped helper, so after the bound none is
        left, at most one session (the last holder's, flushed by the next conversation) is loaded, and the
        victim's pattern works."""
        result = self.attack("many", count=10, settle=TPM_BOUND + 1.5)
        self.assertGreaterEqual(result["stopped"], 3, result)
        self.assertEqual(result["still_there"], 0, result)
        self.assertIsNotNone(result["sessions"], "the TPM does not answer")
        self.assertLessEqual(result["sessions"], 1, result)
        self.assertLessEqual(result["objects"], 1, result)
        self.assertEqual(helper.parse_call(result["victim"]["output"].encode())[0], "accepted", result)
        self.assert_victim_untouched()

    def test_low_resource_limits_fail_closed_and_never_count_a_right_pattern(self):
        """The victim's own verify of their right pattern under a hard address-space limit from too small to
        load the TPM stack up to enough: accepted, or unavailable, never wrong, and nothing counted. The
        attacker's own verify killed by the kernel at their RLIMIT_CPU at points inside the helper (CPU burnt
        first, then the helper exec'd): the victim's pattern still works."""
        result = self.attack(
            "rlimit",
            address_limits=[
                6_000_000,
                9_000_000,
                10_000_000,
                11_000_000,
                12_000_000,
                14_000_000,
                20_000_000,
                64_000_000,
            ],
            cpu_burns=[0.90, 0.95, 0.97, 0.98, 0.99, 0.995],
        )
        for limit, status, output in result["as"]:
            self.assertIn(output, ("accepted", "unavailable", ""), (limit, status, output))
            self.assertNotEqual(status, helper.WRONG, (limit, output))
        self.assertEqual(result["as"][-1][1:], [helper.SUCCESS, "accepted"], result["as"])
        self.assertEqual(helper.parse_call(result["victim"]["output"].encode())[0], "accepted", result)
        self.assert_victim_untouched()


if __name__ == "__main__":
    unittest.main()
