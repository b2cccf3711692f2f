"""patternctl reads /etc/security/pam_pattern.conf (or --conf, root only) as the module does:
its settings are the defaults of every command, command-line options override
them, and an unsafe or malformed file stops patternctl with a message naming
the line (exit 1) before anything is read or written."""

import os
import subprocess
import textwrap
import time
import unittest

from support import cli
from support.cli import run, USER_A, GOOD
from support.paths import PATTERNCTL
from support.sandbox import SandboxCase


class ConfTests(SandboxCase):
    def setUp(self):
        super().setUp()
        self.conf = os.path.join(self.box.directory, "pam_pattern.conf")

    def write_conf(self, text, mode=0o644):
        self.box.write_conf(text, mode)

    def ctl(self, *argv, stdin=""):
        return run(argv[0], "--conf", self.conf, *self.box.args(), *argv[1:], stdin=stdin)

    def status(self, *extra):
        result = self.ctl("status", *extra, USER_A)
        self.assertEqual(result.code, 0, result)
        return dict(line.split(": ", 1) for line in result.out.splitlines() if ": " in line and line[:1] != " ")

    def test_cost_and_minlen_come_from_the_file(self):
        self.write_conf("cost = 2\nminlen = 8\n")
        short = self.ctl("set", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD))  # 7 dots
        self.assertEqual(short.code, 1, short)
        self.assertIn("at least 8", short.err)
        made = self.ctl("set", USER_A, stdin="15698743\n15698743\n")
        self.assertEqual(made.code, 0, made)
        self.assertTrue(self.status()["hash"].endswith("(cost 2)"))
        self.assertIn("yescrypt cost 2", made.out)

    def test_malformed_file_stops_every_command_naming_the_line(self):
        self.write_conf("# policy\ndeny = 2\nunlock_time = 2m\n")
        for argv in (("status", USER_A), ("list",), ("set", USER_A), ("reset", USER_A), ("show", GOOD)):
            with self.subTest(argv=argv):
                result = self.ctl(*argv, stdin="%s\n%s\n" % (GOOD, GOOD))
                self.assertEqual(result.code, 1, result)
                self.assertIn(
                    "%s line 3: unlock_time must be a whole number from 1 to 31536000" % self.conf, result.err
                )
        self.assertFalse(os.path.exists(self.box.store), "nothing was written")

    def test_unsafe_file_is_refused(self):
        self.write_conf("deny = 2\n", mode=0o666)
        result = self.ctl("status", USER_A)
        self.assertEqual(result.code, 1, result)
        self.assertIn("writable by group or others", result.err)

    def test_command_line_overrides_the_file(self):
        self.write_conf("deny = 2\n")
        self.assertEqual(self.ctl("set", "--cost", "1", USER_A, stdin="%s\n%s\n" % (GOOD, GOOD)).code, 0)
        self.box.write_state(USER_A, 2, int(time.time()))
        self.assertTrue(self.status()["locked"].startswith("until"))
        self.assertEqual(self.status("--deny", "3")["locked"], "no")

    def test_conf_option_is_for_root_only(self):
        self.write_conf("deny = 2\n")
        result = run("--conf", self.conf, "show", GOOD, as_nobody=True)
        self.assertEqual(result.code, 1, result)
        self.assertIn("'--conf' is for root only", result.err)
        # without --conf the same command works for anyone
        self.assertEqual(run("show", GOOD, as_nobody=True).code, 0)

    def test_default_path_is_etc_security_pam_pattern_conf(self):
        # A private mount namespace with a tmpfs over /etc/security: the real one is never touched.
        state = self.box.state_path(USER_A)
        script = textwrap.dedent(f"""
            mount -t tmpfs -o mode=0755 tmpfs /etc/security
            printf '%010d %019d\\n' 2 "$(date +%s)" > {state}
            chmod 600 {state}
            p() {{ {PATTERNCTL} "$@" --store {self.box.store} --state {self.box.state}; }}
            printf '{GOOD}\\n{GOOD}\\n' | p set --cost 1 {USER_A} >/dev/null
            printf '%010d %019d\\n' 2 "$(date +%s)" > {state}
            echo "--none"; p status {USER_A} | grep locked
            printf 'deny = 2\\nunlock_time = 120\\n' > /etc/security/pam_pattern.conf
            echo "--deny2"; p status {USER_A} | grep locked
            printf 'deny = two\\n' > /etc/security/pam_pattern.conf
            echo "--bad"; p status {USER_A} 2>&1 || echo "exit=$?"
        """)
        result = subprocess.run(
            ["unshare", "--mount", "--propagation", "private", "bash", "-eu", "-c", script],
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(result.returncode, 0, result.stderr)
        none = result.stdout.split("--none")[1].split("--deny2")[0].strip()
        deny2 = result.stdout.split("--deny2")[1].split("--bad")[0].strip()
        bad = result.stdout.split("--bad")[1].strip()
        self.assertEqual(none, "locked: no")
        self.assertRegex(deny2, r"^locked: until %s \(1[12]\d s\)$" % cli.LOCAL_UTC)
        self.assertIn("/etc/security/pam_pattern.conf line 1: deny must be a whole number", bad)
        self.assertIn("exit=1", bad)
        self.assertFalse(
            os.path.exists("/etc/security/pam_pattern.conf")
            and "deny = two" in open("/etc/security/pam_pattern.conf").read()
        )


if __name__ == "__main__":
    unittest.main()
