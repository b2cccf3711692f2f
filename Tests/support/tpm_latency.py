"""The slowest real TPM chips, as a latency per TPM command, and a proxy that replays it in front of swtpm.

Each command pam_pattern sends is given the time the slowest published chip takes for it. Sources:

- wolfTPM's README, "TPM2 Benchmarks" (github.com/wolfSSL/wolfTPM, examples/bench), the figures bench/ also uses:
  ECC P-256 key creation 231.35 ms on an Infineon OPTIGA SLB9670 at 43 MHz (219.77 ST33TP SPI, 153.14 Microchip
  ATTPM20, 84 Nuvoton NPCT750, 51.87 Nations Z32H330); ECDH (ECDHE P-256 agree) 247.09 ms on the ST33TP
  (232.14 SLB9670, 63.93 ATTPM20, 29 NPCT750, 39 Nations). A salted session's start is one ECDH in the TPM.
- Light commands (a policy step, a read, a listing, a flush, an unsalted session): no chip publishes them.
  ESTIMATE: 20 ms. The slowest light-ish published figure is the ATTPM20's RSA-2048 public operation, 47 ms
  (a 2048-bit exponentiation, far more work than an HMAC); the SLB9670 does that in 8.9 ms and hands out 32
  random bytes in about 2.3 ms (14 KB/s). 20 ms is four times the 5 ms bench/ assumed before.
- Flash writes (NV_DefineSpace, NV_UndefineSpace, NV_Write): no chip publishes them either. ESTIMATE: 100 ms, a
  flash page erase and program on a smart-card controller plus the TPM's own NV bookkeeping, five light
  commands. (A PIN Fail index's NV_Read updates its counter; chips keep such counters with the index's other
  state, and it is modelled as light: a chip that writes flash on every wrong read adds its flash time to a
  wrong check.)

The model's figures are the chip's whole time per command: the proxy waits until that much has passed since the
command arrived, swtpm's own time included, so a loaded test machine does not slow the model down further
unless swtpm alone takes longer.
"""

import os
import socket
import struct
import subprocess
import sys
import threading
import time

# TPM 2.0 Library, Part 2, "TPM_CC" (the command codes pam_pattern sends).
NV_UNDEFINE_SPACE = 0x122
NV_DEFINE_SPACE = 0x12A
CREATE_PRIMARY = 0x131
NV_WRITE = 0x137
NV_READ = 0x14E
FLUSH_CONTEXT = 0x165
NV_READ_PUBLIC = 0x169
POLICY_COMMAND_CODE = 0x16C
POLICY_OR = 0x171
START_AUTH_SESSION = 0x176
GET_CAPABILITY = 0x17A
POLICY_GET_DIGEST = 0x189
POLICY_NV_WRITTEN = 0x18F

LIGHT_MS = 20.0  # estimate (see above)
FLASH_MS = 100.0  # estimate (see above)
KEY_CREATION_MS = 231.35  # SLB9670, wolfTPM README
ECDH_MS = 247.09  # ST33TP, wolfTPM README

# Milliseconds per command code; anything not named is light.
SLOWEST_CHIP = {
    CREATE_PRIMARY: KEY_CREATION_MS,
    NV_DEFINE_SPACE: FLASH_MS,
    NV_UNDEFINE_SPACE: FLASH_MS,
    NV_WRITE: FLASH_MS,
}

TPM_RH_NULL = 0x40000007


def command_milliseconds(command):
    """The slowest chip's time for one whole TPM command (header included): by its command code, and for
    TPM2_StartAuthSession by whether it is salted (its tpmKey handle is not TPM_RH_NULL: an ECDH)."""
    code = struct.unpack(">I", command[6:10])[0]
    if code == START_AUTH_SESSION and len(command) >= 14:
        salted = struct.unpack(">I", command[10:14])[0] != TPM_RH_NULL
        return ECDH_MS if salted else LIGHT_MS
    return SLOWEST_CHIP.get(code, LIGHT_MS)


def read_exact(sock, size):
    """Exactly `size` bytes from a stream socket (EOFError when it closes first)."""
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def read_message(sock):
    """One whole TPM command or response (its size is in its header)."""
    header = read_exact(sock, 10)
    return header + read_exact(sock, struct.unpack(">I", header[2:6])[0] - 10)


def serve(swtpm_socket, proxy_socket, scale, log_path=None):
    """Runs the proxy for ever: every connection to `proxy_socket` gets its own to swtpm, and each command's
    answer comes back no sooner than the model's time x `scale` after the command arrived. With `log_path`,
    one line per command: connection number, command code (hex), milliseconds it took here."""
    log = open(log_path, "a", buffering=1) if log_path else None
    lock = threading.Lock()
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(proxy_socket)
    os.chmod(proxy_socket, 0o666)
    listener.listen(16)

    def relay(client, number):
        tpm = socket.socket(socket.AF_UNIX)
        tpm.connect(swtpm_socket)
        try:
            while True:
                command = read_message(client)
                arrived = time.monotonic()
                tpm.sendall(command)
                response = read_message(tpm)
                left = arrived + command_milliseconds(command) * scale / 1000.0 - time.monotonic()
                if left > 0:
                    time.sleep(left)
                client.sendall(response)
                if log:
                    took = (time.monotonic() - arrived) * 1000.0
                    with lock:
                        log.write("%d %x %.1f\n" % (number, struct.unpack(">I", command[6:10])[0], took))
        except (EOFError, OSError):
            pass
        finally:
            tpm.close()
            client.close()

    number = 0
    while True:
        client, _ = listener.accept()
        number += 1
        threading.Thread(target=relay, args=(client, number), daemon=True).start()


class SlowedTPM:
    """The proxy as a process of its own (so it keeps time while a test's process waits), in front of
    `tpm` (support.tpm.SoftwareTPM): `tcti` names it. Ended by close()."""

    def __init__(self, tpm, scale=1.0, name="slowed", log_path=None):
        self.socket = os.path.join(tpm.directory, name)
        self.tcti = "swtpm:path=" + self.socket
        argv = [sys.executable, os.path.abspath(__file__), tpm.socket, self.socket, repr(float(scale))]
        if log_path:
            argv.append(log_path)
        env = {"PYTHONDONTWRITEBYTECODE": "1"}
        self.process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL)
        for _ in range(500):
            if os.path.exists(self.socket):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.01)
        self.close()
        raise RuntimeError("the slowed-TPM proxy did not start")

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        try:
            os.unlink(self.socket)
        except FileNotFoundError:
            pass


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None)
