"""What a caller hands down to the module and to patternctl, one case per test: su and sudo run them as
root but with the caller's resource limits, descriptors, umask and signal dispositions. Each test runs
one real authentication (pam_once through libpam, Tests/FaultTests) or one patternctl write in a
process given exactly that inheritance, and states what must happen: never a success for a wrong or
unverified answer, never a torn or changed file where nothing could be written whole, and the next
ordinary login works.

RLIMIT_FSIZE: `prlimit --fsize=N` sets soft and hard limits; these containers lack CAP_SYS_RESOURCE,
so nobody can raise a hard limit, and the limit applies to every write that reaches past N bytes,
in place or not.
"""

import os
import re
import resource
import signal
import subprocess
import shutil
import unittest

from support.fault import pam_once, require_root_and_build
from support.pam import PAM_AUTHINFO_UNAVAIL, PAM_AUTH_ERR, PAM_SUCCESS
from support.sandbox import OTHER, RIGHT, Tree, WRONG

USER = "daemon"  # a real account: patternctl set insists on one


class InheritedStateTest(unittest.TestCase):
    def setUp(self):
        require_root_and_build()
        self.tree = Tree(module_options="deny=5 unlock_time=60 lock_after=20")
        self.addCleanup(self.tree.close)
        self.tree.set(USER, RIGHT, check=True)
        pam_once()

    def auth(self, answer, preexec=None, prefix=()):
        """(PAM code, transcript) of one authentication in a process prepared by `preexec`."""
        result = subprocess.run(
            list(prefix) + self.tree.auth_argv(USER, answer), capture_output=True, timeout=60, preexec_fn=preexec
        )
        self.assertFalse(result.returncode < 0, "pam_once killed by signal %d" % -result.returncode)
        lines = result.stdout.decode(errors="replace").splitlines()
        codes = [l for l in lines if l.startswith("rc=")]
        self.assertTrue(codes, result)
        return int(codes[-1][3:]), lines[:-1]

    def write_state(self, failures):
        self.tree.write_state(USER, failures, 1_000_000_000)
        return self.tree.state_bytes(USER)

    def assert_next_login_works(self):
        code, transcript = self.auth(RIGHT)
        self.assertEqual(code, PAM_SUCCESS, transcript)
        self.assertEqual(self.tree.failures(USER), 0)

    # --- file-size limit --------------------------------------------------------------------------------

    def test_fsize_hard_limit_below_a_record_creates_nothing_and_verifies_nothing(self):
        # The right pattern, even: a guess that cannot be counted is not checked.
        code, transcript = self.auth(RIGHT, prefix=["prlimit", "--fsize=5"])
        self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
        self.assertTrue(any("file-size limit" in l for l in transcript), transcript)
        self.assertIsNone(self.tree.state_bytes(USER), "a state file was created")
        self.assert_next_login_works()

    def test_fsize_hard_limit_leaves_an_existing_record_untouched(self):
        before = self.write_state(2)
        code, transcript = self.auth(WRONG, prefix=["prlimit", "--fsize=25"])
        self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
        self.assertEqual(self.tree.state_bytes(USER), before)
        self.assert_next_login_works()

    def test_fsize_soft_limit_is_raised_for_the_write_so_the_guess_counts(self):
        code, transcript = self.auth(WRONG, prefix=["prlimit", "--fsize=5:unlimited"])
        self.assertEqual(code, PAM_AUTH_ERR, transcript)
        self.assertEqual(self.tree.failures(USER), 1)

    def test_sigxfsz_ignored_or_blocked_changes_nothing(self):
        # Without the signal a write past the limit would be cut short (EFBIG): the limit is checked first.
        def ignored():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

        def blocked():
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGXFSZ})

        for name, preexec in (("ignored", ignored), ("blocked", blocked)):
            with self.subTest(name):
                before = self.write_state(1)
                code, transcript = self.auth(WRONG, preexec=preexec, prefix=["prlimit", "--fsize=5"])
                self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
                self.assertEqual(self.tree.state_bytes(USER), before)
        self.assert_next_login_works()

    def test_patternctl_set_under_a_small_hard_limit_leaves_the_store_as_it_was(self):
        before = self.tree.store_bytes()
        done = self.tree.set("bin", OTHER, prefix=["prlimit", "--fsize=100"])
        self.assertEqual(done.returncode, 1, done)
        self.assertIn(b"file-size limit", done.stderr)
        self.assertEqual(self.tree.store_bytes(), before)
        self.assertEqual(self.tree.temps(), [])
        # Soft limit only: raised for the write, the store is written whole.
        done = self.tree.set("bin", OTHER, prefix=["prlimit", "--fsize=100:unlimited"])
        self.assertEqual(done.returncode, 0, done)
        self.assertIn("bin", self.tree.records())
        self.assert_next_login_works()

    # --- descriptors -------------------------------------------------------------------------------------

    def test_closed_stdin_and_stderr_never_hold_the_store_or_state(self):
        # Started with fds 0 and 2 closed, the process's first opens would get 0 and 2; stderr writes (by
        # the host, libpam, anyone) would then land in the state file. strace -y shows which fd each
        # call used on our files.
        def close_stdio():
            os.close(0)
            os.close(2)

        log = os.path.join(self.tree.root, "strace.log")
        code, transcript = self.auth(
            WRONG,
            preexec=close_stdio,
            prefix=[
                "strace",
                "-f",
                "-y",
                "-qq",
                "-o",
                log,
                "-e",
                "trace=openat,fstat,newfstatat,read,pread64,pwrite64,write,flock,fsync,fchmod,getdents64",
            ],
        )
        self.assertEqual(code, PAM_AUTH_ERR, transcript)
        with open(log, errors="replace") as f:
            calls = [l for l in f if self.tree.store_dir in l or self.tree.state_dir in l]
        self.assertTrue(any("pwrite64(" in l for l in calls), "the state was never written: %s" % calls)
        # The kernel may hand out 0 or 2 (then moved at once with F_DUPFD_CLOEXEC); no call may USE them.
        on_stdio = [l for l in calls if re.search(r"\b\w+\([0-2]<", l)]
        self.assertEqual(on_stdio, [], "store or state handled on fd 0-2")
        self.assertEqual(self.tree.failures(USER), 1)

    def test_low_open_files_limit_fails_closed(self):
        def few_files():
            resource.setrlimit(resource.RLIMIT_NOFILE, (5, 5))

        before = self.write_state(1)
        for answer in (RIGHT, WRONG):
            with self.subTest(answer=answer):
                code, transcript = self.auth(answer, preexec=few_files)
                self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
                self.assertEqual(self.tree.state_bytes(USER), before)
        self.assert_next_login_works()

    # --- umask ------------------------------------------------------------------------------------------

    def test_any_umask_gives_a_0700_state_directory_and_a_0600_state_file(self):
        os.rmdir(self.tree.state_dir)  # the module makes it
        for mask in (0o777, 0o000):
            with self.subTest(umask=oct(mask)):
                if os.path.isdir(self.tree.state_dir):
                    shutil.rmtree(self.tree.state_dir)
                code, transcript = self.auth(WRONG, preexec=lambda: os.umask(mask))
                self.assertEqual(code, PAM_AUTH_ERR, transcript)
                self.assertEqual(os.stat(self.tree.state_dir).st_mode & 0o7777, 0o700)
                self.assertEqual(os.stat(self.tree.state_path(USER)).st_mode & 0o7777, 0o600)
                self.assertEqual(self.tree.failures(USER), 1)
        self.assert_next_login_works()

    # --- memory -----------------------------------------------------------------------------------------

    def test_address_space_too_small_for_yescrypt_is_never_a_success_nor_a_count(self):
        # Cost 7 needs 64 MiB; with 48 MiB of address space crypt_rn fails. The right pattern, counted
        # before the hash, is answered PAM_AUTHINFO_UNAVAIL with the reason logged; no hash came out, so
        # nothing was compared and the count is taken back (it was no guess: a right pattern is never
        # counted as wrong).
        done = self.tree.ctl("set", USER, "--cost", "7", input=("%s\n%s\n" % (RIGHT, RIGHT)).encode())
        self.assertEqual(done.returncode, 0, done)

        def small():
            resource.setrlimit(resource.RLIMIT_AS, (48 << 20, 48 << 20))

        for answer in (RIGHT, WRONG):
            with self.subTest(answer=answer):
                code, transcript = self.auth(answer, preexec=small)
                self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
                self.assertTrue(any("libcrypt could not hash" in l for l in transcript), transcript)
                self.assertEqual(self.tree.failures(USER), 0)
        self.assert_next_login_works()

    # --- CPU time ---------------------------------------------------------------------------------------

    def test_cpu_time_limit_that_would_end_the_check_refuses_it_before_counting(self):
        # su keeps the caller's RLIMIT_CPU, and CPU time spent before exec counts against it: 1.7 s used of
        # a 2 s limit leaves too little for a cost-9 hash (~0.5 s), and the limit would end the check after
        # its count.
        done = self.tree.ctl("set", USER, "--cost", "9", input=("%s\n%s\n" % (RIGHT, RIGHT)).encode())
        self.assertEqual(done.returncode, 0, done)

        def nearly_spent():
            resource.setrlimit(resource.RLIMIT_CPU, (2, 2))
            while sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) < 1.7:
                pass

        code, transcript = self.auth(RIGHT, preexec=nearly_spent)
        self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
        self.assertTrue(any("CPU time limit" in l for l in transcript), transcript)
        self.assertEqual(self.tree.failures(USER), 0)
        self.assert_next_login_works()

    def test_a_soft_cpu_limit_alone_also_refuses_before_counting(self):
        # The module cannot raise su's soft limit for it (SIGXCPU would end su): the same refusal.
        def soft():
            resource.setrlimit(resource.RLIMIT_CPU, (2, resource.RLIM_INFINITY))

        code, transcript = self.auth(WRONG, preexec=soft)
        self.assertEqual(code, PAM_AUTHINFO_UNAVAIL, transcript)
        self.assertEqual(self.tree.failures(USER), 0)
        self.assert_next_login_works()


if __name__ == "__main__":
    unittest.main()
