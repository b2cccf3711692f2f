"""The attempt record through the real libpam: each counted failure is kept
with its program (the host's name and its PAM service), terminal and remote
host (never the digits), at most 16 entries, and the next successful pattern
tells the person how many failures there were since their last success, a
silent one too (FILEFORMAT.md, "Attempt record").
"""

import os
import re
import resource
import signal
import subprocess
import unittest

from support.formats import attempt_record_file, failures
from support.pam import (
    Conversation,
    PAM_AUTHINFO_UNAVAIL,
    PAM_AUTH_ERR,
    PAM_RHOST,
    PAM_SILENT,
    PAM_SUCCESS,
    PAM_TEXT_INFO,
    PAM_TTY,
    authenticate,
    code_name,
    summary,
)
from support.guesses import wrong_patterns
from support.sandbox import FixtureCase
from support.system import in_child

USER = "alice"
PATTERN = "1235789"
WRONG = "14789"
OTHER = "3816729"  # a second pattern that passes the strength rules
CAPACITY = 16
# The host program's name as the module reads it (glibc's program_invocation_short_name: argv[0]'s last part).
with open("/proc/self/cmdline", "rb") as _cmdline:
    HOST = os.path.basename(_cmdline.read().split(b"\0")[0])
# What the record and the notice name: the host and the PAM service it runs.
PROGRAM = HOST + b"(pattern-record)"


def record_path(state_dir, user=USER):
    return attempt_record_file(state_dir, user)


def read_record(state_dir, user=USER):
    """(unseen, [(time, service, tty, host)]) parsed the way FILEFORMAT.md describes."""
    with open(record_path(state_dir, user), "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    assert lines[-1] == b"", data
    header, entries = lines[0], lines[1:-1]
    assert header.startswith(b"unseen "), data
    while entries and entries[0].startswith(b"repeat "):  # the last wrong guesses' tags (test_repeated_guess.py)
        entries = entries[1:]
    parsed = []
    for line in entries:
        fields = line.split(b" ")
        assert len(fields) == 4, line
        parsed.append((int(fields[0]), *(b"" if f == b"-" else f for f in fields[1:])))
    return int(header[7:]), parsed


def infos(result):
    return [text for style, text in result.conversation.messages if style == PAM_TEXT_INFO]


class AttemptRecordTest(FixtureCase):
    def auth(
        self,
        answer,
        options="deny=100 lock_after=0",
        tty=b"/dev/pts/7",
        host=None,
        flags=0,
        write_service=True,
        user=USER,
    ):
        items = {PAM_TTY: tty}
        if host is not None:
            items[PAM_RHOST] = host
        service = self.fixture.service(options, name="pattern-record") if write_service else "pattern-record"
        return authenticate(
            self.fixture.confdir, service, user, Conversation([answer.encode()]), items=items, flags=flags
        )

    def assertCode(self, result, expected):
        self.assertEqual(code_name(result.code), code_name(expected), result)

    def wrong(self):
        """A wrong pattern not typed before in this test: a repeated one would not be counted."""
        if not hasattr(self, "_wrongs"):
            self._wrongs = iter(wrong_patterns(64, avoid=(PATTERN, OTHER)))
        return next(self._wrongs)

    def test_failure_is_recorded_with_service_and_tty_never_the_digits(self):
        self.assertCode(self.auth(WRONG), PAM_AUTH_ERR)
        unseen, entries = read_record(self.fixture.state_dir)
        self.assertEqual(unseen, 1)
        self.assertEqual(len(entries), 1)
        _, service, tty, host = entries[0]
        self.assertEqual((service, tty, host), (PROGRAM, b"/dev/pts/7", b""))
        st = os.stat(record_path(self.fixture.state_dir))
        self.assertEqual((st.st_uid, st.st_mode & 0o7777, st.st_nlink), (0, 0o600, 1))
        with open(record_path(self.fixture.state_dir), "rb") as f:
            self.assertNotIn(WRONG.encode(), f.read().split(b" ", 2)[-1])

    def test_wrong_then_right_tells_the_failures_once(self):
        self.assertCode(self.auth(self.wrong()), PAM_AUTH_ERR)
        self.assertCode(self.auth(self.wrong(), tty=b"/dev/pts/9"), PAM_AUTH_ERR)
        right = self.auth(PATTERN)
        self.assertCode(right, PAM_SUCCESS)
        notice = infos(right)
        self.assertEqual(len(notice), 1, right)
        self.assertRegex(
            notice[0],
            rb"^2 failed pattern attempts since your last success, the last from "
            + re.escape(PROGRAM)
            + rb" on /dev/pts/9 at \d{4}-\d\d-\d\d \d\d:\d\d \S+\.$",
        )
        # Marked seen: kept for `patternctl status`, but not told again.
        unseen, entries = read_record(self.fixture.state_dir)
        self.assertEqual((unseen, len(entries)), (0, 2))
        again = self.auth(PATTERN)
        self.assertCode(again, PAM_SUCCESS)
        self.assertEqual(infos(again), [], again)

    def patternctl(self, *argv, stdin=b""):
        done = subprocess.run(self.fixture.ctl_argv(*argv), input=stdin, capture_output=True, timeout=60)
        self.assertEqual(done.returncode, 0, done)

    def test_after_a_reset_the_next_success_tells_no_old_failures(self):
        for tty in (b"/dev/pts/1", b"/dev/pts/2", b"/dev/pts/3"):
            self.assertCode(self.auth(self.wrong(), tty=tty), PAM_AUTH_ERR)
        self.patternctl("reset", USER)
        right = self.auth(PATTERN)
        self.assertCode(right, PAM_SUCCESS)
        self.assertEqual(infos(right), [], right)
        # Still listed for `patternctl status`.
        self.assertEqual(len(read_record(self.fixture.state_dir)[1]), 3)

    def test_after_a_change_the_next_success_tells_no_old_failures(self):
        # patternctl sets patterns for real accounts only: daemon's.
        self.fixture.enrol("daemon", PATTERN)
        for tty in (b"/dev/pts/1", b"/dev/pts/2"):
            self.assertCode(self.auth(self.wrong(), tty=tty, user="daemon"), PAM_AUTH_ERR)
        self.patternctl("set", "--cost", "1", "daemon", stdin=b"%s\n%s\n" % (OTHER.encode(), OTHER.encode()))
        right = self.auth(OTHER, user="daemon")
        self.assertCode(right, PAM_SUCCESS)
        self.assertEqual(infos(right), [], right)

    def test_failures_after_a_reset_are_told(self):
        self.auth(self.wrong(), tty=b"/dev/pts/1")
        self.patternctl("reset", USER)
        self.auth(self.wrong(), tty=b"/dev/pts/4")
        self.assertRegex(infos(self.auth(PATTERN))[0], rb"^1 failed pattern attempt since .* on /dev/pts/4 at ")

    def test_one_failure_is_singular(self):
        self.auth(self.wrong())
        self.assertRegex(infos(self.auth(PATTERN))[0], rb"^1 failed pattern attempt since")

    def test_record_is_capped_oldest_dropped(self):
        for index in range(CAPACITY + 4):
            self.assertCode(self.auth(self.wrong(), tty=b"tty%d" % index), PAM_AUTH_ERR)
        unseen, entries = read_record(self.fixture.state_dir)
        self.assertEqual(unseen, CAPACITY + 4)
        self.assertEqual([e[2] for e in entries], [b"tty%d" % i for i in range(4, CAPACITY + 4)])
        self.assertRegex(infos(self.auth(PATTERN))[0], rb"^20 failed pattern attempts .* on tty19 at ")

    def test_a_silent_success_ends_the_run_too(self):
        # "since your last success" means any success: a silent one (sudo on Debian 12) or one at a locker,
        # where nothing could be told, still ends the run; the next notice counts only what came after it.
        self.auth(self.wrong())
        silent = self.auth(PATTERN, flags=PAM_SILENT)
        self.assertCode(silent, PAM_SUCCESS)
        self.assertEqual(silent.conversation.messages[1:], [], silent)
        self.assertEqual(read_record(self.fixture.state_dir)[0], 0)
        self.assertEqual(infos(self.auth(PATTERN)), [])
        self.auth(self.wrong(), tty=b"/dev/pts/5")
        self.assertRegex(infos(self.auth(PATTERN))[0], rb"^1 failed pattern attempt since .* on /dev/pts/5 at ")

    def test_lock_is_mentioned_when_the_failures_reached_deny(self):
        for _ in range(2):
            self.auth(self.wrong(), options="deny=2 unlock_time=1")
        os.utime(record_path(self.fixture.state_dir))  # nothing depends on the record's times
        import time

        time.sleep(1.1)
        right = self.auth(PATTERN, options="deny=2 unlock_time=1")
        self.assertCode(right, PAM_SUCCESS)
        self.assertIn(b"\nThey locked your pattern for a while", infos(right)[0])

    def test_remote_host_is_recorded_and_cleaned(self):
        self.auth(self.wrong(), options="deny=100 allow_remote", host=b"evil\x1b[2J host")
        _, entries = read_record(self.fixture.state_dir)
        self.assertEqual(entries[0][3], b"evil?[2J?host")
        notice = infos(self.auth(PATTERN, options="deny=100 allow_remote", host=b"ok"))[0]
        self.assertIn(b"(host evil?[2J?host)", notice)
        self.assertNotIn(b"\x1b", notice)

    def test_malformed_record_is_started_afresh(self):
        self.auth(self.wrong())
        with open(record_path(self.fixture.state_dir), "wb") as f:
            f.write(b"garbage\n")
        self.assertCode(self.auth(self.wrong()), PAM_AUTH_ERR)
        self.assertEqual(read_record(self.fixture.state_dir)[0], 1)

    def test_file_size_limit_cannot_tear_the_record(self):
        self.fixture.service("deny=100 lock_after=0", name="pattern-record")
        self.auth(self.wrong())  # state (31 bytes) and record exist
        path = record_path(self.fixture.state_dir)
        with open(path, "rb") as f:
            before = f.read()

        def limited(soft, hard, xfsz):
            def run():
                # Python starts with SIGXFSZ ignored; su has the default action (die).
                signal.signal(signal.SIGXFSZ, xfsz)
                resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
                return summary(self.auth(self.wrong(), write_service=False))

            return run

        # A hard limit below the record: nothing is written, the guess is refused before it is counted or
        # hashed (fail closed), whether SIGXFSZ would kill the host or not; nothing torn, no temp file left.
        # (Below the record as it will be: the one before and a line more.)
        for xfsz in (signal.SIG_DFL, signal.SIG_IGN):
            result = in_child(limited(len(before) - 1, len(before) - 1, xfsz))
            self.assertEqual(code_name(result["code"]), code_name(PAM_AUTHINFO_UNAVAIL), result)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), before)
            self.assertEqual(failures(self.fixture.state_dir, USER), 1)
            self.assertEqual([n for n in os.listdir(self.fixture.state_dir) if ".tmp." in n], [])
        # Only the soft limit low: raised for the write (FileSizeRoom), so the guess is listed and counted.
        result = in_child(limited(5, resource.RLIM_INFINITY, signal.SIG_DFL))
        self.assertEqual(code_name(result["code"]), code_name(PAM_AUTH_ERR), result)
        self.assertEqual(failures(self.fixture.state_dir, USER), 2)
        self.assertEqual(read_record(self.fixture.state_dir)[0], 2)


if __name__ == "__main__":
    unittest.main()
