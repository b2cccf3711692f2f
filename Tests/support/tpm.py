"""A software TPM (swtpm) for the TPM tests: private temp directory, unix sockets, ended by its PID."""

import os
import shutil
import signal
import subprocess
import tempfile
import time

from support.paths import TPM_DRIVER as DRIVER
from support.paths import require_built, require_tools
from support.tpm_latency import SlowedTPM

# PAM_PATTERN_TPM_MODEL=SCALE (`make test-tpm-slow`): every helper test's TPM answers at SCALE times the slowest
# chips' model (support.tpm_latency) instead of swtpm's own speed.
MODEL_SCALE = os.environ.get("PAM_PATTERN_TPM_MODEL")


def require_swtpm():
    """Fails without the built tpm-driver; skips without swtpm and tpm2-tools."""
    require_built(DRIVER)
    require_tools("swtpm", "tpm2_nvreadpublic")


def tpm_for_helper(case):
    """A software TPM for a helper test `case`, closed at its cleanup; its directory searchable by everyone,
    so test users' processes reach the socket too. With PAM_PATTERN_TPM_MODEL its `tcti` and `served` name the
    slowed proxy in front of it (`socket` stays swtpm's own)."""
    require_swtpm()
    tpm = SoftwareTPM()
    case.addCleanup(tpm.close)
    os.chmod(tpm.directory, 0o755)
    if MODEL_SCALE:
        slowed = SlowedTPM(tpm, float(MODEL_SCALE))
        case.addCleanup(slowed.close)
        tpm.tcti, tpm.served = slowed.tcti, slowed.socket
    return tpm


class SoftwareTPM:
    """One swtpm process; its NV state lives in a temp directory removed by close()."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="pam_pattern-swtpm.")
        self.socket = os.path.join(self.directory, "s")
        self.tcti = "swtpm:path=" + self.socket
        # What a test's own tpm2-tools use, always swtpm's socket: the slowed proxy has no control channel, which
        # tpm2-tools' swtpm TCTI needs, and what a test reads of the TPM must never be slowed or cut by it.
        self.tools_tcti = self.tcti
        # The socket `tcti` names (a proxy's, when one is in front).
        self.served = self.socket
        self.pid = None
        self.start()

    def start(self):
        pid_file = os.path.join(self.directory, "pid")
        subprocess.run(
            [
                "swtpm",
                "socket",
                "--tpm2",
                "--tpmstate",
                "dir=" + self.directory,
                "--server",
                "type=unixio,path=" + self.socket,
                "--ctrl",
                "type=unixio,path=" + self.socket + ".ctrl",
                "--flags",
                "not-need-init,startup-clear",
                "--pid",
                "file=" + pid_file,
                "--daemon",
            ],
            check=True,
        )
        for _ in range(200):
            if os.path.exists(pid_file) and os.path.exists(self.socket):
                with open(pid_file) as f:
                    text = f.read().strip()
                if text:
                    self.pid = int(text)
                    return
            time.sleep(0.01)
        raise RuntimeError("swtpm did not start")

    def kill(self):
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)  # its NV state is on disk after every command
            except ProcessLookupError:
                pass
            # Gone or a zombie (the daemon is not our child; whoever adopted it reaps it).
            for _ in range(500):
                try:
                    with open("/proc/%d/stat" % self.pid) as f:
                        if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                            break
                except FileNotFoundError:
                    break
                time.sleep(0.002)
            self.pid = None

    def close(self):
        self.kill()
        shutil.rmtree(self.directory, ignore_errors=True)

    def tool(self, *args, check=True):
        """A tpm2-tools command against this TPM (as root: owner auth is empty), on swtpm's own socket: what a test
        reads of the TPM is never slowed or cut by the proxy that stands for a slow chip."""
        return subprocess.run(
            [args[0], "-T", self.tools_tcti] + list(args[1:]),
            check=check,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=self.directory,
        )

    def defined_indexes(self):
        out = self.tool("tpm2_getcap", "handles-nv-index").stdout
        return [int(line.strip().lstrip("- "), 16) for line in out.splitlines() if line.strip()]


def enrol_in_store(tpm, store, patterns, limit="50"):
    """Puts each user's pattern into `tpm` (tpm-driver enroll, pinLimit `limit`) and writes a new root-only
    `store` naming them: {user: record}."""
    records, lines = {}, ""
    for user, pattern in patterns:
        status, record = driver("enroll", tpm.tcti, user, pattern, limit)
        if status != 0:
            raise AssertionError("tpm-driver enroll %s failed: %s" % (user, record))
        records[user] = record
        lines += "%s:%s:1764460000\n" % (user, record)
    fd = os.open(store, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, lines.encode())
    finally:
        os.close(fd)
    return records


def driver(*args, env=None):
    """Runs tpm-driver; returns (exit status, stdout stripped)."""
    result = subprocess.run(
        [DRIVER] + list(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env if env is not None else {},
        timeout=30,
    )
    return result.returncode, result.stdout.strip()
