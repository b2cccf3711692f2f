"""`patternctl set` on a terminal: asks twice with echo off, asks again after a mismatch (three rounds at most)."""
import fcntl
import os
import pty
import select
import signal
import subprocess
import termios
import time
import unittest

import ctltest
from ctltest import Sandbox, USER_A, GOOD


class TerminalSession:
    """patternctl running on a fresh pseudo-terminal (stdin, stdout and stderr)."""

    def __init__(self, argv, env=None):
        self.pid, self.master = pty.fork()
        if self.pid == 0:  # child
            os.environ.update({"LANG": "C.UTF-8", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TERM": "xterm-256color"})
            for name, value in (env or {}).items():   # None: unset
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            os.execv(ctltest.PATTERNCTL, [ctltest.PATTERNCTL] + argv)
        self.output = b""

    def read_until(self, marker, timeout=30):
        """Reads until `marker` (bytes) has appeared after everything read so far was consumed."""
        deadline = time.monotonic() + timeout
        start = len(self.output)
        while marker not in self.output[start:]:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError("timed out waiting for %r; got %r" % (marker, self.output))
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError("terminal closed waiting for %r; got %r" % (marker, self.output))
                self.output += chunk
        return self.output[start:]

    def type(self, text):
        os.write(self.master, text.encode() + b"\r")

    def finish(self, timeout=60):
        """Reads the rest of the output and returns the exit status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                self.output += chunk
        _, status = os.waitpid(self.pid, 0)
        os.close(self.master)
        return os.waitstatus_to_exitcode(status)


class DrawingStyleTests(unittest.TestCase):
    """Unicode only where the terminal can show it: a UTF-8 locale and a TERM that draws."""

    @classmethod
    def setUpClass(cls):
        ctltest.require_binary()

    def drawing(self, **env):
        tty = TerminalSession(["show", "2136"], env=env)
        self.assertEqual(tty.finish(), 0, tty.output)
        return tty.output

    def test_unicode_on_a_utf8_terminal(self):
        output = self.drawing()
        self.assertIn("←[2]".encode(), output)
        self.assertIn("─→─".encode(), output)

    def test_ascii_where_the_terminal_cannot_show_it(self):
        for env in ({"TERM": "dumb"}, {"TERM": "linux"}, {"TERM": "vt100"}, {"TERM": None},
                    {"LANG": "C"}, {"LANG": "C", "LC_ALL": "C"}):
            with self.subTest(env=env):
                output = self.drawing(**env)
                self.assertIn(b"<[2]", output)
                self.assertTrue(all(byte < 0x80 for byte in output), output)


class TerminalSetTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ctltest.require_binary()

    def setUp(self):
        ctltest.require_root(self)
        self.box = Sandbox()
        self.addCleanup(self.box.close)

    def session(self, *argv):
        return TerminalSession(["set"] + self.box.args() + ["--cost", "1"] + list(argv) + [USER_A])

    def test_asks_twice_with_echo_off_and_draws(self):
        tty = self.session()
        self.assertIn(b"Setting the unlock pattern for %s." % USER_A.encode(), tty.read_until(b"Pattern: "))
        tty.type(GOOD)
        tty.read_until(b"Again: ")
        tty.type(GOOD)
        status = tty.finish()
        self.assertEqual(status, 0, tty.output)
        self.assertNotIn(GOOD.encode(), tty.output, "the digits were echoed")
        # On a UTF-8 terminal the drawing uses box-drawing characters.
        self.assertIn("─".encode(), tty.output)
        self.assertIsNotNone(self.box.store_bytes())

    def test_mismatch_then_weak_then_success_in_three_rounds(self):
        tty = self.session()
        tty.read_until(b"Pattern: ")
        tty.type(GOOD)
        tty.read_until(b"Again: ")
        tty.type("1236987")
        self.assertIn(b"not the same pattern; try again", tty.read_until(b"Pattern: "))
        tty.type("1235789")
        self.assertIn(b"too easy to guess", tty.read_until(b"Pattern: "))
        tty.type(GOOD)
        tty.read_until(b"Again: ")
        tty.type(GOOD)
        self.assertEqual(tty.finish(), 0, tty.output)
        self.assertIsNotNone(self.box.store_bytes())

    def test_gives_up_after_three_rounds_and_changes_nothing(self):
        tty = self.session()
        for _ in range(3):
            tty.read_until(b"Pattern: ")
            tty.type("123")
        self.assertEqual(tty.finish(), 1, tty.output)
        self.assertIn(b"nothing was changed", tty.output)
        self.assertIsNone(self.box.store_bytes())

    def test_echo_is_restored_after_an_interrupt(self):
        # The test keeps its own handle on the terminal, so it can look at the
        # terminal's flags after patternctl has died of the Ctrl-C.
        master, slave = os.openpty()
        self.addCleanup(os.close, master)
        self.addCleanup(os.close, slave)

        def controlling_terminal():
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

        argv = [ctltest.PATTERNCTL, "set"] + self.box.args() + ["--cost", "1", USER_A]
        # Checked before the start: a fast child may already have turned echo off.
        self.assertTrue(termios.tcgetattr(slave)[3] & termios.ECHO, "echo is on before")
        child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                                 preexec_fn=controlling_terminal, env={"LANG": "C.UTF-8"})
        self.addCleanup(lambda: child.poll() is None and child.kill())
        session = TerminalSession.__new__(TerminalSession)
        session.master, session.output = master, b""
        session.read_until(b"Pattern: ")
        self.assertFalse(termios.tcgetattr(slave)[3] & termios.ECHO, "echo is off while typing")
        os.write(master, b"\x03")  # Ctrl-C: SIGINT from the terminal
        self.assertEqual(child.wait(timeout=30), -signal.SIGINT)
        self.assertTrue(termios.tcgetattr(slave)[3] & termios.ECHO, "echo was not restored")
        self.assertIsNone(self.box.store_bytes())

if __name__ == "__main__":
    unittest.main()
