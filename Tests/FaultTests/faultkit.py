"""Shared pieces of the fault-injection and concurrency suites: a private store/state/pam.d tree, the built
patternctl and module driven as separate processes, strace injection at the N-th matching call, and
parsers of the store and state formats written from FILEFORMAT.md (independent of the Swift code).

Environment: PAM_PATTERN_BUILD (pam_pattern.so, patternctl), PAM_PATTERN_ROOT (the repository).
"""

import atexit
import os
import re
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.environ.get("PAM_PATTERN_ROOT", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
BUILD = os.environ.get("PAM_PATTERN_BUILD", os.path.join(ROOT, "build"))
MODULE = os.path.join(BUILD, "pam_pattern.so")
PATTERNCTL = os.path.join(BUILD, "patternctl")
HERE = os.path.dirname(os.path.abspath(__file__))

PAM_SUCCESS = 0
PAM_AUTH_ERR = 7
PAM_AUTHINFO_UNAVAIL = 9
PAM_USER_UNKNOWN = 10

# Two strong patterns (patternctl refuses weak ones) and a wrong guess.
RIGHT = "2951836"
OTHER = "3816729"
WRONG = "1538"

# user:uid:hash:setAt, or user:hash:setAt as written before records carried the account's uid.
STORE_LINE = re.compile(
    rb"([^:\x00-\x20\x7f]{1,100}):(?:(?:0|[1-9][0-9]{0,9}):)?(\$y\$[./0-9A-Za-z]+\$[./0-9A-Za-z]+\$[./0-9A-Za-z]+):(0|[1-9][0-9]{0,18})\n"
)
STATE_RECORD = re.compile(rb"([0-9]{10}) ([0-9]{19})\n")


def require_root_and_build():
    """Skips the calling test class unless root with a built module, patternctl, gcc and strace."""
    if os.geteuid() != 0:
        raise unittest.SkipTest("needs root: root-owned store and state, strace injection, mount namespaces")
    for path in (MODULE, PATTERNCTL):
        if not os.path.exists(path):
            raise unittest.SkipTest("no %s: run `make build` first" % path)
    for tool in ("gcc", "strace", "unshare"):
        if shutil.which(tool) is None:
            raise unittest.SkipTest("needs %s" % tool)


_pam_once = None


def pam_once():
    """The one-authentication driver (pam_once.c), compiled once per test process."""
    global _pam_once
    if _pam_once is None:
        directory = tempfile.mkdtemp(prefix="pam-once-")
        atexit.register(shutil.rmtree, directory, True)
        binary = os.path.join(directory, "pam_once")
        subprocess.run(
            ["gcc", "-Wall", "-Wextra", "-O2", "-rdynamic", "-o", binary, os.path.join(HERE, "pam_once.c"), "-lpam"],
            check=True,
        )
        _pam_once = binary
    return _pam_once


def parse_store(data):
    """[(user, hash, set_at)] of a store, or ValueError if any byte is not part of a valid line."""
    records, offset = [], 0
    while offset < len(data):
        match = STORE_LINE.match(data, offset)
        if not match:
            raise ValueError("malformed store at byte %d: %r" % (offset, data[offset : offset + 80]))
        records.append((match.group(1), match.group(2), int(match.group(3))))
        offset = match.end()
    users = [r[0] for r in records]
    if len(users) != len(set(users)):
        raise ValueError("duplicate user")
    return records


def parse_state(data):
    """(failures, last_failure) of a state file; an empty file is (0, 0); ValueError if torn."""
    if data == b"":
        return (0, 0)
    match = STATE_RECORD.fullmatch(data)
    if not match:
        raise ValueError("torn or malformed state %r" % data)
    return (int(match.group(1)), int(match.group(2)))


class Tree:
    """A private tree: store dir (root, 0700), state dir, pam.d with a service using the built module."""

    def __init__(self, base=None, module_options=""):
        self.root = base or tempfile.mkdtemp(prefix="pattern-fault-")
        os.chmod(self.root, 0o700)
        self.store_dir = os.path.join(self.root, "store")
        self.state_dir = os.path.join(self.root, "state")
        self.confdir = os.path.join(self.root, "pam.d")
        for directory in (self.store_dir, self.state_dir, self.confdir):
            os.makedirs(directory, 0o700, exist_ok=True)
        self.store = os.path.join(self.store_dir, "patterns")
        self.service("pattern-fault", module_options)
        with open(os.path.join(self.confdir, "other"), "w") as f:
            f.write("auth required pam_deny.so\n")

    def service(self, name, module_options=""):
        with open(os.path.join(self.confdir, name), "w") as f:
            f.write("auth required %s store=%s state=%s %s\n" % (MODULE, self.store, self.state_dir, module_options))

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)

    # --- the CLI ---------------------------------------------------------------------------------

    def ctl_argv(self, *args):
        return [PATTERNCTL, "--store", self.store, "--state", self.state_dir] + [str(a) for a in args]

    def ctl(self, *args, input=None, prefix=(), check=False, timeout=60):
        result = subprocess.run(list(prefix) + self.ctl_argv(*args), input=input, capture_output=True, timeout=timeout)
        if check and result.returncode != 0:
            raise AssertionError("patternctl %s failed (%d): %s" % (args, result.returncode, result.stderr))
        return result

    def set_argv(self, user):
        return self.ctl_argv("set", user, "--cost", "1")

    def set(self, user, pattern=RIGHT, prefix=(), check=False):
        return self.ctl(
            "set", user, "--cost", "1", input=("%s\n%s\n" % (pattern, pattern)).encode(), prefix=prefix, check=check
        )

    # --- the module --------------------------------------------------------------------------------

    def auth_argv(self, user, answer, service="pattern-fault"):
        return [pam_once(), self.confdir, service, user, answer]

    def auth(self, user, answer, prefix=(), service="pattern-fault", env=None):
        """(PAM code, transcript) of one authentication in its own process."""
        result = subprocess.run(
            list(prefix) + self.auth_argv(user, answer, service), capture_output=True, timeout=60, env=env
        )
        if result.returncode != 0:
            raise AssertionError(
                "pam_once exited %d (signal %s): %s"
                % (result.returncode, -result.returncode if result.returncode < 0 else "-", result.stderr)
            )
        lines = result.stdout.decode(errors="replace").splitlines()
        codes = [l for l in lines if l.startswith("rc=")]
        if not codes:
            raise AssertionError("pam_once printed no result: %r" % result.stdout)
        return int(codes[-1][3:]), lines[:-1]

    # --- files -------------------------------------------------------------------------------------

    def store_bytes(self):
        try:
            with open(self.store, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def records(self):
        data = self.store_bytes()
        return {} if data is None else {u.decode(): (h, t) for u, h, t in parse_store(data)}

    def state_path(self, user):
        return os.path.join(self.state_dir, user.encode().hex())

    def state_bytes(self, user):
        try:
            with open(self.state_path(user), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def failures(self, user):
        data = self.state_bytes(user)
        return 0 if data is None else parse_state(data)[0]

    def write_state(self, user, failures, last):
        fd = os.open(self.state_path(user), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, b"%010d %019d\n" % (failures, last))
        finally:
            os.close(fd)

    def snapshot(self):
        """A copy of the store and state directories (restore() puts it back)."""
        copy = tempfile.mkdtemp(prefix="pattern-snapshot-")
        for name in ("store", "state"):
            shutil.copytree(os.path.join(self.root, name), os.path.join(copy, name))
        return copy

    def restore(self, copy):
        for name in ("store", "state"):
            shutil.rmtree(os.path.join(self.root, name))
            shutil.copytree(os.path.join(copy, name), os.path.join(self.root, name))
        shutil.rmtree(copy)

    def aim(self, argv, syscall, path_part, input=None, occurrence=1):
        """nth_call on a dry run whose effects are undone afterwards."""
        copy = self.snapshot()
        try:
            return nth_call(argv, syscall, path_part, input=input, occurrence=occurrence)
        finally:
            self.restore(copy)

    def temps(self):
        return sorted(n for n in os.listdir(self.store_dir) if ".tmp." in n)


def nth_call(argv, syscall, path_part, input=None, env=None, occurrence=1):
    """1-based index, among all `syscall` calls of a dry run of argv, of the `occurrence`-th one whose
    descriptor (or path) names a file containing `path_part`. strace's `when=` counts calls of that syscall, so this
    aims an injection at one exact write, fsync or rename without depending on the program's output."""
    log = tempfile.mktemp(prefix="strace-")
    try:
        subprocess.run(
            ["strace", "-f", "-y", "-qq", "-e", "trace=" + syscall, "-o", log] + list(argv),
            input=input,
            capture_output=True,
            timeout=60,
            env=env,
        )
        index = 0
        seen = 0
        with open(log, errors="replace") as f:
            for line in f:
                # "[pid N] write(3</path>, ..." or "N write(..." with -f and -o
                match = re.search(r"\b(%s)\((.*)" % syscall.replace(",", "|"), line)
                if not match or "resumed>" in line:
                    continue
                index += 1
                if path_part in match.group(2):
                    seen += 1
                    if seen == occurrence:
                        return index
        raise AssertionError("no %s on a path containing %r in a dry run of %s" % (syscall, path_part, argv))
    finally:
        if os.path.exists(log):
            os.unlink(log)


def inject(syscall, error, when):
    """The strace prefix that fails the `when`-th call of `syscall` with `error` (and only that one)."""
    return [
        "strace",
        "-f",
        "-qq",
        "-o",
        "/dev/null",
        "-e",
        "trace=" + syscall,
        "-e",
        "inject=%s:error=%s:when=%d" % (syscall, error, when),
    ]
