"""The machine itself, touched safely: throwaway users, the flock every suite holds while it makes users or
touches /etc, the /etc snapshot that proves nothing was left behind, programs on a pty, and syslog captured
in a private mount namespace.

Other helpers run these suites on the same machine at the same time: a suite that creates users or changes
anything under /etc holds RUN_LOCK (take_run_lock in setUpModule, release_run_lock in tearDownModule) and
uses user names of its own.
"""

import ctypes
import fcntl
import hashlib
import os
import pickle
import pty
import re
import select
import shlex
import signal
import socket
import sys
import time
import traceback
import unittest

from support.paths import require_root, run

RUN_LOCK = "/run/lock/pam_pattern-real-clients.lock"
RUN_LOCK_WAIT = 300
_run_lock = None


def take_run_lock(why="throwaway users, files under /etc, private mount namespaces"):
    """Skips unless root; then waits (up to RUN_LOCK_WAIT s) for the flock other suites and worktrees hold."""
    global _run_lock
    require_root(why)
    if _run_lock is not None:
        return
    _run_lock = os.open(RUN_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    started = time.monotonic()
    while True:
        try:
            fcntl.flock(_run_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if time.monotonic() - started > 1:
                sys.stderr.write(
                    "(waited %.0f s for %s: another suite held it)\n" % (time.monotonic() - started, RUN_LOCK)
                )
            return
        except BlockingIOError:
            if time.monotonic() - started >= RUN_LOCK_WAIT:
                os.close(_run_lock)
                _run_lock = None
                raise AssertionError("another suite holds %s for %d s" % (RUN_LOCK, RUN_LOCK_WAIT))
            time.sleep(1)


def release_run_lock():
    global _run_lock
    if _run_lock is not None:
        os.close(_run_lock)  # releases the flock
        _run_lock = None


def remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


class TestUser:
    """A throwaway local user with /bin/sh (login starts it), a full name (GECOS) if given and, unless home=False, a
    home; removed with userdel -r even when half-made. An existing user of that name is never reused or deleted."""

    def __init__(self, name, password=None, home=True, full_name=None):
        self.name = name
        if run(["id", "-u", name]).returncode == 0:
            raise AssertionError("user %s exists already: refusing to reuse or delete it" % name)
        comment = ["-c", full_name] if full_name else []
        made = run(["useradd", "-m" if home else "-M", "-s", "/bin/sh"] + comment + [name])
        if made.returncode != 0:
            self.remove()
            raise AssertionError("useradd %s: %s" % (name, made.stderr.decode()))
        self.uid = int(run(["id", "-u", name]).stdout)
        if password is not None:
            done = run(["chpasswd"], input=("%s:%s\n" % (name, password)).encode())
            if done.returncode != 0:
                self.remove()
                raise AssertionError("chpasswd: %s" % done.stderr.decode())

    def remove(self):
        # -f: even if a test left a process of the user behind.
        run(["userdel", "-r", "-f", self.name])
        remove("/run/sudo/ts/" + self.name)


# What must be byte-identical after the suite: directories are walked.
WATCHED = (
    "/etc/pam.d",
    "/etc/sudoers.d",
    "/etc/sudoers",
    "/etc/passwd",
    "/etc/shadow",
    "/etc/group",
    "/etc/gshadow",
    "/etc/subuid",
    "/etc/subgid",
)
# Written by login/su; a test replaces them with empty files inside its namespace.
LOGIN_RECORDS = ("/var/log/btmp", "/var/log/wtmp", "/var/log/lastlog", "/var/log/faillog", "/run/utmp", "/var/run/utmp")


def snapshot():
    """{path: sha256 or 'missing' or 'link:target'} for everything in WATCHED."""
    out = {}

    def add(path):
        if os.path.islink(path):
            out[path] = "link:" + os.readlink(path)
        elif os.path.isfile(path):
            with open(path, "rb") as f:
                out[path] = hashlib.sha256(f.read()).hexdigest()
        elif not os.path.exists(path):
            out[path] = "missing"

    for top in WATCHED:
        add(top)
        if os.path.isdir(top) and not os.path.islink(top):
            for directory, dirs, files in os.walk(top):
                for name in sorted(dirs + files):
                    add(os.path.join(directory, name))
                    if name in dirs and not os.path.islink(os.path.join(directory, name)):
                        out[os.path.join(directory, name)] = "dir"
    return out


def as_user(user, command, env=None):
    """Shell text running `command` (a shell string) as the user: real and effective uid, no groups."""
    environment = {"PATH": "/usr/bin:/bin", "HOME": "/home/" + user.name, "USER": user.name}
    if env:
        environment.update(env)
    assignments = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in environment.items())
    return "/usr/bin/env -i %s /usr/bin/setpriv --reuid=%d --regid=%d --clear-groups /bin/sh -c %s" % (
        assignments,
        user.uid,
        user.uid,
        shlex.quote(command),
    )


def as_user_at_display(user, command):
    """as_user for an X client: DISPLAY is the calling script's $DISPLAY, set once Xvfb -displayfd has chosen
    the display (so it is not known when this text is made)."""
    text = as_user(user, command, env={"DISPLAY": "DISPLAY_VALUE"})
    return text.replace("DISPLAY=DISPLAY_VALUE", 'DISPLAY="$DISPLAY"')


def setpriv_argv(user):
    """argv prefix running the rest as the user (real and effective uid, no groups), environment untouched."""
    return ["setpriv", "--reuid=%d" % user.uid, "--regid=%d" % user.uid, "--clear-groups"]


class PtySession:
    """One run of argv on a fresh pty (the child leads its own session).

    `steps` is a list of (expected bytes, reply bytes or None): wait until
    the expected text appears after the previous match, then type the reply.
    `on_prompt` (marker, reply) answers every appearance of marker, wherever
    it comes (to type the right pattern should a locked user be prompted
    after all). `stop_on`: give up at once when this text appears (a shell
    prompt where a refusal was expected), instead of waiting for the timeout.
    After the last step: read to EOF (end="eof") or kill the session
    (end="kill", for login, which would ask for a user name again).
    """

    def __init__(self, argv, steps, end="eof", timeout=30, on_prompt=None, stop_on=None):
        self.output = b""
        self.reached = 0  # steps whose expected text was seen
        self.prompts_answered = 0
        self.stopped = False  # stop_on seen
        self.status = None
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.execvp(argv[0], argv)
            finally:
                os._exit(127)
        position = 0
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                if self.reached == len(steps) and end == "kill":
                    break
                ready, _, _ = select.select([fd], [], [], 0.2)
                if not ready:
                    continue
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # EIO: every holder of the pty is gone
                    break
                if not chunk:
                    break
                self.output += chunk
                if on_prompt is not None and self.output.count(on_prompt[0]) > self.prompts_answered:
                    self.prompts_answered += 1
                    os.write(fd, on_prompt[1])
                while self.reached < len(steps):
                    expected, reply = steps[self.reached]
                    found = self.output.find(expected, position)
                    if found < 0:
                        break
                    position = found + len(expected)
                    self.reached += 1
                    if reply is not None:
                        os.write(fd, reply)
                if stop_on is not None and stop_on in self.output:
                    self.stopped = True
                    break
        finally:
            # Kill before closing: closing the master first would SIGHUP the
            # child and hide how it really ended.
            self.timed_out = time.monotonic() >= deadline
            if end == "kill" or self.reached < len(steps) or self.stopped or self.timed_out:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            os.close(fd)
            _, self.status = os.waitpid(pid, 0)

    def after(self, marker):
        """The output after the first `marker` (b"" if it never came)."""
        parts = self.output.split(marker, 1)
        return parts[1] if len(parts) == 2 else b""

    def __repr__(self):
        return "<pty session: %d steps reached, status %r, output %r>" % (self.reached, self.status, self.output)


class Terminal:
    """One command on its own pty, driven step by step (expect/send), for attacks that act mid-run."""

    def __init__(self, argv):
        self.output = b""
        self.position = 0
        self.started = time.monotonic()
        self.status = None
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execvp(argv[0], argv)
            finally:
                os._exit(127)

    def _read(self, wait):
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 4096)
        except OSError:
            return False
        if not chunk:
            return False
        self.output += chunk
        return True

    def expect(self, text, timeout):
        """True once `text` appears after the previous match, False after `timeout` seconds or EOF."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.output.find(text, self.position)
            if found >= 0:
                self.position = found + len(text)
                return True
            if time.monotonic() >= deadline or not self._read(min(0.1, deadline - time.monotonic())):
                return False

    def send(self, data):
        os.write(self.fd, data)

    def finish(self, timeout=30):
        """Reads to EOF and reaps the child; kills it if it does not end in time. Returns the wait status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(0.1):
            pass
        self.kill()
        return self.status

    def kill(self):
        if self.status is not None:
            return
        for sig in (signal.SIGKILL, signal.SIGCONT):
            try:
                os.killpg(self.pid, sig)
            except ProcessLookupError:
                pass
        try:
            os.close(self.fd)
        except OSError:
            pass
        _, self.status = os.waitpid(self.pid, 0)


CLONE_NEWNS = 0x00020000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
LOG_CRIT, LOG_ERR, LOG_NOTICE = 2, 3, 5


def capture_syslog(actions):
    """Runs actions() in a private namespace with /dev/log captured; returns [(severity, text)]."""
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    if libc.unshare(CLONE_NEWNS) != 0:
        raise unittest.SkipTest("unshare(CLONE_NEWNS): %s" % os.strerror(ctypes.get_errno()))
    if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        raise OSError(ctypes.get_errno(), "mount --make-rprivate /")
    if libc.mount(b"tmpfs", b"/dev", b"tmpfs", 0, b"mode=0755") != 0:
        raise OSError(ctypes.get_errno(), "mount tmpfs /dev")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    with listener:
        listener.bind("/dev/log")
        actions()
        listener.setblocking(False)
        lines = []
        while True:
            try:
                data = listener.recv(65536)
            except BlockingIOError:
                break
            match = re.match(rb"<(\d+)>(.*)", data, re.S)
            if match:
                lines.append((int(match.group(1)) & 7, match.group(2)))
    return lines


def in_child(function, private_mounts=False):
    """Runs function() in a forked child and returns its (picklable) result; with private_mounts, in a mount
    namespace of its own (its mounts vanish with it).

    Raises AssertionError if the child died from a signal (the module crashed its host), raised (a failed
    assertion or a SkipTest: the traceback is in the message), or exited without a result.
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        status = 0
        try:
            if private_mounts:
                libc = ctypes.CDLL("libc.so.6", use_errno=True)
                if libc.unshare(CLONE_NEWNS) != 0:
                    raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
                if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
                    raise OSError(ctypes.get_errno(), "mount --make-rprivate /")
            data = pickle.dumps(("ok", function()))
        except BaseException as error:  # report, never return into the test runner
            data = pickle.dumps(("error", "".join(traceback.format_exception(error))))
            status = 3
        with os.fdopen(write_end, "wb") as out:
            out.write(data)
        os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as source:
        data = source.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        raise AssertionError("host process killed by signal %s" % signal.Signals(os.WTERMSIG(status)).name)
    if not data:
        raise AssertionError("child exited with status %d and no result" % os.WEXITSTATUS(status))
    kind, value = pickle.loads(data)
    if kind != "ok":
        raise AssertionError("in the child%s:\n%s" % (" (private mount namespace)" if private_mounts else "", value))
    return value
