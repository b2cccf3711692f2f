"""Shared by the helper suites: throwaway users, and a private mount namespace
in which the built pam_pattern_helper sits setuid root at its compiled-in
path with the store and state at their default paths, none of it visible
outside.

How the namespace is built (unshare --mount --propagation private, as root):
/usr/sbin, /var/lib and /etc/security are each "grafted": the real directory
is bind-mounted aside, a tmpfs goes over it, and the tmpfs is filled with
symlinks to every real entry (so unix_chkpwd and friends still work) plus our
own entries: /usr/sbin/pam_pattern_helper (a copy, root 4755),
/var/lib/pam_pattern and /etc/security/pam_pattern (bind mounts of the
test's own root-only directories, so the test reads them from outside).
A test PAM service file is bind-mounted over /etc/pam.d/<service> when given.
Nothing outside the namespace changes; users are made with useradd under the
real-client flock and removed with userdel -r even when a test fails.
"""
import fcntl
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("PAM_PATTERN_ROOT", os.path.abspath(os.path.join(HERE, "..", "..")))
BUILD = os.environ.get("PAM_PATTERN_BUILD", os.path.join(ROOT, "build"))
MODULE = os.path.join(BUILD, "pam_pattern.so")
PATTERNCTL = os.path.join(BUILD, "patternctl")
HELPER = os.path.join(BUILD, "pam_pattern_helper")
HELPER_PATH = "/usr/sbin/pam_pattern_helper"  # HelperRequest.installedPath

# Exit statuses (HelperExit).
SUCCESS, WRONG, LOCKED, NOT_ENROLLED, MALFORMED, UNAVAILABLE, REFUSED = range(7)

PATTERN = "2946138"
WRONG_PATTERN = "24678"

RUN_LOCK = "/run/lock/pam_pattern-real-clients.lock"
RUN_LOCK_WAIT = 300
_run_lock = None


def run(argv, **kwargs):
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("timeout", 60)
    return subprocess.run(argv, **kwargs)


def take_run_lock():
    """The flock every suite that makes users or touches /etc holds (shared machine)."""
    global _run_lock
    if os.geteuid() != 0:
        raise unittest.SkipTest("the helper tests need root (setuid binary, users, mount namespaces): run `make test` as root")
    for path in (HELPER, MODULE, PATTERNCTL):
        if not os.path.exists(path):
            raise AssertionError("not built: %s (make build, or set PAM_PATTERN_BUILD)" % path)
    _run_lock = os.open(RUN_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    deadline = time.monotonic() + RUN_LOCK_WAIT
    while True:
        try:
            fcntl.flock(_run_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise AssertionError("another suite holds %s for %d s" % (RUN_LOCK, RUN_LOCK_WAIT))
            time.sleep(1)


def release_run_lock():
    global _run_lock
    if _run_lock is not None:
        os.close(_run_lock)
        _run_lock = None


class TestUser:
    """A throwaway local user with a home, removed with userdel -r."""

    def __init__(self, name, password=None):
        self.name = name
        if run(["id", "-u", name]).returncode == 0:
            raise AssertionError("user %s exists already: refusing to reuse or delete it" % name)
        made = run(["useradd", "-m", "-s", "/bin/sh", name])
        if made.returncode != 0:
            raise AssertionError("useradd %s: %s" % (name, made.stderr.decode()))
        self.uid = int(run(["id", "-u", name]).stdout)
        if password is not None:
            done = run(["chpasswd"], input=("%s:%s\n" % (name, password)).encode())
            if done.returncode != 0:
                raise AssertionError("chpasswd: %s" % done.stderr.decode())

    def remove(self):
        run(["userdel", "-r", "-f", self.name])


class Sandbox:
    """Store, state and helper at their real paths, in a private mount namespace (see the module docstring)."""

    def __init__(self, test, service=None, pam_lines=None):
        self.test = test
        self.root = tempfile.mkdtemp(prefix="pam-pattern-helper-")
        test.addCleanup(shutil.rmtree, self.root, True)
        os.chmod(self.root, 0o755)  # the user follows the grafted symlinks through here
        self.store_dir = os.path.join(self.root, "store")
        self.state_dir = os.path.join(self.root, "state")
        os.mkdir(self.store_dir, 0o700)
        os.mkdir(self.state_dir, 0o700)
        self.store = os.path.join(self.store_dir, "patterns")
        self.helper = os.path.join(self.root, "pam_pattern_helper")
        shutil.copyfile(HELPER, self.helper)
        os.chmod(self.helper, 0o4755)
        self.service = service
        self.pam_file = None
        if service is not None:
            self.pam_file = os.path.join(self.root, "pam-" + service)
            self.write_pam(pam_lines or [])

    def write_pam(self, lines):
        with open(self.pam_file, "w") as f:
            f.write("".join(line.rstrip() + "\n" for line in lines))
        os.chmod(self.pam_file, 0o644)

    def patternctl(self, *argv, stdin=b""):
        return run([PATTERNCTL] + list(argv[:1]) + ["--store", self.store, "--state", self.state_dir]
                   + list(argv[1:]), input=stdin)

    def enrol(self, user, pattern=PATTERN):
        done = self.patternctl("set", "--cost", "1", user, stdin=("%s\n%s\n" % (pattern, pattern)).encode())
        self.test.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def status(self, user, *extra):
        done = self.patternctl("status", *extra, user)
        self.test.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        fields = {}
        for line in done.stdout.decode().splitlines():
            key, _, value = line.partition(": ")
            fields[key] = value
        return fields

    def failures(self, user):
        return int(self.status(user)["failures"])

    def setup_script(self):
        q = shlex.quote
        lines = [
            "set -e",
            "graft() {",
            '  real=%s/real$(echo "$1" | tr / _)' % q(self.root),
            '  mkdir -p "$real" && mount --bind "$1" "$real" && mount -t tmpfs -o mode=0755 tmpfs "$1"',
            '  for e in "$real"/* "$real"/.[!.]*; do if [ -e "$e" ] || [ -L "$e" ]; then ln -s "$e" "$1/"; fi; done',
            "}",
            "graft /usr/sbin",
            "cp %s %s && chmod 4755 %s" % (q(self.helper), HELPER_PATH, HELPER_PATH),
            "graft /var/lib",
            "mkdir -m 0700 /var/lib/pam_pattern && mount --bind %s /var/lib/pam_pattern" % q(self.state_dir),
            "graft /etc/security",
            "mkdir -m 0700 /etc/security/pam_pattern && mount --bind %s /etc/security/pam_pattern" % q(self.store_dir),
        ]
        if self.pam_file is not None:
            target = "/etc/pam.d/" + self.service
            lines.append("[ -e %s ] || { echo 'no %s to bind over' >&2; exit 99; }" % (target, target))
            lines.append("mount --bind %s %s" % (q(self.pam_file), target))
        return "\n".join(lines) + "\n"

    def argv(self, command):
        """argv that runs the shell `command` (as root) inside a fresh namespace."""
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                self.setup_script() + command]

    def run(self, command, **kwargs):
        return run(self.argv(command), **kwargs)


def as_user(user, command, env=None):
    """Shell text running `command` (a shell string) as the user: real and effective uid, no groups."""
    environment = {"PATH": "/usr/bin:/bin", "HOME": "/home/" + user.name, "USER": user.name}
    if env:
        environment.update(env)
    assignments = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in environment.items())
    return "env -i %s setpriv --reuid=%d --regid=%d --clear-groups sh -c %s" % (
        assignments, user.uid, user.uid, shlex.quote(command))


def helper_call(operation, user_name, stdin_expr="printf ''"):
    """Shell text: `stdin_expr | pam_pattern_helper operation user_name; echo rc`"""
    return "%s | %s %s %s; echo \"rc=$?\"" % (stdin_expr, HELPER_PATH, operation, shlex.quote(user_name))


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
