"""make bench: each TPM conversation of pam_pattern on the slowest chips' model (Tests/support/tpm_latency.py),
against its deadline (TPMLockBounds). swtpm behind the model's proxy, the TPM layer's driver (one process per
step, as the helper is); the time of a conversation is the model's, summed over its commands by the proxy.
Prints markdown rows for run-bench.sh's table. Usage: tpm_slow_chips.py BUILD_DIR"""

import collections
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests"))

from support.tpm import SoftwareTPM  # noqa: E402
from support.tpm_latency import SlowedTPM  # noqa: E402

LOCK_BOUNDS = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Sources/PatternCore/TPM/TPMLockBounds.swift"
)
PATTERN, WRONG = "2759148", "1478963"


def deadline(name):
    """A deadline of TPMLockBounds.swift, in milliseconds."""
    with open(LOCK_BOUNDS) as f:
        for line in f:
            if ("static let %s: Int32 = " % name) in line:
                return int(line.split("=")[1].strip())
    raise RuntimeError("no %s in TPMLockBounds.swift" % name)


def main(build):
    driver = os.path.join(build, "tpm-driver")
    tpm = SoftwareTPM()
    log_fd, log = tempfile.mkstemp(prefix="pam_pattern-tpm-model.")
    os.close(log_fd)
    slowed = SlowedTPM(tpm, 1.0, log_path=log)
    check, change = deadline("checkMilliseconds"), deadline("changeMilliseconds")
    # (what, deadline, driver arguments): each driver run's connections, in order, named by `what` (a list).
    key_store = os.path.join(tpm.directory, "key", "patterns")
    os.mkdir(os.path.dirname(key_store))
    rows = []  # [what, deadline, commands, milliseconds]

    def conversations():
        """The log's conversations so far: {connection number: (commands, milliseconds)}."""
        found = collections.OrderedDict()
        with open(log) as f:
            for line in f:
                number, _, milliseconds = line.split()
                count, total = found.get(number, (0, 0.0))
                found[number] = (count + 1, total + float(milliseconds))
        return found

    def run(names, limit, *args):
        """One driver run; its conversations named in order by `names` (None: part of the row before)."""
        before = set(conversations())
        done = subprocess.run([driver] + list(args), capture_output=True, text=True, env={}, timeout=60)
        if done.returncode not in (0, 1):
            raise RuntimeError("tpm-driver %s: %s" % (args[0], done.stdout))
        time.sleep(0.2)  # the proxy logs a command just after its answer
        new = [value for number, value in conversations().items() if number not in before]
        if len(new) != len(names):
            raise RuntimeError("tpm-driver %s: %d conversations, %d expected" % (args[0], len(new), len(names)))
        for name, (count, total) in zip(names, new):
            if name is None:
                rows[-1][2] += count
                rows[-1][3] += total
            else:
                rows.append([name, limit, count, total])
        return done.stdout.strip()

    try:
        run(["enrolment: the old session-key index deleted", "enrolment: a new session key (key, ECDH, two flash writes)"],
            change, "session-key", slowed.tcti, key_store)  # fmt: skip
        run(["enrolment: the session key proved"], change, "session-key", slowed.tcti, key_store)
        record = run(
            ["enrolment: the new index's write policy (and up to 4 strays, 0.14 s each)",
             "enrolment: the new index (key, ECDH, two flash writes)"],
            change, "enroll", slowed.tcti, "ppbench", PATTERN, "20",
        )  # fmt: skip
        run(["check, bound to the session key, right"], check, "check", slowed.tcti, "ppbench", PATTERN, record,
            "commands", key_store)  # fmt: skip
        run(["check, bound to the session key, wrong, with the count's read"], check, "check", slowed.tcti,
            "ppbench", WRONG, record, "commands", key_store)  # fmt: skip
        # The helper reads the count in the wrong check's own conversation: added to the row above.
        run([None], check, "counter", slowed.tcti, record)
        run(["check, salted (no session key), right"], check, "check", slowed.tcti, "ppbench", PATTERN, record)
        run(
            ["the old index's deletion (a page of the sweep: 4 such deletions, about 0.6 s)"],
            change,
            "remove",
            slowed.tcti,
            record,
        )
    finally:
        slowed.close()
        tpm.close()
        os.unlink(log)
    for name, limit, count, total in rows:
        ratio = total / limit
        print(
            "| TPM on the slowest chips' model: %s (%d commands) | %.0f ms | deadline: %d ms | %.2f | <= 0.50 (%s) |"
            % (name, count, total, limit, ratio, "ok" if ratio <= 0.5 else "OVER")
        )


if __name__ == "__main__":
    main(sys.argv[1])
