"""Shared by the helper suites: throwaway users, and a private mount namespace
in which the built pam_pattern_helper sits setuid root at its compiled-in
path with the store and state at their default paths, none of it visible
outside.

How the namespace is built (unshare --mount --propagation private, as root):
/usr/sbin, /var/lib and /etc/security each get an overlay mount whose lower
layer is the real directory and whose upper layer is a directory of the test
(so unix_chkpwd and friends are still there). In the upper layers: a copy of
the built helper at /usr/sbin/pam_pattern_helper (root 4755), and the test's
root-only /var/lib/pam_pattern and /etc/security/pam_pattern, which the test
also reads from outside. Overlays, not bind mounts of the real directories:
removing the test's directory can then never reach a real file.
A test PAM service file is bind-mounted over /etc/pam.d/<service> when given.
Nothing outside the namespace changes; users are made with useradd under the
real-client flock and removed with userdel -r even when a test fails.
"""

import json
import os
import shlex
import shutil
import tempfile
import unittest

from support import system
from support.paths import BUILD, HELPER, MODULE, PATTERNCTL, PYTHONPATH, ROOT, require_built, run
from support.paths import INSTALLED_HELPER as HELPER_PATH
from support.sandbox import PatternctlClient
from support.formats import state_file
from support.guesses import wrong_patterns
from support.system import TestUser, as_user, setpriv_argv

# Exit statuses (HelperExit).
SUCCESS, WRONG, LOCKED, NOT_ENROLLED, MALFORMED, UNAVAILABLE, REFUSED = range(7)

PATTERN = "2946138"
WRONG_PATTERN = "24678"
# The shipped pam-auth-update profiles: the pattern before the password, and the line that clears its count after
# a success (pam-configs/).
PROFILES = ("pattern", "pattern-reset")


def take_run_lock():
    """The built helper, module and patternctl (else the suite fails); root and the shared flock (else skipped)."""
    require_built(HELPER, MODULE, PATTERNCTL)
    system.take_run_lock("the helper tests (setuid binary, users, mount namespaces)")


release_run_lock = system.release_run_lock


class Namespace(PatternctlClient):
    """Store, state and helper at their real paths, in a private mount namespace (see the module docstring)."""

    def __init__(self, test, service=None, pam_lines=None, helper_mode=0o4755, pam_d=None, profile=False):
        """pam_d: {name: lines} placed in /etc/pam.d (an overlay, so services the machine lacks can be added);
        profile: the shipped pam-auth-update profiles (pam-configs/*, naming the built module) enabled there, as
        the reference's on command enables them."""
        self.test = test
        self.root = tempfile.mkdtemp(prefix="pam-pattern-helper-")
        test.addCleanup(shutil.rmtree, self.root, True)
        os.chmod(self.root, 0o755)  # the user reads the drivers and service files kept here
        self.overlays = {"/usr/sbin": "usr_sbin", "/var/lib": "var_lib", "/etc/security": "etc_security"}
        self.profile = profile
        if pam_d or profile:
            # pam-auth-update also keeps its choices in /var/lib/pam and debconf's cache.
            self.overlays.update(
                {"/etc/pam.d": "etc_pamd", "/usr/share/pam-configs": "pam_configs", "/var/cache/debconf": "debconf"}
            )
        for name in self.overlays.values():
            for layer in ("up", "work"):
                os.makedirs(os.path.join(self.root, "overlay", name, layer))
        self.store_dir = os.path.join(self.root, "overlay", "etc_security", "up", "pam_pattern")
        self.state_dir = os.path.join(self.root, "overlay", "var_lib", "up", "pam_pattern")
        os.mkdir(self.store_dir, 0o700)
        os.mkdir(self.state_dir, 0o700)
        self.store = os.path.join(self.store_dir, "patterns")
        self.helper = os.path.join(self.root, "pam_pattern_helper")
        shutil.copyfile(HELPER, self.helper)
        self.helper_mode = helper_mode  # None: no helper at its path
        os.chmod(self.helper, helper_mode or 0o755)
        for name, lines in (pam_d or {}).items():
            path = os.path.join(self.root, "overlay", "etc_pamd", "up", name)
            with open(path, "w") as f:
                f.write("".join(line.rstrip() + "\n" for line in lines))
            os.chmod(path, 0o644)
        if profile:
            for name in PROFILES:
                with open(os.path.join(ROOT, "pam-configs", name)) as f:
                    text = f.read().replace("pam_pattern.so", MODULE)
                with open(os.path.join(self.root, "overlay", "pam_configs", "up", name), "w") as f:
                    f.write(text)
        self.service = service
        self.pam_file = None
        if service is not None:
            self.pam_file = os.path.join(self.root, "pam-" + service)
            self.write_pam(pam_lines or [])

    def write_file(self, name, text, mode=0o644):
        """A file of the test's (a script run in the namespace, say) in the sandbox's root; its path."""
        path = os.path.join(self.root, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def write_conf(self, text):
        """/etc/security/pam_pattern.conf as the namespace sees it."""
        path = os.path.join(self.root, "overlay", "etc_security", "up", "pam_pattern.conf")
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)

    def write_pam(self, lines):
        with open(self.pam_file, "w") as f:
            f.write("".join(line.rstrip() + "\n" for line in lines))
        os.chmod(self.pam_file, 0o644)

    def enrol(self, user, pattern=PATTERN):
        PatternctlClient.enrol(self, user, pattern)

    def setup_script(self):
        q = shlex.quote
        lines = ["set -e"]
        for directory, name in self.overlays.items():
            layers = os.path.join(self.root, "overlay", name)
            lines.append(
                "mount -t overlay overlay -o lowerdir=%s,upperdir=%s,workdir=%s %s"
                % (directory, q(os.path.join(layers, "up")), q(os.path.join(layers, "work")), directory)
            )
        if self.profile:
            lines.append("DEBIAN_FRONTEND=noninteractive pam-auth-update --enable %s >/dev/null" % " ".join(PROFILES))
            lines.append(
                "grep -q %s /etc/pam.d/common-auth || { echo 'profile not enabled' >&2; exit 99; }" % q(MODULE)
            )
        if self.helper_mode is not None:
            lines.append("cp %s %s && chmod %o %s" % (q(self.helper), HELPER_PATH, self.helper_mode, HELPER_PATH))
        if self.pam_file is not None:
            target = "/etc/pam.d/" + self.service
            lines.append("[ -e %s ] || { echo 'no %s to bind over' >&2; exit 99; }" % (target, target))
            lines.append("mount --bind %s %s" % (q(self.pam_file), target))
        return "\n".join(lines) + "\n"

    def argv(self, command):
        """argv that runs the shell `command` (as root) inside a fresh namespace."""
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", self.setup_script() + command]

    def run(self, command, **kwargs):
        return run(self.argv(command), **kwargs)


def helper_call(operation, user_name, stdin_expr="printf ''", helper_env=None):
    """Shell text: `stdin_expr | [env K=V...] pam_pattern_helper operation user_name; echo rc`"""
    prefix = ""
    if helper_env:
        prefix = "/usr/bin/env " + " ".join(shlex.quote("%s=%s" % kv) for kv in helper_env.items()) + " "
    return "%s | %s%s %s %s; echo \"rc=$?\"" % (stdin_expr, prefix, HELPER_PATH, operation, shlex.quote(user_name))


def parse_call(output):
    """(verdict line, exit status) from helper_call's output."""
    text = output.decode(errors="replace")
    lines = text.splitlines()
    status = None
    verdict = []
    for line in lines:
        if line.startswith("rc="):
            status = int(line[3:])
        else:
            verdict.append(line)
    return "\n".join(verdict), status


# Run as the attacker, a JSON job on argv[1]: runs `pam_pattern_helper OPERATION SELF` (their own set or verify,
# patterns back and forth) until SIGSTOP reaches a helper that holds the lock named by "lock" (its /proc/locks
# device:inode), or is refused while it does; reports which, then keeps the stopped helper until stdin closes.
LOCK_STOPPER = r"""
import json, os, signal, subprocess, sys
job = json.loads(sys.argv[1])
def holds(pid):
    with open("/proc/locks") as f:
        for line in f:
            fields = line.split()
            if "->" not in fields and len(fields) > 5 and fields[4] == str(pid) and fields[5] == job["lock"]:
                return True
    return False
patterns = job["patterns"]
# "patterns": the order the next set must give them in (the current pattern first).
outcome = {"kind": "missed", "tries": 0, "patterns": patterns}
for attempt in range(job["attempts"]):
    outcome["tries"] = attempt + 1
    # "helper_prefix": the helper run as the attacker while the stopper runs as root (a holder stopped by
    # anything at all); setpriv execs, so the pid is the helper's.
    p = subprocess.Popen(job.get("helper_prefix", []) + [job["helper"], job["operation"], job["user"]],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={})
    p.stdin.write("".join(field + "\0" for field in patterns[: job["fields"]]).encode())
    p.stdin.close()
    kind = None
    # "hold": the how-manieth hold of the lock by this helper to stop (a change checks the current pattern in
    # one conversation before its own); a release and a new hold quicker than a poll count as one.
    seen, held = 0, False
    while kind is None and p.poll() is None:
        held, was = holds(p.pid), held
        seen += held and not was
        if held and seen >= job.get("hold", 1):
            try:
                os.kill(p.pid, signal.SIGSTOP)
                kind = "stopped"
            except PermissionError:
                kind = "refused"
    if kind == "stopped" and not holds(p.pid):
        os.kill(p.pid, signal.SIGCONT)  # it let go just before the signal: try again
        kind = None
    if kind == "stopped":
        outcome["kind"] = "stopped"
        print(json.dumps(outcome), flush=True)
        sys.stdin.read()
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        sys.exit(0)
    status = p.wait()
    answer = p.stdout.read()
    outcome["last"] = [status, answer.decode(errors="replace")]
    # The current pattern is the one the last finished change set: a change stopped (and then killed) past its
    # store line has set the other one, so a "wrong" current pattern means the order turned.
    if answer.startswith(b"accepted") or answer.startswith(b"wrong"):
        patterns.reverse()
    if kind == "refused":
        outcome.update(kind="refused", status=status)
        break
print(json.dumps(outcome), flush=True)
sys.stdin.read()
"""

# For a driver run in the namespace: the failures the user's throttle state (job["state_file"]) holds now.
STATE_FAILURES = r'''
def state_failures():
    try:
        with open(job["state_file"], "rb") as f:
            data = f.read()
        return int(data[:10]) if data else 0
    except FileNotFoundError:
        return 0
'''

# Runs inside the namespace (as root) with a JSON job on argv[1]; spawns the helper as the user and reports.
DRIVER = (
    r'''
import json, os, random, signal, subprocess, sys, time
job = json.loads(sys.argv[1])
prefix = job["prefix"] + [job["helper"]]
'''
    + STATE_FAILURES
    + r'''
def input_for(index):
    # A different wrong pattern per call when given: the same one again would not be counted.
    inputs = job.get("inputs") or [job["input"]]
    return inputs[index % len(inputs)]
results = []
if job["kind"] == "parallel":
    procs = [subprocess.Popen(prefix + [job["operation"], job["user"]], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={})
             for _ in range(job["count"])]
    for index, p in enumerate(procs):
        p.stdin.write(input_for(index).encode("latin-1"))
        p.stdin.close()
    for p in procs:
        out = p.stdout.read()
        results.append([p.wait(), out.decode("latin-1")])
elif job["kind"] == "kill":
    for index, delay in enumerate(job["delays"]):
        before = state_failures()
        p = subprocess.Popen(prefix + [job["operation"], job["user"]], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={})
        start = time.monotonic()
        p.stdin.write(input_for(index).encode("latin-1"))
        p.stdin.close()
        while time.monotonic() - start < delay:
            time.sleep(0.001)
        os.kill(p.pid, signal.SIGKILL)
        out = p.stdout.read()
        status = p.wait()
        results.append([delay, status, out.decode("latin-1"), state_failures() - before])
elif job["kind"] == "signals":
    # The helper waits for its input; the caller sends it signals meant to stop or end it, then the input.
    # It starts with each at its default (not what `nohup make test` handed down), so ignoring is its own doing.
    def defaults():
        for name in job["signals"]:
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
    p = subprocess.Popen(prefix + [job["operation"], job["user"]], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={}, preexec_fn=defaults)
    time.sleep(0.3)
    states = []
    for name in job["signals"]:
        os.kill(p.pid, getattr(signal, name))
        time.sleep(0.1)
        with open("/proc/%d/stat" % p.pid) as f:
            states.append([name, f.read().rsplit(")", 1)[1].split()[0]])
    p.stdin.write(job["input"].encode("latin-1"))
    p.stdin.close()
    results = {"states": states, "status": p.wait(), "output": p.stdout.read().decode("latin-1")}
elif job["kind"] == "creds":
    # The helper waits for its input (it has read who called it); its ids and groups as the kernel has them.
    p = subprocess.Popen(prefix + [job["operation"], job["user"]], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={})
    time.sleep(0.5)
    with open("/proc/%d/status" % p.pid) as f:
        results = {k: v.split() for k, _, v in (line.partition(":") for line in f) if k in ("Uid", "Gid", "Groups")}
    p.stdin.write(job["input"].encode("latin-1"))
    p.stdin.close()
    results["status"] = p.wait()
elif job["kind"] == "stop":
    # The first call is stopped after `delay`; a second call for the same user must still finish.
    first = subprocess.Popen(prefix + [job["operation"], job["user"]], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={})
    first.stdin.write(input_for(0).encode("latin-1"))
    first.stdin.close()
    time.sleep(job["delay"])
    os.kill(first.pid, signal.SIGSTOP)
    start = time.monotonic()
    second = subprocess.run(prefix + [job["operation"], job["user"]], input=input_for(1).encode("latin-1"),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={}, timeout=60)
    took = time.monotonic() - start
    failures_while_stopped = state_failures()
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    results = {"status": second.returncode, "output": second.stdout.decode("latin-1"), "seconds": took,
               "failures_while_stopped": failures_while_stopped}
print(json.dumps(results))
'''
)


def drive(sandbox, job):
    """Runs DRIVER in the sandbox's namespace; returns its results."""
    path = os.path.join(sandbox.root, "driver.py")
    with open(path, "w") as f:
        f.write(DRIVER)
    done = sandbox.run("exec python3 %s %s" % (shlex.quote(path), shlex.quote(json.dumps(job))), timeout=300)
    if done.returncode != 0:
        raise AssertionError("driver failed: %r" % (done.stderr,))
    return json.loads(done.stdout)


# Runs inside the namespace, as root or as the user, with a JSON job on argv[1]: one pam_authenticate per
# answer through the real libpam (support.pam, found through PYTHONPATH), the way a screen locker calls it.
MODULE_DRIVER = r"""
import json, os, signal, sys
from support import pam as ph
job = json.loads(sys.argv[1])
if job.get("ignore_sigchld"):
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
def fds():
    return sorted(os.listdir("/proc/self/fd"))
before = fds()
out = []
for answer in job["answers"]:
    conversation = ph.Conversation([answer.encode()])
    result = ph.authenticate(job["confdir"], job["service"], job["user"], conversation)
    out.append({"code": ph.code_name(result.code),
                "messages": [[style, text.decode("latin-1")] for style, text in conversation.messages],
                "unexpected_prompts": conversation.unexpected_prompts})
print(json.dumps({"results": out, "fds_before": before, "fds_after": fds()}))
"""


def drive_module(
    sandbox, user, answers, options="", as_root=False, ignore_sigchld=False, target=None, timeout=120, tracer=""
):
    """pam_authenticate for `target` (default: the user) once per answer, in the sandbox's namespace, run by the
    user (the module then uses the helper) or by root (in-process), killed after `timeout` seconds. Returns the
    driver's report. `tracer`: a command line the driver runs under (strace ..., as the same user)."""
    confdir = os.path.join(sandbox.root, "pam.d")
    os.makedirs(confdir, exist_ok=True)
    os.chmod(confdir, 0o755)
    with open(os.path.join(confdir, "pattern-helper-test"), "w") as f:
        f.write(
            "auth [success=done ignore=ignore default=die] %s %s\n"
            "auth optional pam_echo.so pam_pattern:IGNORE\n"
            "auth required pam_permit.so\n"
            "account required pam_permit.so\n" % (MODULE, options)
        )
    os.chmod(os.path.join(confdir, "pattern-helper-test"), 0o644)
    path = os.path.join(sandbox.root, "module_driver.py")
    with open(path, "w") as f:
        f.write(MODULE_DRIVER)
    os.chmod(path, 0o644)
    job = {
        "confdir": confdir,
        "service": "pattern-helper-test",
        "user": target or user.name,
        "answers": list(answers),
        "ignore_sigchld": ignore_sigchld,
    }
    command = "%s/usr/bin/python3 %s %s" % (tracer, shlex.quote(path), shlex.quote(json.dumps(job)))
    environment = {"PAM_PATTERN_BUILD": BUILD, "PAM_PATTERN_ROOT": ROOT, "PYTHONPATH": PYTHONPATH}
    if as_root:
        command = "/usr/bin/env %s %s" % (" ".join(shlex.quote("%s=%s" % kv) for kv in environment.items()), command)
    else:
        command = as_user(user, command, env=environment)
    done = sandbox.run(command, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError("module driver failed (%d): %r" % (done.returncode, done.stderr))
    return json.loads(done.stdout)


class HelperCase(unittest.TestCase):
    """A throwaway USER (with PASSWORD, if set) and a Namespace per test (namespace() makes it), USER enrolled
    unless ENROL is False. The module holds the run lock: setUpModule = take_run_lock."""

    USER = None
    PASSWORD = None
    # The account's full name (GECOS), shown by the pad instead of the login name.
    FULL_NAME = None
    ENROL = True

    def namespace(self):
        return Namespace(self)

    def setUp(self):
        self.user = TestUser(self.USER, password=self.PASSWORD, full_name=self.FULL_NAME)
        self.addCleanup(self.user.remove)
        self.sandbox = self.namespace()
        if self.ENROL:
            self.sandbox.enrol(self.USER)

    def drive(self, kind, **fields):
        """DRIVER's job `kind` (parallel, kill, signals, creds, stop) for USER's own wrong guess through the helper run
        as USER; `fields` are the kind's own (count, delays, signals, delay) or override the defaults."""
        job = {
            "kind": kind,
            "prefix": setpriv_argv(self.user),
            "helper": HELPER_PATH,
            "operation": "verify",
            "user": self.USER,
            "input": WRONG_PATTERN + "\0",
            # Different wrong patterns for the calls of one job (a repeated one is not counted).
            "inputs": [wrong + "\0" for wrong in wrong_patterns(256, avoid=(PATTERN,))],
            "state_file": state_file("/var/lib/pam_pattern", self.USER),
        }
        job.update(fields)
        return drive(self.sandbox, job)
