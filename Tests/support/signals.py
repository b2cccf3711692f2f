"""Signal dispositions a test's child must start from, whatever the test runner inherited.

A shell starts background jobs (`make test &`, `nohup make test`) with SIGINT and SIGQUIT ignored, nohup
ignores SIGHUP, some CI runners block signals: all of it is inherited through fork and exec. A program
that rightly keeps an inherited SIG_IGN (patternctl, the helper) would then survive the signal a test
sends it, and the test would report a failure of the program, or prove nothing. Tests that send a child
a signal, or that show the child handles one, start it from these defaults.
"""

import signal

# The signals a terminal, a shell or a test sends, and SIGPIPE (Python itself ignores it).
TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM, signal.SIGPIPE, signal.SIGTSTP)


def restore_defaults():
    """For preexec_fn (or the start of a child): every terminal signal SIG_DFL, nothing blocked."""
    for number in TERMINAL_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
