"""`patternctl set` on a terminal: asks twice with echo off, asks again after each refusal until given up.

ShellJobControlTests drive a real interactive bash in tmux, as a person would:
Ctrl-Z and `fg` at the prompt must not bring the echo back, and Ctrl-C,
SIGHUP and SIGTERM must leave the shell's terminal with echo on.
"""

import fcntl
import os
import pty
import shutil
import signal
import subprocess
import termios
import time
import unittest

from support import cli, signals
from support.cli import USER_A, GOOD
from support.paths import PATTERNCTL, require_built
from support.sandbox import SandboxCase
from support.system import Terminal


class TerminalSession(Terminal):
    """patternctl running on a fresh pseudo-terminal (stdin, stdout and stderr), with its own environment;
    reads through Terminal's."""

    def __init__(self, argv, env=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # child
            os.environ.update({"LANG": "C.UTF-8", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TERM": "xterm-256color"})
            for name, value in (env or {}).items():  # None: unset
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            os.execv(PATTERNCTL, [PATTERNCTL] + argv)
        self.output = b""

    def read_until(self, marker, timeout=30):
        """Reads until `marker` (bytes) has appeared after everything read so far was consumed."""
        deadline = time.monotonic() + timeout
        start = len(self.output)
        while marker not in self.output[start:]:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError("timed out waiting for %r; got %r" % (marker, self.output))
            if not self._read(remaining):
                raise AssertionError("terminal closed waiting for %r; got %r" % (marker, self.output))
        return self.output[start:]

    def type(self, text):
        os.write(self.fd, text.encode() + b"\r")

    def finish(self, timeout=60):
        """Reads the rest of the output and returns the exit status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(0.5):
            pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)


class DrawingStyleTests(unittest.TestCase):
    """Unicode only where the terminal can show it: a UTF-8 locale and a TERM that draws."""

    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)

    def drawing(self, **env):
        tty = TerminalSession(["show", "2136"], env=env)
        self.assertEqual(tty.finish(), 0, tty.output)
        return tty.output

    def test_unicode_on_a_utf8_terminal(self):
        output = self.drawing()
        self.assertIn("←[2]".encode(), output)
        self.assertIn("─→─".encode(), output)

    def test_ascii_where_the_terminal_cannot_show_it(self):
        for env in (
            {"TERM": "dumb"},
            {"TERM": "linux"},
            {"TERM": "vt100"},
            {"TERM": None},
            {"LANG": "C"},
            {"LANG": "C", "LC_ALL": "C"},
        ):
            with self.subTest(env=env):
                output = self.drawing(**env)
                self.assertIn(b"<[2]", output)
                self.assertTrue(all(byte < 0x80 for byte in output), output)


class TerminalSetTests(SandboxCase):
    def session(self, *argv):
        tty = TerminalSession(["set"] + self.box.args() + ["--cost", "1"] + list(argv) + [USER_A])
        self.addCleanup(self.end, tty)
        return tty

    @staticmethod
    def end(tty):
        """Kills a session a failed test left waiting at a prompt (a finished one was reaped already)."""
        try:
            if os.waitpid(tty.pid, os.WNOHANG) == (0, 0):
                os.kill(tty.pid, signal.SIGKILL)
                os.waitpid(tty.pid, 0)
        except ChildProcessError:
            pass

    def test_asks_twice_with_echo_off_and_draws(self):
        tty = self.session()
        self.assertIn(b"Setting the unlock pattern for %s." % USER_A.encode(), tty.read_until(b"New pattern: "))
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
        tty.read_until(b"New pattern: ")
        tty.type(GOOD)
        tty.read_until(b"Again: ")
        tty.type("1236987")
        self.assertIn(b"not the same pattern; try again", tty.read_until(b"New pattern: "))
        tty.type("1235789")
        self.assertIn(b"too easy to guess", tty.read_until(b"New pattern: "))
        tty.type(GOOD)
        tty.read_until(b"Again: ")
        tty.type(GOOD)
        self.assertEqual(tty.finish(), 0, tty.output)
        self.assertIsNotNone(self.box.store_bytes())

    def test_asks_again_after_five_refusals_then_sets(self):
        tty = self.session()
        tty.read_until(b"New pattern: ")
        refusals = (
            ("123", b"at least 4 are needed"),
            ("1235789", b"too easy to guess"),
            ("12a4", b"is not a dot"),
            ("1478963", b"too easy to guess"),
        )
        for entry, reason in refusals:
            tty.type(entry)
            said = tty.read_until(b"New pattern: ")
            self.assertIn(reason, said)
        # Each refusal says how to give up instead.
        self.assertEqual(tty.output.count(b"Try again, or press Enter alone to cancel."), len(refusals), tty.output)
        tty.type(GOOD)
        tty.read_until(b"Again: ")
        tty.type("1236987")
        self.assertIn(b"not the same pattern; try again", tty.read_until(b"New pattern: "))
        tty.type(GOOD)
        tty.read_until(b"Again: ")
        tty.type(GOOD)
        self.assertEqual(tty.finish(), 0, tty.output)
        self.assertIsNotNone(self.box.store_bytes())

    def test_ctrl_d_cancels_and_changes_nothing(self):
        tty = self.session()
        tty.read_until(b"New pattern: ")
        tty.type("123")
        tty.read_until(b"New pattern: ")
        os.write(tty.fd, b"\x04")
        tty.read_until(b"cancelled", timeout=10)
        self.assertEqual(tty.finish(), 1, tty.output)
        self.assertIn(b"patternctl: cancelled; nothing was changed", tty.output)
        self.assertIsNone(self.box.store_bytes())

    def test_empty_entry_cancels_and_changes_nothing(self):
        tty = self.session()
        tty.read_until(b"New pattern: ")
        tty.type(GOOD)
        tty.read_until(b"Again: ")
        tty.type("")
        tty.read_until(b"cancelled", timeout=10)
        self.assertEqual(tty.finish(), 1, tty.output)
        self.assertIn(b"patternctl: cancelled; nothing was changed", tty.output)
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
            # A person's terminal delivers Ctrl-C to a program that has SIGINT at its default; `make test &`
            # would hand down an ignored one, which patternctl rightly keeps.
            signals.restore_defaults()

        argv = [PATTERNCTL, "set"] + self.box.args() + ["--cost", "1", USER_A]
        # Checked before the start: a fast child may already have turned echo off.
        self.assertTrue(termios.tcgetattr(slave)[3] & termios.ECHO, "echo is on before")
        child = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, preexec_fn=controlling_terminal, env={"LANG": "C.UTF-8"}
        )
        self.addCleanup(lambda: child.poll() is None and child.kill())
        session = TerminalSession.__new__(TerminalSession)
        session.fd, session.output = master, b""
        session.read_until(b"New pattern: ")
        cli.wait_until_reading(child.pid)
        self.assertFalse(termios.tcgetattr(slave)[3] & termios.ECHO, "echo is off while typing")
        os.write(master, b"\x03")  # Ctrl-C: SIGINT from the terminal
        self.assertEqual(child.wait(timeout=30), -signal.SIGINT)
        self.assertTrue(termios.tcgetattr(slave)[3] & termios.ECHO, "echo was not restored")
        self.assertIsNone(self.box.store_bytes())


class ShellJobControlTests(SandboxCase):
    """patternctl run from an interactive bash in a private tmux server, the screen read with capture-pane."""

    TIMEOUT = 20

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if not shutil.which("tmux"):
            raise unittest.SkipTest("tmux is not installed (make deps)")

    def setUp(self):
        super().setUp()
        # A server of our own (-L): never the user's sessions, no user config (-f /dev/null).
        self.server = ["tmux", "-L", "pp-terminal-%d-%s" % (os.getpid(), self._testMethodName), "-f", "/dev/null"]
        environment = {
            "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
            "LANG": "C.UTF-8",
            "TERM": "xterm",
            "HOME": self.box.directory,
        }
        subprocess.run(
            self.server + ["new-session", "-d", "-s", "t", "-x", "160", "-y", "50", "bash --norc --noprofile -i"],
            env=environment,
            check=True,
            timeout=30,
            preexec_fn=signals.restore_defaults,  # the server and its shell: a terminal's defaults, not the runner's
        )
        socket = subprocess.run(
            self.server + ["display-message", "-p", "#{socket_path}"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout.strip()
        # tmux leaves its socket behind after kill-server: removed after it (cleanups run last-in first).
        self.addCleanup(lambda: os.path.exists(socket) and os.unlink(socket))
        self.addCleanup(subprocess.run, self.server + ["kill-server"], capture_output=True, timeout=30)
        self.command = " ".join([PATTERNCTL, "set"] + self.box.args() + ["--cost", "1", USER_A])
        self.type_line("echo SHELL-READY")
        self.wait_for_line("SHELL-READY")

    def keys(self, *keys):
        subprocess.run(self.server + ["send-keys", "-t", "t"] + list(keys), check=True, timeout=30)

    def type_line(self, text):
        self.keys("-l", text)
        self.keys("Enter")

    def screen(self):
        """Everything the pane shows, scrollback included, wrapped lines joined."""
        return subprocess.run(
            self.server + ["capture-pane", "-p", "-J", "-t", "t", "-S", "-1000"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout

    def wait_for(self, found, what):
        deadline = time.monotonic() + self.TIMEOUT
        while True:
            screen = self.screen()
            if found(screen):
                return screen
            if time.monotonic() >= deadline:
                raise AssertionError("timed out waiting for %s; screen:\n%s" % (what, screen))
            time.sleep(0.1)

    def wait_for_line(self, line):
        """Waits until a whole line of the screen is `line` (command output, not the typed command)."""
        return self.wait_for(lambda screen: line in screen.splitlines(), repr(line))

    def wait_for_count(self, text, count):
        return self.wait_for(lambda screen: screen.count(text) >= count, "%d x %r" % (count, text))

    def echo_state(self):
        """'echo' or '-echo', as `stty -a` in the shell reports it now."""
        self.type_line("echo STTY-BEGIN; stty -a; echo STTY-END")
        screen = self.wait_for_line("STTY-END")
        lines = screen.splitlines()
        start = max(index for index, line in enumerate(lines) if line == "STTY-BEGIN")
        words = " ".join(lines[start:]).replace(";", " ").split()
        states = [word for word in words if word in ("echo", "-echo")]
        self.assertTrue(states, screen)
        return states[0]

    def patternctl_pid(self):
        found = subprocess.run(
            ["pgrep", "-f", "--", "^%s set --store %s " % (PATTERNCTL, self.box.store)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        pids = found.stdout.split()
        self.assertEqual(len(pids), 1, found)
        return int(pids[0])

    def test_ctrl_z_then_fg_keeps_echo_off(self):
        self.type_line(self.command)
        self.wait_for_count("New pattern: ", 1)
        cli.wait_until_reading(self.patternctl_pid())
        self.keys("C-z")
        self.wait_for(lambda screen: "Stopped" in screen, "the job to stop")
        self.type_line("fg")
        # Back in the foreground: echo goes off again and the prompt comes again.
        self.wait_for_count("New pattern: ", 2)
        self.type_line(GOOD)
        self.wait_for_count("Again: ", 1)
        self.type_line(GOOD)
        self.wait_for(lambda screen: "Pattern set for" in screen, "the pattern to be set")
        self.type_line("echo EXIT-$?")
        screen = self.wait_for_line("EXIT-0")
        self.assertNotIn(GOOD, screen, "the digits were shown")
        for line in screen.splitlines():
            if line.startswith(("New pattern: ", "Again: ")):
                self.assertIn(line.strip(), ("New pattern:", "Again:"), "typed text shown: %r" % line)
        self.assertIsNotNone(self.box.store_bytes())
        self.assertEqual(self.echo_state(), "echo")

    def assert_echo_survives(self, stop, status, wrapped=False):
        # bash resets the terminal itself after a foreground job dies of a signal, which would hide a
        # patternctl that left echo off: with job control on for every signal, with `set +m` for all but
        # SIGINT. So: `set +m`, and for the other signals patternctl runs under sh, which touches no
        # terminal settings and exits normally (bash then keeps what patternctl left).
        self.type_line("set +m")
        self.type_line("sh -c '%s; echo EXIT-$?'" % self.command if wrapped else self.command)
        self.wait_for_count("New pattern: ", 1)
        pid = self.patternctl_pid()
        cli.wait_until_reading(pid)
        stop()
        # Keys typed before patternctl has restored the terminal would be flushed with its input (TCSAFLUSH).
        self.wait_for(lambda screen: not os.path.exists("/proc/%d" % pid), "patternctl %d to end" % pid)
        if not wrapped:
            self.type_line("echo EXIT-$?")
        self.wait_for_line("EXIT-%d" % status)
        self.assertEqual(self.echo_state(), "echo")
        self.assertIsNone(self.box.store_bytes())

    def test_ctrl_c_leaves_echo_on(self):
        self.assert_echo_survives(lambda: self.keys("C-c"), 128 + signal.SIGINT)

    def test_hangup_leaves_echo_on(self):
        self.assert_echo_survives(
            lambda: os.kill(self.patternctl_pid(), signal.SIGHUP), 128 + signal.SIGHUP, wrapped=True
        )

    def test_sigterm_leaves_echo_on(self):
        self.assert_echo_survives(
            lambda: os.kill(self.patternctl_pid(), signal.SIGTERM), 128 + signal.SIGTERM, wrapped=True
        )


if __name__ == "__main__":
    unittest.main()
