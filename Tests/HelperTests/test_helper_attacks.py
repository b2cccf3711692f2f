"""pam_pattern_helper attacked by the user it runs for: the helper is setuid
root at /usr/sbin/pam_pattern_helper inside a private mount namespace, the
attacker is a throwaway unprivileged user (setpriv), and every attack checks
what the helper answered AND what the throttle state says afterwards.

Root only (setuid, users, namespaces). See Tests/support/helper.py for the namespace.
"""

import os
import random
import re
import shlex
import subprocess
import time
import unittest

from support import helper
from support.formats import attempt_record_file

# unittest calls these around the module: the shared run flock (users, /etc).
from support.helper import release_run_lock as tearDownModule  # noqa: F401
from support.helper import take_run_lock as setUpModule  # noqa: F401
from support.paths import run
from support.system import TestUser, as_user
from support.helper import PATTERN, WRONG_PATTERN
from support import formats

NEW_PATTERN = "8426519"


def nul(text):
    """printf expression for text + NUL."""
    return "printf '%%s\\0' '%s'" % text


class HelperAttackTest(helper.HelperCase):
    USER = "pphatk1"
    OTHER = "pphatk2"

    def call(self, operation, name, stdin_expr="printf ''", env=None, shell_prefix="", helper_env=None):
        command = shell_prefix + helper.helper_call(operation, name, stdin_expr, helper_env)
        done = self.sandbox.run(as_user(self.user, command, env=env))
        self.assertEqual(done.returncode, 0, done.stderr)
        return helper.parse_call(done.stdout)

    def failures(self, name=None):
        return self.sandbox.failures(name or self.USER)

    # --- the protocol works at all ---------------------------------------------------------------

    def test_own_pattern_check_wrong_right(self):
        self.assertEqual(self.call("check", self.USER), ("allowed 5", helper.SUCCESS))
        self.assertEqual(self.call("verify", self.USER, nul(WRONG_PATTERN)), ("wrong allowed 4", helper.WRONG))
        self.assertEqual(self.failures(), 1)
        self.assertEqual(self.call("verify", self.USER, nul(PATTERN)), ("accepted", helper.SUCCESS))
        self.assertEqual(self.failures(), 0)

    # --- whose pattern ----------------------------------------------------------------------------

    def test_another_users_name_is_refused_and_never_counted(self):
        other = TestUser(self.OTHER)
        self.addCleanup(other.remove)
        self.sandbox.enrol(self.OTHER)
        self.sandbox.enrol("root")
        for name in (self.OTHER, "root"):
            with self.subTest(name=name):
                self.assertEqual(self.call("verify", name, nul(WRONG_PATTERN)), ("refused user", helper.REFUSED))
                self.assertEqual(self.call("verify", name, nul(PATTERN)), ("refused user", helper.REFUSED))
                self.assertEqual(self.call("check", name), ("refused user", helper.REFUSED))
                self.assertEqual(self.failures(name), 0)
        # A name nobody has is refused the same way (no "not enrolled" oracle for other names).
        self.assertEqual(self.call("check", "pphatk-nobody"), ("refused user", helper.REFUSED))

    def test_pretending_to_be_root_through_environment_and_argv_changes_nothing(self):
        self.sandbox.enrol("root")
        env = {
            "USER": "root",
            "LOGNAME": "root",
            "HOME": "/root",
            "SUDO_USER": "root",
            "SUDO_UID": "0",
            "PAM_USER": "root",
            "UID": "0",
            "EUID": "0",
        }
        self.assertEqual(self.call("verify", "root", nul(PATTERN), env=env), ("refused user", helper.REFUSED))
        # argv[0] claiming to be something else, and argv carrying extra words.
        argv0 = "%s | bash -c 'exec -a root %s verify root'; echo \"rc=$?\"" % (nul(PATTERN), helper.HELPER_PATH)
        done = self.sandbox.run(as_user(self.user, argv0))
        self.assertEqual(helper.parse_call(done.stdout), ("refused user", helper.REFUSED))
        extra = "%s | %s verify %s root; echo \"rc=$?\"" % (nul(PATTERN), helper.HELPER_PATH, self.USER)
        done = self.sandbox.run(as_user(self.user, extra))
        self.assertEqual(helper.parse_call(done.stdout), ("refused usage", helper.REFUSED))
        self.assertEqual(self.failures("root"), 0)
        self.assertEqual(self.failures(), 0)

    # --- stdin ------------------------------------------------------------------------------------

    def test_a_terminal_on_stdin_is_refused(self):
        # script(1) gives the command a pty as stdin.
        command = "script -qec %s /dev/null" % shlex.quote("%s verify %s; echo rc=$?" % (helper.HELPER_PATH, self.USER))
        done = self.sandbox.run(as_user(self.user, command), stdin=subprocess.DEVNULL)
        text = done.stdout.decode(errors="replace").replace("\r", "")
        self.assertIn("refused tty", text)
        self.assertIn("rc=%d" % helper.REFUSED, text)
        self.assertEqual(self.failures(), 0)

    def test_garbage_oversized_and_unterminated_input_is_refused_uncounted(self):
        cases = {
            "unterminated": "printf '%s'" % WRONG_PATTERN,
            "extra after the NUL": "printf '%%s\\0x' %s" % WRONG_PATTERN,
            "two fields": "printf '%%s\\0%%s\\0' %s %s" % (WRONG_PATTERN, WRONG_PATTERN),
            "nothing": "printf ''",
            "oversized field": "{ head -c 65 /dev/zero | tr '\\0' 1; printf '\\0'; }",
            "oversized input": "head -c 100000 /dev/urandom",
            "endless input": "yes 1235",
            "binary": "printf '\\377\\376\\001\\0'",
        }
        for name, expr in cases.items():
            with self.subTest(input=name):
                verdict, status = self.call("verify", self.USER, expr)
                if name == "binary":
                    # Framed, but not a pattern: malformed, not counted.
                    self.assertEqual((verdict, status), ("malformed minlen 4", helper.MALFORMED))
                else:
                    self.assertEqual((verdict, status), ("refused input", helper.REFUSED))
                self.assertEqual(self.failures(), 0)
        # check takes no input at all.
        self.assertEqual(self.call("check", self.USER, nul(PATTERN)), ("refused input", helper.REFUSED))
        # Not patterns, framed: malformed and never counted.
        for typed in ("12a4", "1231", "123", "0000"):
            self.assertEqual(self.call("verify", self.USER, nul(typed)), ("malformed minlen 4", helper.MALFORMED))
        self.assertEqual(self.failures(), 0)

    def test_input_held_open_is_refused_at_its_deadline_uncounted(self):
        # HelperRequest.inputWaitSeconds: a caller that keeps stdin open, silent or with a partial guess, holds
        # its helper 10 s at most, then gets a refusal, and nothing was counted.
        # The pipe's write end is held by a background sleep the pipeline does not wait for.
        for stdin_expr in ("(sleep 13 2>/dev/null &)", "(printf '2946'; sleep 13 2>/dev/null &)"):
            started = time.monotonic()
            self.assertEqual(self.call("verify", self.USER, stdin_expr), ("refused input", helper.REFUSED))
            took = time.monotonic() - started
            self.assertTrue(9.0 < took < 12.5, "%s: %.1f s" % (stdin_expr, took))
        time.sleep(3)  # the last sleep ends before the user is removed
        self.assertEqual(self.failures(), 0)

    def test_the_caller_named_service_and_tty_are_history_only(self):
        # verify's optional fields name the program the person used; the caller could say anything, so they
        # are cut, made printable, and decide nothing: the guess counts exactly as one without them.
        hostile = "printf '%%s\\0%%s\\0%%s\\0' %s %s %s" % (
            WRONG_PATTERN,
            shlex.quote("su\033[2J"),
            shlex.quote("/dev/pts/1 x"),
        )
        self.assertEqual(self.call("verify", self.USER, hostile), ("wrong allowed 4", helper.WRONG))
        self.assertEqual(self.failures(), 1)
        with open(attempt_record_file(self.sandbox.state_dir, self.USER), "rb") as f:
            entries = [line.split(b" ") for line in f.read().splitlines()[1:] if not line.startswith(b"repeat ")]
        self.assertEqual([entry[1:] for entry in entries], [[b"su?[2J", b"/dev/pts/1?x", b"-"]])
        for name, expr in {
            "four fields": "printf 'a\\0b\\0c\\0d\\0'",
            "oversized service": "{ printf '%s\\0'; head -c 65 /dev/zero | tr '\\0' s; printf '\\0tty\\0'; }"
            % WRONG_PATTERN,
        }.items():
            with self.subTest(input=name):
                self.assertEqual(self.call("verify", self.USER, expr), ("refused input", helper.REFUSED))
        self.assertEqual(self.failures(), 1)

    def test_bad_arguments_are_refused(self):
        for args in ("", "verify", "frob %s" % self.USER, "check %s extra" % self.USER, "check ''", "check 'a:b'"):
            with self.subTest(args=args):
                done = self.sandbox.run(as_user(self.user, "%s %s </dev/null; echo rc=$?" % (helper.HELPER_PATH, args)))
                verdict, status = helper.parse_call(done.stdout)
                self.assertEqual(status, helper.REFUSED, done)
                self.assertTrue(verdict.startswith("refused "), verdict)

    # --- hostile process state ---------------------------------------------------------------------

    def test_hostile_environment_is_ignored(self):
        # A library that, if ever loaded, answers "accepted" for the helper.
        source = os.path.join(self.sandbox.root, "evil.c")
        with open(source, "w") as f:
            f.write(
                '#include <unistd.h>\n__attribute__((constructor)) static void evil(void) {'
                ' write(1, "accepted\\n", 9); _exit(0); }\n'
            )
        evil_dir = os.path.join(self.sandbox.root, "evil")
        os.mkdir(evil_dir, 0o755)
        library = os.path.join(evil_dir, "libevil.so")
        built = run(["gcc", "-shared", "-fPIC", "-o", library, source])
        self.assertEqual(built.returncode, 0, built.stderr)
        for name in ("libcrypt.so.1", "libc.so.6"):
            os.symlink(library, os.path.join(evil_dir, name))
        os.chmod(library, 0o755)
        env = {
            "LD_PRELOAD": library,
            "LD_LIBRARY_PATH": evil_dir,
            "LD_AUDIT": library,
            "PATH": evil_dir,
            "LC_ALL": "xx_XX.EVIL",
            "LANG": "../../../evil",
            "LANGUAGE": "evil",
            "NLSPATH": evil_dir + "/%N",
            "GCONV_PATH": evil_dir,
            "TZ": "../../evil",
            "MALLOC_CHECK_": "3",
            "IFS": "1",
            "LOCPATH": evil_dir,
            "HOSTALIASES": evil_dir + "/h",
            "RES_OPTIONS": "debug",
        }
        verdict = self.call("verify", self.USER, nul(WRONG_PATTERN), helper_env=env)
        self.assertEqual(verdict, ("wrong allowed 4", helper.WRONG))
        self.assertEqual(self.failures(), 1)
        # Sanity: the library does what it claims when loaded into an ordinary program.
        plain = run(["env", "LD_PRELOAD=" + library, "true"])
        self.assertEqual(plain.stdout, b"accepted\n")

    def test_file_size_limit_cannot_buy_an_uncounted_guess(self):
        # `ulimit -f 0` (hard): the failure cannot be written (not even in place), so no guess is judged at all:
        # the right pattern is not accepted either, and nothing is counted.
        for typed in (WRONG_PATTERN, PATTERN):
            self.assertEqual(
                self.call("verify", self.USER, nul(typed), shell_prefix="ulimit -f 0; "),
                ("unavailable", helper.UNAVAILABLE),
            )
        self.assertEqual(self.failures(), 0)
        self.assertEqual(self.call("verify", self.USER, nul(WRONG_PATTERN)), ("wrong allowed 4", helper.WRONG))
        for typed in (WRONG_PATTERN, PATTERN):
            self.assertEqual(
                self.call("verify", self.USER, nul(typed), shell_prefix="ulimit -f 0; "),
                ("unavailable", helper.UNAVAILABLE),
            )
        self.assertEqual(self.failures(), 1)
        # A soft limit alone is raised to the hard limit by the helper: counted as usual (another wrong pattern:
        # the refused calls tried nothing, so WRONG_PATTERN again would be a repeat, answered without a count).
        self.assertEqual(
            self.call("verify", self.USER, nul("147896"), shell_prefix="ulimit -S -f 0; "),
            ("wrong allowed 3", helper.WRONG),
        )
        self.assertEqual(self.failures(), 2)

    def set_cost(self, cost):
        done = self.sandbox.patternctl(
            "set", "--cost", cost, self.USER, stdin=("%s\n%s\n" % (PATTERN, PATTERN)).encode()
        )
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_address_space_limit_never_counts_a_right_pattern(self):
        # Cost 7 needs 64 MiB; a hard RLIMIT_AS of 48 MiB (the helper raises only soft limits) makes the hash
        # fail. Counted before the hash, then taken back: nothing was compared, so it was no guess.
        self.set_cost("7")
        limited = "ulimit -v %d; " % (48 << 10)
        for typed in (PATTERN, WRONG_PATTERN):
            self.assertEqual(
                self.call("verify", self.USER, nul(typed), shell_prefix=limited), ("unavailable", helper.UNAVAILABLE)
            )
            self.assertEqual(self.failures(), 0)
        # The soft limit alone is raised: the check runs and counts as usual.
        soft = "ulimit -S -v %d; " % (48 << 10)
        self.assertEqual(self.call("verify", self.USER, nul(PATTERN), shell_prefix=soft), ("accepted", helper.SUCCESS))
        self.assertEqual(self.call("verify", self.USER, nul(WRONG_PATTERN)), ("wrong allowed 4", helper.WRONG))

    def test_cpu_time_limit_that_would_end_the_check_refuses_it_before_counting(self):
        # RLIMIT_CPU counts the time used before exec: 3.2 s of a 7 s hard limit burnt, then the helper, which
        # needs GuessGate.checkCPUSeconds (5) left. The limit striking in the middle of the cost-9 hash would keep
        # the count of a right pattern; refused before counting. (The 3.8 s the burner leaves before SIGXCPU
        # is a margin no load eats; 0.1 s was: the burner was killed before exec on a busy machine.)
        self.set_cost("9")

        def verify_after_burning(seconds):
            burn = (
                "import os, resource\n"
                "resource.setrlimit(resource.RLIMIT_CPU, (7, 7))\n"
                "while sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) < %r: pass\n"
                "os.execv(%r, [%r, 'verify', %r])\n" % (seconds, helper.HELPER_PATH, helper.HELPER_PATH, self.USER)
            )
            command = "%s | /usr/bin/python3 -c %s; echo \"rc=$?\"" % (nul(PATTERN), shlex.quote(burn))
            return self.sandbox.run(as_user(self.user, command))

        done = verify_after_burning(3.2)
        self.assertEqual(helper.parse_call(done.stdout), ("unavailable", helper.UNAVAILABLE), done.stderr)
        self.assertEqual(self.failures(), 0)
        # The same limit with nothing burnt leaves enough: the time before exec is what refused it.
        done = verify_after_burning(0)
        self.assertEqual(helper.parse_call(done.stdout), ("accepted", helper.SUCCESS), done.stderr)
        self.assertEqual(self.failures(), 0)

    def test_closed_standard_descriptors_do_not_misdirect_the_verdict(self):
        # stdout closed: the verdict must not land in a file the helper opened as fd 1.
        done = self.sandbox.run(
            as_user(
                self.user, "%s | %s verify %s >&-; echo rc=$?" % (nul(WRONG_PATTERN), helper.HELPER_PATH, self.USER)
            )
        )
        self.assertEqual(helper.parse_call(done.stdout), ("", helper.WRONG))
        done = self.sandbox.run(
            as_user(self.user, "%s verify %s <&- 2>&-; echo rc=$?" % (helper.HELPER_PATH, self.USER))
        )
        self.assertEqual(helper.parse_call(done.stdout), ("refused input", helper.REFUSED))
        self.assertEqual(self.failures(), 1)

    # --- signals and concurrency ----------------------------------------------------------------

    def test_sigkill_at_random_points_never_gives_a_free_guess(self):
        # cost 7: a hash of ~0.3 s, so kills land before, inside and after it.
        done = self.sandbox.patternctl(
            "set", "--cost", "7", self.USER, stdin=("%s\n%s\n" % (PATTERN, PATTERN)).encode()
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        rng = random.Random(1234)
        delays = [rng.uniform(0.0, 0.05) for _ in range(12)] + [rng.uniform(0.15, 0.25) for _ in range(8)]
        # lock_after/deny: the defaults (5) would lock after 5 counted kills; reset between rounds instead.
        counted = 0
        for start in range(0, len(delays), 4):
            self.assertEqual(self.sandbox.patternctl("reset", self.USER).returncode, 0)
            results = self.drive("kill", delays=delays[start : start + 4])
            for delay, status, output, delta in results:
                with self.subTest(delay=delay):
                    # Each run counts at most once; a verdict the attacker saw was always counted.
                    self.assertIn(delta, (0, 1))
                    if output:
                        self.assertEqual(delta, 1, (delay, status, output))
                    # Killed well inside the hash: the failure was already on disk.
                    if delay >= 0.15:
                        self.assertEqual(delta, 1, (delay, status, output))
                    counted += delta
            # The state file is whole after every kill.
            self.assertIn(self.sandbox.status(self.USER)["failures"].split()[0], [str(n) for n in range(5)])
        self.assertGreaterEqual(counted, 8)

    def test_job_control_and_terminal_signals_are_ignored(self):
        names = ["SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGHUP", "SIGINT", "SIGQUIT", "SIGPIPE", "SIGXFSZ"]
        report = self.drive("signals", signals=names)
        # Still running, not stopped ("T"), after each signal; then it answers and counts as usual.
        self.assertEqual(report["states"], [[name, "S"] for name in names], report)
        self.assertEqual((report["status"], report["output"]), (helper.WRONG, "wrong allowed 4\n"))
        self.assertEqual(self.failures(), 1)

    def test_a_stopped_helper_does_not_freeze_the_users_other_checks(self):
        # SIGSTOP cannot be ignored: the user stops their own helper in the middle of a cost-7 hash. The state
        # lock is not held while hashing, so the next check (a sudo, another locker) goes ahead at once.
        done = self.sandbox.patternctl(
            "set", "--cost", "7", self.USER, stdin=("%s\n%s\n" % (PATTERN, PATTERN)).encode()
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        report = self.drive("stop", delay=0.15)
        self.assertEqual((report["status"], report["output"]), (helper.WRONG, "wrong allowed 3\n"), report)
        self.assertLess(report["seconds"], 3.0, report)
        # Both guesses counted: the stopped one before its hash, the second one too.
        self.assertEqual(report["failures_while_stopped"], 2)

    def test_a_check_maps_only_libc_and_a_guess_adds_libcrypt(self):
        # Every library the loader maps is code the caller's call runs setuid, and its mapping is most of an
        # exec's cost (two per authentication through the helper). libcrypt is dlopened at the first hash (the
        # check before every prompt hashes nothing), libpam (and its libaudit and libcap-ng) for enroll's password
        # check only, tpm2-tss for a TPM record only.
        traces = [os.path.join(self.sandbox.root, "%s.trace" % name) for name in ("check", "verify", "enroll")]
        helper_path = shlex.quote(helper.HELPER_PATH)
        steps = [
            "strace -f -qq -e trace=openat -o %s %s check %s </dev/null" % (traces[0], helper_path, self.USER),
            "printf '%%s\\0' %s | strace -f -qq -e trace=openat -o %s %s verify %s"
            % (PATTERN, traces[1], helper_path, self.USER),
            "printf '%%s\\0%%s\\0' not-the-password %s | strace -f -qq -e trace=openat -o %s %s enroll %s"
            % (NEW_PATTERN, traces[2], helper_path, self.OTHER),
        ]
        other = TestUser(self.OTHER)
        self.addCleanup(other.remove)
        # Each step's own status is the helper's verdict (enroll's is "wrong"), and its verdict line is its output.
        done = self.sandbox.run("".join("%s || true\n" % step for step in steps))
        self.assertEqual(done.returncode, 0, done.stderr)
        # The guess was hashed and judged with the libcrypt it loaded itself.
        self.assertEqual(done.stdout.decode().splitlines()[:2], ["allowed 5", "accepted"], done.stdout)
        libraries = []
        for path in traces:
            with open(path) as f:
                opened = [os.path.basename(line.split('"')[1]) for line in f if '"' in line and "= -1" not in line]
            libraries.append(sorted({name for name in opened if re.fullmatch(r"lib.*\.so(\.[0-9]+)*", name)}))
        check, verify, enroll = libraries
        self.assertEqual(check, ["libc.so.6"], check)
        self.assertEqual(verify, ["libc.so.6", "libcrypt.so.1"], verify)
        # The password check does run PAM: the library is found and loaded when it is needed.
        self.assertIn("libpam.so.0", enroll, enroll)
        self.assertFalse([name for name in enroll if "libtss2" in name or "libcrypto" in name], enroll)

    def test_files_the_helper_writes_are_root_root(self):
        # The caller's group must not own what the helper writes for them: one chmod g+r by an admin or a
        # backup tool away from a readable hash, and charged to that group's quota.
        self.assertEqual(self.call("verify", self.USER, nul(WRONG_PATTERN)), ("wrong allowed 4", helper.WRONG))
        fields = "printf '%%s\\0%%s\\0' '%s' '%s'" % (PATTERN, NEW_PATTERN)
        self.assertEqual(self.call("set", self.USER, fields), ("accepted", helper.SUCCESS))
        owners = {}
        for directory in (self.sandbox.state_dir, self.sandbox.store_dir):
            for name in os.listdir(directory):
                info = os.lstat(os.path.join(directory, name))
                owners[name] = (info.st_uid, info.st_gid)
        state = os.path.basename(formats.state_file(self.sandbox.state_dir, self.USER))
        for written in (state, state + ".attempts", "patterns"):
            self.assertIn(written, owners)
        self.assertEqual({name: ids for name, ids in owners.items() if ids != (0, 0)}, {})

    def test_the_helper_runs_with_root_group_and_no_supplementary_groups(self):
        report = self.drive(
            "creds",
            prefix=[
                "setpriv",
                "--reuid=%d" % self.user.uid,
                "--regid=%d" % self.user.uid,
                "--groups=%d,100" % self.user.uid,
            ],
        )
        self.assertEqual(report["Gid"], ["0", "0", "0", "0"], report)
        self.assertEqual(report["Groups"], [], report)
        # The real uid stays the caller's (it is who the call is for); the effective one is root.
        self.assertEqual(report["Uid"][:2], [str(self.user.uid), "0"], report)
        self.assertEqual(report["status"], helper.WRONG)

    def test_64_parallel_direct_calls_hash_exactly_deny_guesses(self):
        results = self.drive("parallel", count=64)
        verdicts = sorted((status, output.split(" ")[0]) for status, output in results)
        wrong = [r for r in results if r[0] == helper.WRONG]
        locked = [r for r in results if r[0] == helper.LOCKED]
        self.assertEqual(len(wrong), 5, verdicts)  # deny=5: five hashed, counted guesses
        self.assertEqual(len(locked), 59, verdicts)
        self.assertEqual(
            sorted(o.strip() for _, o in wrong),
            ["wrong allowed 1", "wrong allowed 2", "wrong allowed 3", "wrong allowed 4", "wrong wait 60"],
        )
        self.assertEqual(self.failures(), 5)
        # The right pattern is refused now too, without a hash or a count.
        verdict, status = self.call("verify", self.USER, nul(PATTERN))
        self.assertEqual(status, helper.LOCKED)
        self.assertTrue(verdict.startswith("locked wait "), verdict)
        self.assertEqual(self.failures(), 5)


class PasswordResetAttackTest(helper.HelperCase):
    """`password-reset` (a `reset_on_success` line at a locker) attacked by a program running as the user, without
    the password: the user's count, locked at deny, never goes down, whatever it sends or claims; another user's
    right password clears only their own count."""

    USER = "pphatk3"
    OTHER = "pphatk4"
    PASSWORD = "Attack-reset-pw-5"
    OTHER_PASSWORD = "Attack-other-pw-6"
    WRONG_PASSWORD = "Attack-reset-pw-6"

    def namespace(self):
        module = helper.MODULE
        claim = ["auth required pam_permit.so", "auth optional %s reset_on_success" % module]
        # pam_unix leaves the typed (wrong) password as PAM_AUTHTOK; pam_permit makes the stack succeed anyway.
        wrong_token = ["auth optional pam_unix.so", "auth required pam_permit.so"] + claim[1:]
        return helper.Namespace(self, pam_d={"ppreset-claim": claim, "ppreset-token": wrong_token})

    def setUp(self):
        super().setUp()
        self.other = TestUser(self.OTHER, password=self.OTHER_PASSWORD)
        self.addCleanup(self.other.remove)
        self.sandbox.enrol(self.OTHER)
        wrongs = helper.wrong_patterns(5, avoid=(PATTERN,))
        for wrong in wrongs:
            verdict, status = self.call("verify", self.USER, nul(wrong))
            self.assertEqual(status, helper.WRONG, verdict)
        self.assertEqual(self.failures(), 5)

    def call(self, operation, name, stdin_expr="printf ''"):
        return self.call_as(self.user, operation, name, stdin_expr)

    def failures(self, name=None):
        return self.sandbox.failures(name or self.USER)

    def assert_still_locked(self, what):
        self.assertEqual(self.failures(), 5, what)

    def test_password_reset_without_the_password_never_lowers_the_count(self):
        rng = random.Random(7)
        # Any byte but NUL (a field's end) and '%' (printf's own).
        garbage = "".join("\\%03o" % rng.choice([b for b in range(1, 256) if b != 0x25]) for _ in range(64))
        inputs = {
            "no input": "printf ''",
            "an empty password": "printf '\\0'",
            "a wrong password": nul(self.WRONG_PASSWORD),
            "the pattern as password": nul(PATTERN),
            "garbage": "printf '%s\\0'" % garbage,
            "oversized": "head -c 600 /dev/zero | tr '\\0' a",
            "two fields": "printf '%s\\0x\\0' " + shlex.quote(self.PASSWORD),
            "unterminated right password": "printf '%s' " + shlex.quote(self.PASSWORD),
            "the other user's password": nul(self.OTHER_PASSWORD),
        }
        for what, stdin in inputs.items():
            with self.subTest(what=what):
                verdict, status = self.call("password-reset", self.USER, stdin)
                self.assertNotEqual(status, helper.SUCCESS, (what, verdict))
                self.assert_still_locked(what)
        # Closed descriptors: no input at all, or a verdict with nowhere to go.
        for shell in (
            "%s password-reset %s <&-" % (helper.HELPER_PATH, self.USER),
            "%s | %s password-reset %s >&-" % (nul(self.WRONG_PASSWORD), helper.HELPER_PATH, self.USER),
        ):
            with self.subTest(shell=shell):
                self.sandbox.run(as_user(self.user, shell + "; echo rc=$?"))
                self.assert_still_locked(shell)

    def test_every_operation_and_name_without_the_password_never_lowers_the_count(self):
        new = NEW_PATTERN
        calls = [
            ("check", self.USER, "printf ''"),
            ("status", self.USER, "printf ''"),
            ("authenticate", self.USER, "printf ''"),
            ("verify", self.USER, nul(PATTERN)),
            ("set", self.USER, "printf '%s\\0%s\\0' " + "%s %s" % (WRONG_PATTERN, new)),
            ("remove", self.USER, nul(WRONG_PATTERN)),
            ("enroll", self.USER, "printf '%s\\0%s\\0' " + "%s %s" % (shlex.quote(self.WRONG_PASSWORD), new)),
            ("tpm-enroll", self.USER, nul(WRONG_PATTERN)),
            ("tpm-remove", self.USER, "printf ''"),
            ("tpm-prune", self.USER, "printf ''"),
            # Another user's name with that user's right password, and root's: refused before anything is read.
            ("password-reset", self.OTHER, nul(self.OTHER_PASSWORD)),
            ("password-reset", "root", nul(self.PASSWORD)),
        ]
        for operation, name, stdin in calls:
            with self.subTest(operation=operation, name=name):
                verdict, status = self.call(operation, name, stdin)
                self.assertNotEqual(verdict, "accepted", (operation, name))
                self.assert_still_locked((operation, name, verdict))

    def test_a_stack_that_claims_success_resets_nothing(self):
        # The user's own PAM stack loads the module as the user: its word (pam_permit) and a password pam_unix
        # found wrong reach the helper, which checks for itself.
        for service, answers in (("ppreset-claim", []), ("ppreset-token", [self.WRONG_PASSWORD])):
            with self.subTest(service=service):
                stdin = "printf '%s\\n' " + " ".join(shlex.quote(a) for a in answers or [""])
                done = self.sandbox.run(
                    as_user(self.user, "%s | pamtester %s %s authenticate; echo rc=$?" % (stdin, service, self.USER))
                )
                self.assertIn(b"rc=0", done.stdout, done.stdout + done.stderr)  # the stack said yes
                self.assert_still_locked(service)

    def test_killed_mid_check_never_lowers_the_count(self):
        for delay in ("0.01", "0.05", "0.1", "0.2", "0.4", "0.8"):
            with self.subTest(delay=delay):
                self.sandbox.run(
                    as_user(
                        self.user,
                        "%s | timeout -s KILL %s %s password-reset %s; echo rc=$?"
                        % (nul(self.WRONG_PASSWORD), delay, helper.HELPER_PATH, self.USER),
                    )
                )
                self.assert_still_locked(delay)

    def test_another_users_success_clears_only_their_own_count(self):
        wrong = helper.wrong_patterns(1, avoid=(PATTERN,))[0]
        self.assertEqual(self.call_as(self.other, "verify", self.OTHER, nul(wrong))[1], helper.WRONG)
        self.assertEqual(self.failures(self.OTHER), 1)
        self.assertEqual(
            self.call_as(self.other, "password-reset", self.OTHER, nul(self.OTHER_PASSWORD)), ("accepted", 0)
        )
        self.assertEqual(self.failures(self.OTHER), 0)
        self.assert_still_locked("the other user's success")
        # The user's own right password does clear it: the attacks above lacked only that.
        self.assertEqual(self.call("password-reset", self.USER, nul(self.PASSWORD)), ("accepted", helper.SUCCESS))
        self.assertEqual(self.failures(), 0)

    def call_as(self, user, operation, name, stdin_expr):
        done = self.sandbox.run(as_user(user, helper.helper_call(operation, name, stdin_expr)))
        self.assertEqual(done.returncode, 0, done.stderr)
        return helper.parse_call(done.stdout)


if __name__ == "__main__":
    unittest.main()
