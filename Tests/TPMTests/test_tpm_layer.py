"""The TPM layer (Sources/PatternTPM, Sources/CPatternTPM) against swtpm, through build/tpm-driver.

Each test gets a fresh software TPM. Exit statuses of the driver: 0 right/done, 1 wrong,
2 limit reached, 3 unavailable.
"""

import hashlib
import hmac
import os
import re
import subprocess
import unittest

from support.paths import MODULE, require_built
from support.tpm import DRIVER, SoftwareTPM, driver, require_swtpm

RIGHT, WRONG, LIMIT, UNAVAILABLE = 0, 1, 2, 3
Z = "1235789"
OTHER = "1236"
FIRST_HANDLE = 0x01A50000


def parse_record(text):
    m = re.fullmatch(r"\$tpm2\$([0-9a-f]{8})\$([0-9a-f]{68})\$([0-9a-f]{32})", text)
    if m is None:
        raise AssertionError("not a record: %r" % text)
    return int(m.group(1), 16), m.group(2), m.group(3)


def write_policy_branches(record):
    """PolicyCommandCode(NV_Write) + PolicyNvWritten(NO), and the record's tag, computed here."""
    write_once = hashlib.sha256(bytes(32) + bytes.fromhex("0000016c") + bytes.fromhex("00000137")).digest()
    write_once = hashlib.sha256(write_once + bytes.fromhex("0000018f") + b"\x00").digest()
    tag = hashlib.sha256(b"pam_pattern tpm record v1\0" + bytes.fromhex(parse_record(record)[2])).digest()
    return write_once, tag


def write_policy(record):
    """PolicyOR of the two branches."""
    write_once, tag = write_policy_branches(record)
    return hashlib.sha256(bytes(32) + bytes.fromhex("00000171") + write_once + tag).hexdigest()


def expected_auth(salt_hex, user, digits):
    message = b"pam_pattern tpm pin v1\0" + user.encode() + b"\0" + digits.encode()
    return hmac.new(bytes.fromhex(salt_hex), message, hashlib.sha256).hexdigest()


class TPMLayerTest(unittest.TestCase):
    def setUp(self):
        require_swtpm()
        self.tpm = SoftwareTPM()
        self.addCleanup(self.tpm.close)

    def enroll(self, user="alice", digits=Z, limit=3, tpm=None):
        status, out = driver("enroll", (tpm or self.tpm).tcti, user, digits, str(limit))
        self.assertEqual(status, 0, out)
        parse_record(out)
        return out

    def check(self, record, user="alice", digits=Z, tpm=None):
        return driver("check", (tpm or self.tpm).tcti, user, digits, record)

    def counter(self, record, tpm=None):
        status, out = driver("counter", (tpm or self.tpm).tcti, record)
        self.assertEqual(status, 0, out)
        failures, limit = out.split()
        return int(failures), int(limit)

    def lockout_counter(self):
        out = self.tpm.tool("tpm2_getcap", "properties-variable").stdout
        return int(re.search(r"TPM2_PT_LOCKOUT_COUNTER: (0x[0-9A-Fa-f]+)", out).group(1), 16)

    # enrolment

    def test_enroll_defines_a_pin_fail_index_with_the_write_once_policy(self):
        record = self.enroll(limit=5)
        handle, name, _ = parse_record(record)
        self.assertEqual(handle, FIRST_HANDLE)
        public = self.tpm.tool("tpm2_nvreadpublic", hex(handle)).stdout
        self.assertIn("name: " + name, public)
        attributes = re.search(r"friendly: (\S+)", public.split("attributes:")[1]).group(1).split("|")
        self.assertEqual(set(attributes), {"policywrite", "nt", "ownerread", "authread", "no_da", "written"})
        self.assertIn("value: 0x22060088", public)  # nt = 0x8 (PIN Fail)
        self.assertEqual(self.counter(record), (0, 5))
        self.assertIn("authorization policy: " + write_policy(record).upper(), public)

    def test_enroll_takes_the_lowest_free_handle_in_range(self):
        self.tpm.tool("tpm2_nvdefine", hex(FIRST_HANDLE), "-C", "o", "-s", "8", "-a", "ownerread|ownerwrite")
        first = parse_record(self.enroll("alice"))[0]
        second = parse_record(self.enroll("bob"))[0]
        self.assertEqual((first, second), (FIRST_HANDLE + 1, FIRST_HANDLE + 2))

    def test_salt_is_fresh_per_enrolment(self):
        a = parse_record(self.enroll("alice"))
        b = parse_record(self.enroll("alice"))
        self.assertNotEqual(a[2], b[2])
        self.assertNotEqual(a[1], b[1])  # different handles, so different Names

    def test_record_holds_nothing_derived_from_the_pattern(self):
        # The offline attack on a copied store needs something that depends on the pattern: with the same
        # salt and handle, two different patterns give byte-identical records.
        salt = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
        status, first = driver("enroll", self.tpm.tcti, "alice", Z, "3", salt)
        self.assertEqual(status, 0, first)
        self.assertEqual(driver("remove", self.tpm.tcti, first)[0], 0)
        status, second = driver("enroll", self.tpm.tcti, "alice", OTHER, "3", salt)
        self.assertEqual(status, 0, second)
        self.assertEqual(first, second)
        self.assertEqual(self.check(second, digits=OTHER), (RIGHT, "right"))
        self.assertEqual(self.check(second, digits=Z), (WRONG, "wrong"))

    def test_auth_value_is_hmac_sha256_of_label_user_and_dots(self):
        salt = "00112233445566778899aabbccddeeff"
        for user, typed, canonical in (("alice", Z, Z), ("bob", "1379", Z), ("ü", "2589", "2589")):
            status, out = driver("auth", salt, user, typed)
            self.assertEqual(status, 0, out)
            self.assertEqual(out, expected_auth(salt, user, canonical))

    # checking

    def test_right_pattern_is_right_and_wrong_is_counted_by_the_tpm_not_the_chip(self):
        record = self.enroll(limit=5)
        self.assertEqual(self.check(record), (RIGHT, "right"))
        self.assertEqual(self.check(record, digits=OTHER), (WRONG, "wrong"))
        self.assertEqual(self.check(record, digits=OTHER), (WRONG, "wrong"))
        self.assertEqual(self.counter(record), (2, 5))
        self.assertEqual(self.lockout_counter(), 0)  # no_da: the chip-wide counter is untouched
        self.assertEqual(self.check(record), (RIGHT, "right"))
        self.assertEqual(self.counter(record), (0, 5))  # a success resets the index's own count

    def test_other_user_with_the_same_pattern_is_wrong(self):
        record = self.enroll("alice")
        self.assertEqual(self.check(record, user="bob")[0], WRONG)

    def test_limit_refuses_even_the_right_pattern_with_no_state_anywhere_but_the_tpm(self):
        # The driver keeps no state between runs: only the TPM counts.
        record = self.enroll(limit=3)
        for _ in range(3):
            self.assertEqual(self.check(record, digits=OTHER)[0], WRONG)
        self.assertEqual(self.check(record), (LIMIT, "limit"))
        self.assertEqual(self.check(record, digits=OTHER), (LIMIT, "limit"))
        self.assertEqual(self.counter(record), (3, 3))
        # A restarted TPM still refuses: the count is in NV.
        self.tpm.kill()
        self.tpm.start()
        self.assertEqual(self.check(record), (LIMIT, "limit"))

    def test_root_cannot_rewrite_the_counter(self):
        record = self.enroll(limit=3)
        handle = hex(parse_record(record)[0])
        for _ in range(2):
            self.check(record, digits=OTHER)
        zero = os.path.join(self.tpm.directory, "zero")
        with open(zero, "wb") as f:
            f.write(bytes(8))
        # As the owner, with the index's (empty) auth, and with the write policy itself.
        owner = self.tpm.tool("tpm2_nvwrite", "-C", "o", "-i", zero, handle, check=False)
        self.assertNotEqual(owner.returncode, 0, owner.stdout)
        by_index = self.tpm.tool("tpm2_nvwrite", "-C", handle, "-i", zero, handle, check=False)
        self.assertNotEqual(by_index.returncode, 0, by_index.stdout)
        # The full write policy, as the enrolment ran it: PolicyNvWritten(NO) now fails (the index is written).
        branches = []
        for i, digest in enumerate(write_policy_branches(record)):
            branches.append(os.path.join(self.tpm.directory, "branch%d" % i))
            with open(branches[-1], "wb") as f:
                f.write(digest)
        session = os.path.join(self.tpm.directory, "session.ctx")
        self.tpm.tool("tpm2_startauthsession", "--policy-session", "-S", session)
        self.tpm.tool("tpm2_policycommandcode", "-S", session, "TPM2_CC_NV_Write")
        written = self.tpm.tool("tpm2_policynvwritten", "-S", session, "c", check=False)
        if written.returncode == 0:
            self.tpm.tool("tpm2_policyor", "-S", session, "sha256:" + ",".join(branches))
            policy = self.tpm.tool(
                "tpm2_nvwrite", "-C", handle, "-P", "session:" + session, "-i", zero, handle, check=False
            )
            self.assertNotEqual(policy.returncode, 0, policy.stdout)
            self.assertIn(
                "(0x99d)", policy.stderr.lower()
            )  # TPM_RC_POLICY_FAIL: the NvWritten(NO) branch no longer holds
        self.tpm.tool("tpm2_flushcontext", session, check=False)
        self.assertEqual(self.counter(record), (2, 3))

    # removal

    def test_remove_undefines_the_index(self):
        record = self.enroll()
        handle = parse_record(record)[0]
        self.assertIn(handle, self.tpm.defined_indexes())
        self.assertEqual(driver("remove", self.tpm.tcti, record)[0], 0)
        self.assertNotIn(handle, self.tpm.defined_indexes())
        status, out = self.check(record)
        self.assertEqual(status, UNAVAILABLE, out)
        self.assertIn("0x0000018b", out)

    def test_remove_never_deletes_an_index_that_is_not_the_recorded_one(self):
        old = self.enroll("alice")
        driver("remove", self.tpm.tcti, old)
        new = self.enroll("bob")  # takes the same handle
        self.assertEqual(parse_record(new)[0], parse_record(old)[0])
        self.assertEqual(driver("remove", self.tpm.tcti, old)[0], UNAVAILABLE)
        self.assertEqual(self.check(new, user="bob"), (RIGHT, "right"))

    # unavailable: never right, never counted

    def test_a_stale_record_for_a_redefined_handle_is_unavailable_and_counts_nothing(self):
        old = self.enroll("alice")
        driver("remove", self.tpm.tcti, old)
        new = self.enroll("alice", limit=3)
        status, out = self.check(old)
        self.assertEqual(status, UNAVAILABLE, out)
        self.assertIn("not the recorded one", out)
        self.assertEqual(self.counter(new), (0, 3))

    def test_cleared_tpm_is_unavailable(self):
        record = self.enroll()
        self.tpm.tool("tpm2_clear", "-c", "p")
        status, out = self.check(record)
        self.assertEqual(status, UNAVAILABLE, out)

    def test_killed_tpm_is_unavailable(self):
        record = self.enroll()
        self.tpm.kill()
        status, out = self.check(record)
        self.assertEqual(status, UNAVAILABLE, out)
        self.assertEqual(driver("enroll", self.tpm.tcti, "alice", Z, "3")[0], UNAVAILABLE)

    def test_record_copied_to_another_tpm_is_unavailable(self):
        record = self.enroll("alice", limit=3)
        other = SoftwareTPM()
        self.addCleanup(other.close)
        # Nothing at the handle there ...
        status, out = self.check(record, tpm=other)
        self.assertEqual(status, UNAVAILABLE, out)
        # ... or another index at the same handle (the same user and pattern, even): its Name differs.
        theirs = self.enroll("alice", limit=3, tpm=other)
        self.assertEqual(parse_record(theirs)[0], parse_record(record)[0])
        status, out = self.check(record, tpm=other)
        self.assertEqual(status, UNAVAILABLE, out)
        self.assertEqual(self.counter(theirs, tpm=other), (0, 3))

    def test_record_with_another_salt_is_wrong_not_right(self):
        # Whoever edits the salt in the store gets a different auth value, never a bypass.
        record = self.enroll("alice", limit=3)
        handle, name, salt = parse_record(record)
        forged = "$tpm2$%08x$%s$%s" % (handle, name, "0" * 32)
        self.assertEqual(self.check(forged)[0], WRONG)

    # what crosses the bus, what the caller controls

    def driver_traced(self, trace, *args, **kwargs):
        """Runs the driver under strace, writing what it sends to the TPM (write, sendto, sendmsg) to `trace`."""
        argv = ["strace", "-f", "-xx", "-s", "65536", "-e", "trace=write,sendto,sendmsg", "-o", trace, DRIVER]
        return subprocess.run(argv + list(args), stdout=subprocess.PIPE, env={}, **kwargs)

    def test_auth_value_never_crosses_the_bus_in_clear(self):
        trace = os.path.join(self.tpm.directory, "trace")
        run = self.driver_traced(trace, "enroll", self.tpm.tcti, "alice", Z, "3", text=True)
        self.assertEqual(run.returncode, 0)
        record = run.stdout.strip()
        self.driver_traced(trace + ".check", "check", self.tpm.tcti, "alice", Z, record, check=True)
        # The check as the helper makes it: its session bound to the session key beside the store.
        keys = os.path.join(self.tpm.directory, "keys")
        os.mkdir(keys, 0o700)
        self.assertEqual(driver("session-key", self.tpm.tcti, os.path.join(keys, "patterns"))[0], 0)
        bound = self.driver_traced(
            trace + ".bound",
            "check",
            self.tpm.tcti,
            "alice",
            Z,
            record,
            "commands",
            os.path.join(keys, "patterns"),
            check=True,
            text=True,
        )
        self.assertEqual(bound.stdout.strip(), "right 7")  # 5 light commands + the look for leftovers
        auth = expected_auth(parse_record(record)[2], "alice", Z)
        needle = "".join("\\x" + auth[i : i + 2] for i in range(0, len(auth), 2))
        for path in (trace, trace + ".check", trace + ".bound"):
            with open(path) as f:
                text = f.read()
            self.assertIn("\\x80\\x02", text)  # the trace does show TPM commands
            self.assertNotIn(needle[:48], text, path)  # not even the first 8 bytes

    def test_caller_environment_cannot_turn_on_tss2_logging_or_a_log_file(self):
        record = self.enroll()
        log = os.path.join(self.tpm.directory, "tss2.log")
        env = {"TSS2_LOG": "all+trace", "TSS2_LOGFILE": log}
        result = subprocess.run(
            [DRIVER, "check", self.tpm.tcti, "alice", OTHER, record],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.assertEqual(result.returncode, WRONG)
        self.assertFalse(os.path.exists(log))
        self.assertEqual(result.stderr, "")

    def test_only_device_and_swtpm_tctis_are_accepted(self):
        record = self.enroll()
        for tcti in (
            "mssim:host=localhost",
            "/tmp/libevil.so",
            "libtss2-tcti-swtpm.so.0:path=" + self.tpm.socket,
            "pcap:swtpm:path=" + self.tpm.socket,
            "device:relative",
            "",
        ):
            status, out = driver("check", tcti, "alice", Z, record)
            self.assertEqual(status, UNAVAILABLE, tcti)
            self.assertIn("0x7e000001", out, tcti)
        self.assertEqual(self.counter(record), (0, 3))


class ModuleStaysOutOfTheTPMTest(unittest.TestCase):
    """sudo/login load pam_pattern.so: it must need and map no libtss2 and no libcrypto."""

    MODULE = MODULE

    def test_module_needs_no_tss2_or_libcrypto(self):
        require_built(self.MODULE)
        out = subprocess.run(["readelf", "-d", self.MODULE], check=True, stdout=subprocess.PIPE, text=True).stdout
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
        self.assertIn("libpam.so.0", needed)
        self.assertEqual([n for n in needed if "tss2" in n or "libcrypto" in n], [])

    def maps_after_loading(self, library):
        probe = (
            "import ctypes, os\nctypes.CDLL(%r, mode=os.RTLD_NOW)\nprint(open('/proc/self/maps').read())\n" % library
        )
        return subprocess.run(["python3", "-S", "-c", probe], check=True, stdout=subprocess.PIPE, text=True).stdout

    def test_process_that_loads_the_module_maps_no_tss2(self):
        require_built(self.MODULE)
        maps = self.maps_after_loading(self.MODULE)
        self.assertIn("pam_pattern.so", maps)
        self.assertNotIn("libtss2", maps)
        self.assertNotIn("libcrypto", maps)
        # The probe does see them when they are loaded (the driver's libraries).
        self.assertIn("libtss2-esys", self.maps_after_loading("libtss2-esys.so.0"))


if __name__ == "__main__":
    unittest.main()
