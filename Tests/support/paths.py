"""Where the repository and the built products are, and the one policy for what a suite needs.

PAM_PATTERN_ROOT (the repository) and PAM_PATTERN_BUILD (what `make build` made) come from the Makefile;
run by hand, they default to this checkout and its build/.

The policy, the same in every suite: a missing build FAILS (a suite that cannot test must not look like a
passing one); a missing root, tool or kernel feature SKIPS with one line saying what is missing.
"""

import os
import shutil
import subprocess
import unittest

ROOT = os.environ.get("PAM_PATTERN_ROOT", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
BUILD = os.environ.get("PAM_PATTERN_BUILD", os.path.join(ROOT, "build"))
MODULE = os.path.join(BUILD, "pam_pattern.so")
PATTERNCTL = os.path.join(BUILD, "patternctl")
HELPER = os.path.join(BUILD, "pam_pattern_helper")
TPM_DRIVER = os.path.join(BUILD, "tpm-driver")
# The helper's path compiled into the module (HelperRequest.installedPath).
INSTALLED_HELPER = "/usr/sbin/pam_pattern_helper"
# Where the helper suites and shared C drivers live.
SUPPORT = os.path.dirname(os.path.abspath(__file__))
# What a child python3 needs in its environment to import this package.
PYTHONPATH = os.path.dirname(SUPPORT)


def require_built(*paths):
    """Fails (not skips) unless every path exists: a missing build must not look like a passing suite."""
    for path in paths or (MODULE, PATTERNCTL):
        if not os.path.exists(path):
            raise AssertionError("not built: %s (make build, or set PAM_PATTERN_BUILD)" % path)


def require_root(why):
    """Skips, saying why, unless running as root."""
    if os.geteuid() != 0:
        raise unittest.SkipTest("needs root: %s (run `make test` as root)" % why)


def require_tools(*tools):
    """Skips unless every tool is on PATH."""
    for tool in tools:
        if shutil.which(tool) is None:
            raise unittest.SkipTest("%s is not installed (make deps)" % tool)


def run(argv, **kwargs):
    """subprocess.run with output captured and a 60 s timeout unless told otherwise."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("timeout", 60)
    return subprocess.run(argv, **kwargs)
