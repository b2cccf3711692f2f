"""Store and throttle properties that need real processes, strace, root and mount namespaces.

Drives the test helper `store-writer` (Sources/store-writer: one PatternStore / GuessGate operation per
process). It is built here with `swift build -c release --product store-writer` in PAM_PATTERN_ROOT's
scratch directory (override with STORE_WRITER=/path/to/binary or SWIFT_SCRATCH=dir).

Run: PAM_PATTERN_ROOT=<repo> /usr/bin/python3 -m unittest discover -s Tests/StoreTests -v
"""

import ctypes
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.environ.get("PAM_PATTERN_ROOT", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
IS_ROOT = os.geteuid() == 0
TEMP_PREFIX_RE = re.compile(r"^\.patterns\.tmp\.")
# user:uid:hash:setAt, or user:hash:setAt (written before records carried the uid)
LINE_RE = re.compile(
    rb"([^:\x00-\x20\x7f]{1,100}):(?:(?:0|[1-9][0-9]{0,9}):)?(\$y\$[./0-9A-Za-z]+\$[./0-9A-Za-z]+\$[./0-9A-Za-z]+):(0|[1-9][0-9]{0,18})\n"
)

_writer = None


def writer():
    """Path of the store-writer binary, built once."""
    global _writer
    if _writer:
        return _writer
    if os.environ.get("STORE_WRITER"):
        _writer = os.environ["STORE_WRITER"]
        return _writer
    scratch = os.environ.get("SWIFT_SCRATCH", os.path.join(ROOT, ".build"))
    command = [
        "swift",
        "build",
        "-c",
        "release",
        "--package-path",
        ROOT,
        "--scratch-path",
        scratch,
        "--product",
        "store-writer",
    ]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(
        command[:-2] + ["--show-bin-path"], check=True, capture_output=True, text=True
    ).stdout.strip()
    _writer = os.path.join(bin_path, "store-writer")
    return _writer


def run(*args, prefix=(), check=True):
    result = subprocess.run(list(prefix) + [writer()] + [str(a) for a in args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"store-writer {args} failed {result.returncode}: {result.stderr}")
    return result


def parse_store(data):
    """The documented format, parsed independently of the Swift code: every line must match."""
    records, offset = [], 0
    while offset < len(data):
        match = LINE_RE.match(data, offset)
        if not match:
            raise ValueError(f"malformed store at byte {offset}")
        records.append((match.group(1), match.group(2), int(match.group(3))))
        offset = match.end()
    users = [r[0] for r in records]
    if len(users) != len(set(users)):
        raise ValueError("duplicate user")
    return records


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def temps(directory):
    return sorted(n for n in os.listdir(directory) if TEMP_PREFIX_RE.match(n))


def libcrypt_crypt(phrase, setting):
    """crypt(3) from the system libxcrypt through ctypes (independent of the Swift wrapper)."""
    libcrypt = ctypes.CDLL("libcrypt.so.1")
    libcrypt.crypt.restype = ctypes.c_char_p
    libcrypt.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    return libcrypt.crypt(phrase, setting)


@unittest.skipUnless(IS_ROOT, "needs root: root-owned files, strace injection, mount namespaces")
class StoreProcessTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pattern-store-")
        os.chmod(self.dir, 0o700)
        self.store = os.path.join(self.dir, "patterns")
        run("set", self.store, "alice", "1235789", 1, 1764460000)
        self.hash = parse_store(read(self.store))[0][1].decode()

    def tearDown(self):
        subprocess.run(["umount", "-l", os.path.join(self.dir, "mnt")], stderr=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)

    # --- hash format -------------------------------------------------------------------------------------

    def test_stored_hash_is_standard_crypt_verifiable_by_libxcrypt(self):
        line = read(self.store)
        user, hashed, set_at = parse_store(line)[0]
        self.assertEqual((user, set_at), (b"alice", 1764460000))
        self.assertTrue(hashed.startswith(b"$y$j75$"))  # yescrypt, cost 1 in the params field
        self.assertEqual(libcrypt_crypt(b"1235789", hashed), hashed)
        self.assertNotEqual(libcrypt_crypt(b"1235786", hashed), hashed)
        try:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                import crypt  # deprecated, still in 3.11
            self.assertEqual(crypt.crypt("1235789", hashed.decode()), hashed.decode())
        except ImportError:
            pass
        for cost, params in ((5, b"$y$j9T$"), (7, b"$y$jBT$")):
            run("set", self.store, f"u{cost}", "14789", cost, 1)
            record = [r for r in parse_store(read(self.store)) if r[0] == f"u{cost}".encode()][0]
            self.assertTrue(record[1].startswith(params))
            self.assertEqual(libcrypt_crypt(b"14789", record[1]), record[1])
            self.assertIn(f"cost={cost}", run("load", self.store).stdout)

    # --- injected faults ---------------------------------------------------------------------------------

    def assert_failed_write_left_store_intact(self, inject, before, errno_text):
        result = run(
            "save",
            self.store,
            "bob",
            self.hash,
            2,
            prefix=["strace", "-f", "-o", "/dev/null", "-e", inject],
            check=False,
        )
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn(errno_text, result.stderr)
        self.assertEqual(read(self.store), before)
        self.assertEqual(temps(self.dir), [])
        self.assertEqual(stat.S_IMODE(os.stat(self.store).st_mode), 0o600)

    def test_enospc_on_write_leaves_old_store(self):
        before = read(self.store)
        self.assert_failed_write_left_store_intact(
            "inject=write:error=ENOSPC:when=1", before, "write failed (errno 28)"
        )

    def test_eio_on_write_leaves_old_store(self):
        before = read(self.store)
        self.assert_failed_write_left_store_intact("inject=write:error=EIO:when=1", before, "write failed (errno 5)")

    def test_eio_on_fsync_leaves_old_store(self):
        before = read(self.store)
        self.assert_failed_write_left_store_intact("inject=fsync:error=EIO:when=1", before, "fsync failed (errno 5)")

    def test_exdev_on_rename_leaves_old_store(self):
        before = read(self.store)
        self.assert_failed_write_left_store_intact(
            "inject=renameat,renameat2:error=EXDEV", before, "rename failed (errno 18)"
        )

    def test_eio_on_directory_fsync_after_rename_reports_but_store_is_whole(self):
        # The second fsync is the directory's, after the rename: the new file is already in place, whole.
        result = run(
            "save",
            self.store,
            "bob",
            self.hash,
            2,
            prefix=["strace", "-f", "-o", "/dev/null", "-e", "inject=fsync:error=EIO:when=2"],
            check=False,
        )
        self.assertEqual(result.returncode, 1)
        self.assertEqual([r[0] for r in parse_store(read(self.store))], [b"alice", b"bob"])
        self.assertEqual(temps(self.dir), [])

    def test_real_full_tmpfs_leaves_old_store(self):
        # A tiny tmpfs in a private mount namespace: a genuinely full disk, nothing visible outside.
        script = f"""
set -e
mnt={self.dir}/mnt
mount -t tmpfs -o size=64k,mode=0700 tmpfs "$mnt"
W={writer()}
$W set "$mnt/patterns" alice 1235789 1 1
for i in $(seq 1 200); do $W save "$mnt/patterns" user$i '{self.hash}' $i || break; done
dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null || true
cp "$mnt/patterns" {self.dir}/before
set +e
$W save "$mnt/patterns" newcomer '{self.hash}' 9 2> {self.dir}/stderr
echo $? > {self.dir}/rc
set -e
cp "$mnt/patterns" {self.dir}/after
ls -a "$mnt" > {self.dir}/listing
rm "$mnt/filler"
$W save "$mnt/patterns" newcomer '{self.hash}' 9
ls -a "$mnt" > {self.dir}/listing2
cp "$mnt/patterns" {self.dir}/final
umount "$mnt"
"""
        os.mkdir(os.path.join(self.dir, "mnt"), 0o700)
        subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script], check=True)
        rc = int(read(os.path.join(self.dir, "rc")))
        stderr = read(os.path.join(self.dir, "stderr")).decode()
        self.assertEqual(rc, 1, stderr)
        self.assertIn("errno 28", stderr)
        self.assertEqual(read(os.path.join(self.dir, "after")), read(os.path.join(self.dir, "before")))
        parse_store(read(os.path.join(self.dir, "after")))
        listing = read(os.path.join(self.dir, "listing")).decode().split()
        self.assertFalse([n for n in listing if n.startswith(".patterns.tmp.")], listing)
        final = parse_store(read(os.path.join(self.dir, "final")))
        self.assertEqual(final[-1][0], b"newcomer")
        self.assertFalse(
            [n for n in read(os.path.join(self.dir, "listing2")).decode().split() if n.startswith(".patterns.tmp.")]
        )

    def test_kill_9_during_100_writes_never_tears_the_store(self):
        # A 20,000-user store (~2 MB) so a write takes long enough for kills to land inside it.
        lines = b"".join(b"user%d:%s:%d\n" % (i, self.hash.encode(), i) for i in range(20000))
        with open(self.store, "wb") as handle:
            handle.write(lines)
        current = read(self.store)
        rng = random.Random(1234)
        completed = killed_mid_way = stale_seen = 0
        for i in range(100):
            new_line = b"k%d:%s:%d\n" % (i, self.hash.encode(), i)
            proc = subprocess.Popen(
                [writer(), "save", self.store, f"k{i}", self.hash, str(i)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            time.sleep(rng.uniform(0, 0.06))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            after = read(self.store)
            if after == current + new_line:
                completed += 1
                current = after
            else:
                self.assertEqual(after, current, f"torn store after kill {i}")
                killed_mid_way += 1
            parse_store(after)
            stale_seen += len(temps(self.dir))
        # The next write sweeps whatever the kills left.
        run("save", self.store, "last", self.hash, 1)
        self.assertEqual(temps(self.dir), [])
        self.assertEqual(read(self.store), current + b"last:%s:1\n" % self.hash.encode())
        print(
            f"\n  kill -9: {completed} writes completed, {killed_mid_way} killed before rename, "
            f"{stale_seen} stale temp files seen across kills, 0 torn",
            file=sys.stderr,
        )
        self.assertGreater(killed_mid_way, 0)  # the kills did land inside writes

    # --- concurrency ---------------------------------------------------------------------------------------

    def concurrent_attempts(self, deny, unlock, lock_after):
        state = os.path.join(self.dir, "state")
        go = os.path.join(self.dir, "go")
        os.mkfifo(go, 0o600)
        environment = dict(os.environ, STORE_WRITER_GO=go)
        procs = [
            subprocess.Popen(
                [
                    writer(),
                    "attempt",
                    self.store,
                    state,
                    "alice",
                    "1236",
                    "1764460000",
                    str(deny),
                    str(unlock),
                    str(lock_after),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=environment,
            )
            for _ in range(64)
        ]
        # Barrier: every process blocks opening the FIFO; opening and closing it here releases them together.
        time.sleep(0.3)
        os.close(os.open(go, os.O_WRONLY))
        outputs = []
        for proc in procs:
            out, err = proc.communicate()
            self.assertEqual(proc.returncode, 0, err)
            outputs.append(out.strip())
        failures = int(run("state", state, "alice").stdout.split()[0])
        return outputs, failures

    def test_64_processes_all_counted_with_deny_100(self):
        outputs, failures = self.concurrent_attempts(100, 60, 200)
        self.assertEqual(failures, 64)
        self.assertTrue(all(o.startswith("rejected") for o in outputs), outputs)
        # Each process saw a distinct count: no lost update.
        self.assertEqual(len(set(outputs)), 64)

    def test_64_processes_default_policy_only_5_verified(self):
        outputs, failures = self.concurrent_attempts(5, 60, 20)
        self.assertEqual(failures, 5)
        self.assertEqual(sum(o.startswith("rejected") for o in outputs), 5)
        self.assertEqual(outputs.count("refused wait(secondsLeft: 60)"), 59, outputs)

    def test_failure_counted_even_if_killed_during_hash(self):
        # Cost 9 (~0.4 s hash): kill the attempt while it hashes; the failure is already on disk.
        run("set", self.store, "slow", "1235789", 9, 1)
        state = os.path.join(self.dir, "state")
        proc = subprocess.Popen(
            [writer(), "attempt", self.store, state, "slow", "1236", "100", "5", "60", "20"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.15)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertEqual(proc.returncode, -signal.SIGKILL)
        self.assertEqual(run("state", state, "slow").stdout.split(), ["1", "100"])


if __name__ == "__main__":
    unittest.main()
