"""Private trees: a store, a state directory and a private pam.d in a temp directory, so no test touches
/etc/security, /var/lib or /etc/pam.d.

- PrivateTree: the tree and what every suite reads back from it (store bytes, state files).
- Fixture / FixtureCase: for the module through libpam (support.pam); enrols with libcrypt directly.
- Sandbox / SandboxCase: for patternctl (support.cli); the store sits in the tree's top directory.
- Tree: for the fault, concurrency and attack suites, which drive patternctl and pam_once as processes.
"""

import os
import shutil
import subprocess
import tempfile
import time
import unittest

from support import cli, formats
from support.fault import nth_call, pam_once
from support.pam import observing_stack, write_service
from support.paths import MODULE, PATTERNCTL, require_built, require_root, run

# Two strong patterns (patternctl refuses weak ones) and a wrong guess.
RIGHT = "2951836"
OTHER = "3816729"
WRONG = "1538"
# A second wrong pattern: the same one typed again with nothing in between is not counted.
OTHER_WRONG = "1472"


class PrivateTree:
    """A temp directory with a store directory (root, 0700), a state directory (0700) and a pam.d whose
    "other" service denies (libpam falls back to it for a missing service). Removed by close()."""

    def __init__(self, prefix="pam-pattern-test-", mode=0o700, base=None, store_in_root=False, with_confdir=True):
        self.root = base or tempfile.mkdtemp(prefix=prefix)
        os.chmod(self.root, mode)
        self.store_dir = self.root if store_in_root else os.path.join(self.root, "store")
        self.state_dir = os.path.join(self.root, "state")
        self.confdir = os.path.join(self.root, "pam.d")
        for directory in (self.store_dir, self.state_dir):
            os.makedirs(directory, 0o700, exist_ok=True)
        if with_confdir:
            os.makedirs(self.confdir, 0o755, exist_ok=True)
            write_service(self.confdir, "other", ["auth required pam_deny.so"])
        self.store = os.path.join(self.store_dir, "patterns")

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def options(self, extra=""):
        """The module options naming this tree's store and state."""
        return ("store=%s state=%s %s" % (self.store, self.state_dir, extra)).strip()

    def ctl_argv(self, *args):
        """patternctl with this tree's store and state, then args."""
        return [PATTERNCTL, "--store", self.store, "--state", self.state_dir] + [str(a) for a in args]

    def write_conf(self, text, mode=0o644):
        """Writes a configuration file (pam_pattern.conf's format) in the tree; returns its path."""
        path = os.path.join(self.root, "pam_pattern.conf")
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def store_bytes(self):
        """The store's bytes, or None when there is no store file."""
        try:
            with open(self.store, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def records(self):
        """{user: (hash, set_at)} of the store (ValueError if it is malformed)."""
        data = self.store_bytes()
        return {} if data is None else {u.decode(): (h, t) for u, h, t in formats.parse_store(data)}

    def state_path(self, user):
        return formats.state_file(self.state_dir, user)

    def state_bytes(self, user):
        return formats.read_state(self.state_dir, user)

    def failures(self, user):
        return formats.failures(self.state_dir, user)

    def write_state(self, user, failures, last_failure):
        formats.write_state(self.state_dir, user, failures, last_failure)

    def state_snapshot(self):
        """Every state file's name and bytes."""
        snapshot = {}
        for name in sorted(os.listdir(self.state_dir)):
            path = os.path.join(self.state_dir, name)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    snapshot[name] = f.read()
        return snapshot

    def tree_snapshot(self):
        """Names, modes and bytes of everything in the tree."""
        snapshot = {}
        for directory, _, files in os.walk(self.root):
            snapshot[directory] = os.stat(directory).st_mode
            for name in files:
                path = os.path.join(directory, name)
                with open(path, "rb") as f:
                    snapshot[path] = (os.stat(path).st_mode, f.read())
        return snapshot


class Fixture(PrivateTree):
    """A tree for the module through libpam; `hashes` holds what enrol() wrote."""

    def __init__(self):
        # 0755: su and sudo run as root, but the su test's pam file is bind-mounted from here.
        super().__init__(prefix="pam-pattern-test-", mode=0o755)
        self.hashes = {}

    def enrol(self, user, digits, cost=1):
        """Adds or replaces `user` (str) with the canonical pattern `digits` (str)."""
        self.hashes[user.encode()] = formats.yescrypt_hash(digits.encode(), cost)
        self.write_store()

    def write_store(self):
        data = b"".join(formats.store_line(u, h, int(time.time())) for u, h in self.hashes.items())
        temp = self.store + ".tmp-test"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, 0o600)
        os.rename(temp, self.store)

    def state_files(self):
        return sorted(os.listdir(self.state_dir))

    def service(self, options="", name="pattern-test"):
        """A stack that shows the module's own return code (support.pam.IGNORE_MARKER)."""
        write_service(self.confdir, name, observing_stack(self.options(options)))
        return name


class FixtureCase(unittest.TestCase):
    """The built module (else the test fails), root (else skipped), and a private Fixture (removed after
    the test) with ENROL = (user, pattern) enrolled at cost 1; ENROL = None leaves the store empty."""

    ENROL = ("alice", "1235789")

    def setUp(self):
        require_built(MODULE)
        require_root("the store and state must be root-owned")
        self.fixture = Fixture()
        self.addCleanup(self.fixture.close)
        if self.ENROL:
            self.fixture.enrol(*self.ENROL)


class Sandbox(PrivateTree):
    """A tree for patternctl: root-owned 0700, the store file in the top directory, no pam.d."""

    def __init__(self):
        super().__init__(prefix="patternctl-test-", store_in_root=True, with_confdir=False)
        self.directory = self.root
        self.state = self.state_dir

    def args(self):
        return ["--store", self.store, "--state", self.state]


class SandboxCase(unittest.TestCase):
    """The built patternctl (missing: the class fails), root (else skipped) and a private Sandbox per test."""

    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)

    def setUp(self):
        require_root("the store must be root-owned")
        self.box = Sandbox()
        self.addCleanup(self.box.close)

    def ctl(self, *argv, **kwargs):
        """patternctl on this test's Sandbox (its store and state after the command name)."""
        return cli.run(*(list(argv[:1]) + self.box.args() + list(argv[1:])), **kwargs)

    def set_pattern(self, user, pattern=cli.GOOD, cost="1", extra=()):
        result = self.ctl("set", "--cost", cost, *extra, user, stdin="%s\n%s\n" % (pattern, pattern))
        self.assertEqual(result.code, 0, result)
        return result

    def status(self, user, *extra):
        result = self.ctl("status", *extra, user)
        self.assertEqual(result.code, 0, result)
        # "key: value" lines; the list under "recent failed attempts:" is not one.
        return dict(line.split(": ", 1) for line in result.out.splitlines() if ": " in line and line[:1] != " ")


class Tree(PrivateTree):
    """A tree whose service "pattern-fault" (or any named one) runs the built module alone."""

    def __init__(self, base=None, module_options=""):
        super().__init__(prefix="pattern-fault-", base=base)
        self.service("pattern-fault", module_options)

    def service(self, name, module_options=""):
        with open(os.path.join(self.confdir, name), "w") as f:
            f.write("auth required %s %s\n" % (MODULE, self.options(module_options)))

    # --- the CLI ---------------------------------------------------------------------------------

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

    # --- the module (pam_once, support.fault) ----------------------------------------------------

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

    # --- snapshots (for strace's dry runs) -------------------------------------------------------

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


class PatternctlClient:
    """patternctl run as a tool on self.store and self.state_dir, the way an administrator would (bytes in,
    bytes out), for suites whose subject is something else (real clients, the helper)."""

    def patternctl(self, *argv, stdin=b""):
        return run(
            [PATTERNCTL] + list(argv[:1]) + ["--store", self.store, "--state", self.state_dir] + list(argv[1:]),
            input=stdin,
        )

    def enrol(self, user, pattern):
        done = self.patternctl("set", "--cost", "1", user, stdin=("%s\n%s\n" % (pattern, pattern)).encode())
        if done.returncode != 0:
            raise AssertionError("patternctl set %s failed: %r" % (user, done.stdout + done.stderr))

    def status(self, user, *extra):
        """`patternctl status` as {field: value}."""
        done = self.patternctl("status", *extra, user)
        if done.returncode != 0:
            raise AssertionError("patternctl status %s failed: %r" % (user, done.stdout + done.stderr))
        fields = {}
        for line in done.stdout.decode().splitlines():
            key, _, value = line.partition(": ")
            fields[key] = value
        return fields

    def failures(self, user):
        return int(self.status(user)["failures"].split()[0])
