"""Fault injection for the fault, concurrency and attack suites: the one-authentication driver
(pam_once.c, one pam_authenticate per process) and strace injection at the N-th matching system call.
The private trees they run in are support.sandbox.Tree.
"""

import atexit
import os
import re
import shutil
import subprocess
import tempfile

from support.paths import MODULE, PATTERNCTL, SUPPORT, require_built, require_root, require_tools


def require_root_and_build():
    """Fails without the built module and patternctl; skips unless root with gcc, strace and unshare."""
    require_built(MODULE, PATTERNCTL)
    require_root("root-owned store and state, strace injection, mount namespaces")
    require_tools("gcc", "strace", "unshare")


_pam_once = None


def pam_once():
    """The one-authentication driver (pam_once.c), compiled once per test process."""
    global _pam_once
    if _pam_once is None:
        directory = tempfile.mkdtemp(prefix="pam-once-")
        atexit.register(shutil.rmtree, directory, True)
        binary = os.path.join(directory, "pam_once")
        subprocess.run(
            ["gcc", "-Wall", "-Wextra", "-O2", "-rdynamic", "-o", binary, os.path.join(SUPPORT, "pam_once.c"), "-lpam"],
            check=True,
        )
        _pam_once = binary
    return _pam_once


def nth_call(argv, syscall, path_part, input=None, env=None, occurrence=1):
    """1-based index, among all `syscall` calls of a dry run of argv, of the `occurrence`-th one whose
    descriptor (or path) names a file containing `path_part`. strace's `when=` counts calls of that syscall, so this
    aims an injection at one exact write, fsync or rename without depending on the program's output."""
    log = tempfile.mktemp(prefix="strace-")
    try:
        subprocess.run(
            ["strace", "-f", "-y", "-qq", "-e", "trace=" + syscall, "-o", log] + list(argv),
            input=input,
            capture_output=True,
            timeout=60,
            env=env,
        )
        index = 0
        seen = 0
        with open(log, errors="replace") as f:
            for line in f:
                # "[pid N] write(3</path>, ..." or "N write(..." with -f and -o
                match = re.search(r"\b(%s)\((.*)" % syscall.replace(",", "|"), line)
                if not match or "resumed>" in line:
                    continue
                index += 1
                if path_part in match.group(2):
                    seen += 1
                    if seen == occurrence:
                        return index
        raise AssertionError("no %s on a path containing %r in a dry run of %s" % (syscall, path_part, argv))
    finally:
        if os.path.exists(log):
            os.unlink(log)


def inject(syscall, error, when):
    """The strace prefix that fails the `when`-th call of `syscall` with `error` (and only that one)."""
    return _strace_injecting(syscall, "error=%s" % error, when)


def hold(syscall, microseconds, when):
    """The strace prefix that holds the program for `microseconds` after the `when`-th call of `syscall`."""
    return _strace_injecting(syscall, "delay_exit=%d" % microseconds, when)


def _strace_injecting(syscall, action, when):
    return [
        "strace",
        "-f",
        "-qq",
        "-o",
        "/dev/null",
        "-e",
        "trace=" + syscall,
        "-e",
        "inject=%s:%s:when=%d" % (syscall, action, when),
    ]
