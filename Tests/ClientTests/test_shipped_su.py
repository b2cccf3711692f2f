"""The shipped pam.d/su keeps su's wheel restriction: real login, real su, real pam_wheel.

An administrator who restricts su to the wheel group uncomments the stock
line `# auth       required   pam_wheel.so` in the shipped file. Then a user
outside the group must not become root with root's pattern, and a member
must. The pattern line sits below the pam_wheel lines: `sufficient` ends the
auth stack at a right pattern, so a restriction below it would never run.

How: a private mount namespace (as test_real_clients.py) in which a copy of
the shipped pam.d/su (pam_wheel line uncommented, module path pointing at the
built module with a private store) is bind-mounted over /etc/pam.d/su, and a
test login service over /etc/pam.d/login. pam_wheel asks "who is the
applicant" with getlogin(), so the applicant logs in with the real /bin/login
(pam_loginuid, utmp on an empty bind-mounted file) and types `su root` in
their shell, as a person would. The shell's `logname` is checked first, so the
test cannot pass because pam_wheel saw someone else.

The wheel group is what pam_wheel uses without group=: "wheel" when it
exists, else the group with gid 0 ("root" on Debian). The member is added to
it with usermod -aG and leaves it with userdel; /etc is compared byte for
byte afterwards (ClientCase). Root only, about 20 s.
"""

import grp
import os
import shlex
import unittest

from support.clients import PATTERN, PROMPT, ClientCase
from support.paths import MODULE, ROOT, run
from support.system import PtySession

# unittest calls these around the module: the shared run flock (users, /etc).
from support.system import release_run_lock as tearDownModule  # noqa: F401
from support.system import take_run_lock as setUpModule  # noqa: F401


SHIPPED_SU = os.path.join(ROOT, "pam.d", "su")
# The stock Debian 12 line, exactly as the shipped file must keep it (commented out).
STOCK_WHEEL_LINE = "# auth       required   pam_wheel.so"
SHELL_PROMPT = b"$ "  # dash's PS1 (the test users' shell is /bin/sh)
SWITCH = b"su root -c 'echo SWITCHED-$(id -un)'\n"
SWITCHED = b"SWITCHED-root"


def wheel_group():
    """The group pam_wheel checks when it has no group= option."""
    try:
        return grp.getgrnam("wheel").gr_name
    except KeyError:
        return grp.getgrgid(0).gr_name


def enable_wheel(shipped, store, state, control="required"):
    """The shipped su with the stock pam_wheel line uncommented and pam_pattern pointed at the test build."""
    lines = shipped.splitlines()
    if STOCK_WHEEL_LINE not in lines:
        raise AssertionError("the shipped pam.d/su has no stock line %r to uncomment" % STOCK_WHEEL_LINE)
    out = []
    for line in lines:
        if line == STOCK_WHEEL_LINE:
            line = "auth       %s   pam_wheel.so" % control
        fields = line.split()
        if fields[:1] == ["auth"] and len(fields) >= 3 and fields[2] == "pam_pattern.so":
            line = line.replace("pam_pattern.so", "%s store=%s state=%s" % (MODULE, store, state), 1)
        out.append(line)
    return "\n".join(out) + "\n"


class WheelRestrictedSuTest(ClientCase):
    MEMBER = "ppwheel1"
    OUTSIDER = "ppwheel2"
    USERS = (MEMBER, OUTSIDER)
    tools = ("login", "su", "logname", "usermod", "unshare", "mount")
    NAMESPACE = True
    TIMEOUT = 40

    def setUp(self):
        super().setUp()
        added = run(["usermod", "-aG", wheel_group(), self.MEMBER])
        self.assertEqual(added.returncode, 0, added.stderr)
        self.enrol("root")  # in the private store only
        # The applicant's login: no secret needed (the test drives it); pam_loginuid makes getlogin() name them.
        self.login_pam = os.path.join(self.root, "login.pam")
        with open(self.login_pam, "w") as f:
            f.write(
                "auth required pam_permit.so\naccount required pam_permit.so\n"
                "session optional pam_loginuid.so\nsession required pam_permit.so\n"
            )
        os.chmod(self.login_pam, 0o644)
        self.su_pam = os.path.join(self.root, "su.pam")

    def configure_su(self, control="required"):
        with open(SHIPPED_SU) as f:
            text = enable_wheel(f.read(), self.store, self.state_dir, control)
        with open(self.su_pam, "w") as f:
            f.write(text)
        os.chmod(self.su_pam, 0o644)

    def su_as(self, user, answers):
        """`user` logs in, checks who getlogin() says they are, runs `su root`, answers `answers` (bytes per prompt)."""
        inner = "mount --bind %s /etc/pam.d/su && exec login" % shlex.quote(self.su_pam)
        argv = self.namespace_argv("/etc/pam.d/login", self.login_pam, "sh -c " + shlex.quote(inner))
        steps = [
            (b"login: ", user.encode() + b"\n"),
            (SHELL_PROMPT, b"echo APPLICANT-$(logname)\n"),
            (b"APPLICANT-" + user.encode(), None),
            (SHELL_PROMPT, SWITCH),
        ]
        steps += answers
        steps += [(SHELL_PROMPT, b"exit\n")]
        session = PtySession(argv, steps, end="eof", timeout=self.TIMEOUT)
        self.assertEqual(session.reached, len(steps), session)
        return session

    def after_su(self, session):
        return session.after(SWITCH.rstrip(b"\n"))

    def test_outsider_who_knows_roots_pattern_is_refused(self):
        self.configure_su()
        # required (stock): the stack goes on after pam_wheel fails, so the outsider is still asked for
        # the pattern and then the password; neither may let them in.
        session = self.su_as(
            self.OUTSIDER, [(PROMPT, PATTERN.encode() + b"\n"), (b"Password: ", b"\n"), (b"su: ", None)]
        )
        tail = self.after_su(session)
        self.assertNotIn(SWITCHED, tail, session)
        self.assertTrue(b"Permission denied" in tail or b"Authentication failure" in tail, session)

    def test_outsider_is_refused_before_any_prompt_with_requisite(self):
        self.configure_su("requisite")
        session = self.su_as(self.OUTSIDER, [(b"su: ", None)])
        tail = self.after_su(session)
        self.assertNotIn(PROMPT, tail, session)
        self.assertNotIn(SWITCHED, tail, session)
        self.assertEqual(self.failures("root"), 0)

    def test_member_becomes_root_with_roots_pattern(self):
        self.configure_su()
        session = self.su_as(self.MEMBER, [(PROMPT, PATTERN.encode() + b"\n"), (SWITCHED, None)])
        self.assertNotIn(b"Password: ", self.after_su(session), session)
        self.assertEqual(self.failures("root"), 0)


if __name__ == "__main__":
    unittest.main()
