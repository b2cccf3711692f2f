"""Parallel logins through the real module (libpam, one process each: Tests/FaultTests/pam_once.c) while
patternctl set/remove rewrites the store in a loop.

- 32 different users at once (3 rounds), half right, half wrong: every answer is the right one, every
  wrong guess is counted exactly once, none is lost;
- 64 processes of one user with deny=1000: all 64 failures counted, each process saw a different count;
- 64 processes of one user with the default throttle (deny=5): exactly 5 guesses are verified, the other
  59 are refused without one, the count is 5;
- all of it while patternctl set/remove runs in a loop on other users: never a torn store (no
  PAM_AUTHINFO_UNAVAIL, the store parses after every round), no crash, every patternctl call succeeds.

All processes start together (a FIFO barrier), so they really race for the locks.
Root only. Run: PYTHONPATH=<repo>/Tests PAM_PATTERN_BUILD=<repo>/build PAM_PATTERN_ROOT=<repo> python3 -m unittest discover -s Tests/ConcurrencyTests
"""

import os
import re
import subprocess
import sys
import threading
import time
import unittest

from support.fault import hold, pam_once, require_root_and_build
from support.formats import parse_store
from support.pam import PAM_AUTHINFO_UNAVAIL, PAM_AUTH_ERR, PAM_SUCCESS
from support.guesses import wrong_patterns
from support.sandbox import OTHER, RIGHT, Tree, WRONG

# Real system users (patternctl refuses names without a passwd entry) for the set/remove loop.
CHURN_USERS = ["daemon", "bin", "sys", "sync", "games", "man", "lp", "mail"]
WRONG_MESSAGE = re.compile(r"^error: Wrong pattern\.")
LEFT = re.compile(r"(\d+) tries left")
SUSTAIN = 10
# 64 different wrong patterns: the throttle's guarantee is for different guesses (the same wrong pattern again,
# with nothing tried in between, is not counted at all).
DIFFERENT_WRONGS = wrong_patterns(64, avoid=(RIGHT, OTHER))
# Users that only ever get wrong guesses in the sustained test (deny=1000: each can count 1000).
COUNTERS = ["counter%d" % i for i in range(4)]


class Churn(threading.Thread):
    """patternctl set and remove in a loop until stopped; records every failure."""

    def __init__(self, tree):
        super().__init__(daemon=True)
        self.tree = tree
        self.stop = threading.Event()
        self.iterations = 0
        self.failures = []

    def run(self):
        i = 0
        while not self.stop.is_set():
            user = CHURN_USERS[i % len(CHURN_USERS)]
            result = self.tree.set(user, OTHER) if (i // len(CHURN_USERS)) % 2 == 0 else self.tree.ctl("remove", user)
            if result.returncode != 0:
                self.failures.append((user, result.returncode, result.stderr))
            self.iterations += 1
            i += 1


class ConcurrencyTests(unittest.TestCase):
    def setUp(self):
        require_root_and_build()
        self.tree = Tree(module_options="deny=5 unlock_time=60 lock_after=20")
        self.addCleanup(self.tree.close)
        self.tree.service("pattern-many", "deny=1000 unlock_time=60 lock_after=0")
        # 32 users and a target, all with the same pattern; the store is written before the churn starts.
        self.tree.set("daemon", RIGHT, check=True)
        line = parse_store(self.tree.store_bytes())[0]
        self.users = ["user%02d" % i for i in range(32)]
        with open(self.tree.store, "wb") as f:
            for user in self.users + ["target"] + COUNTERS:
                f.write(b"%s:%s:%d\n" % (user.encode(), line[1], line[2]))
        self.churn = Churn(self.tree)
        self.churn.start()
        self.addCleanup(self.stop_churn)
        pam_once()  # compiled before the clock matters

    def stop_churn(self):
        self.churn.stop.set()
        self.churn.join(60)

    def race(self, jobs, service="pattern-fault"):
        """Runs pam_once for each (user, answer) at the same moment; returns [(code, transcript)]."""
        go = os.path.join(self.tree.root, "go")
        if os.path.exists(go):
            os.unlink(go)
        os.mkfifo(go, 0o600)
        # Held open for writing while the processes start, so none blocks in open(); closing it is "go".
        holder = os.open(go, os.O_RDWR)
        environment = dict(os.environ, PAM_ONCE_GO=go)
        processes = [
            subprocess.Popen(
                self.tree.auth_argv(user, answer, service),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=environment,
            )
            for user, answer in jobs
        ]
        fifo = os.stat(go)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(self.waiting_on(p.pid, fifo) for p in processes):
            time.sleep(0.02)
        before = self.churn.iterations
        os.close(holder)
        results = []
        for process in processes:
            out, err = process.communicate(timeout=120)
            self.assertEqual(process.returncode, 0, "pam_once died (%d): %r" % (process.returncode, err))
            lines = out.decode(errors="replace").splitlines()
            results.append((int(lines[-1][3:]), lines[:-1]))
        self.overlap = self.churn.iterations - before
        # After every round: the store is whole, and the churn never failed.
        parse_store(self.tree.store_bytes())
        self.assertEqual(self.churn.failures, [])
        for code, transcript in results:
            self.assertNotEqual(code, PAM_AUTHINFO_UNAVAIL, "store or state unusable during the race: %s" % transcript)
        return results

    @staticmethod
    def waiting_on(pid, fifo):
        """True once process `pid` holds the FIFO open (it is blocked reading it)."""
        try:
            for fd in os.listdir("/proc/%d/fd" % pid):
                try:
                    info = os.stat("/proc/%d/fd/%s" % (pid, fd))
                except OSError:
                    continue
                if (info.st_dev, info.st_ino) == (fifo.st_dev, fifo.st_ino):
                    return True
        except FileNotFoundError:
            return True  # already gone (it will show in its result)
        return False

    def test_32_different_users_in_parallel(self):
        tree = self.tree
        overlaps = []
        for round_number in range(3):
            right = set(self.users[round_number % 2 :: 2])
            jobs = [(user, RIGHT if user in right else WRONG) for user in self.users]
            results = self.race(jobs)
            overlaps.append(self.overlap)
            for (user, answer), (code, transcript) in zip(jobs, results):
                if answer == RIGHT:
                    self.assertEqual(code, PAM_SUCCESS, (user, transcript))
                    self.assertEqual(tree.failures(user), 0)
                else:
                    self.assertEqual(code, PAM_AUTH_ERR, (user, transcript))
                    self.assertTrue(any(WRONG_MESSAGE.match(l) for l in transcript), transcript)
            # Every wrong guess counted once; a right one clears the count.
            for user in self.users:
                self.assertEqual(tree.failures(user), self.expected_failures(user, round_number), user)
        print(
            "\n  32 users x 3 rounds: all answers right, patternctl set/remove ran %s times during the races"
            % overlaps,
            file=sys.stderr,
        )

    def expected_failures(self, user, last_round):
        """Failures after rounds 0..last_round: even users are right in even rounds, wrong in odd ones."""
        count = 0
        for round_number in range(last_round + 1):
            right = (self.users.index(user) % 2) == (round_number % 2)
            count = 0 if right else count + 1
        return count

    def test_64_processes_of_one_user_all_counted(self):
        results = self.race([("target", wrong) for wrong in DIFFERENT_WRONGS], service="pattern-many")
        self.assertTrue(all(code == PAM_AUTH_ERR for code, _ in results), results)
        self.assertEqual(self.tree.failures("target"), 64, "lost failure counts")
        left = []
        for _, transcript in results:
            found = [LEFT.search(l) for l in transcript if WRONG_MESSAGE.match(l)]
            self.assertEqual(len(found), 1, transcript)
            left.append(int(found[0].group(1)))
        # Each process recorded its failure on top of all the earlier ones: 999, 998, ..., 936.
        self.assertEqual(sorted(left), list(range(1000 - 64, 1000)))
        print(
            "\n  64 parallel wrong guesses (deny=1000): 64 counted, each saw a distinct count; "
            "patternctl ran %d times during the race" % self.overlap,
            file=sys.stderr,
        )

    def test_64_processes_of_one_user_no_guess_past_the_throttle(self):
        results = self.race([("target", wrong) for wrong in DIFFERENT_WRONGS])
        verified = [t for _, t in results if any(WRONG_MESSAGE.match(l) for l in t)]
        refused = [t for _, t in results if any(l.startswith("error: Too many wrong patterns") for l in t)]
        self.assertTrue(all(code == PAM_AUTH_ERR for code, _ in results))
        self.assertEqual(len(verified), 5, "guesses verified past the throttle")
        self.assertEqual(len(refused), 59)
        self.assertEqual(self.tree.failures("target"), 5)
        # Even the right pattern is now refused without a try.
        code, transcript = self.tree.auth("target", RIGHT)
        self.assertEqual(code, PAM_AUTH_ERR)
        self.assertFalse(any(l.startswith("prompt:") for l in transcript), transcript)
        print(
            "\n  64 parallel wrong guesses (deny=5): 5 verified, 59 refused without a hash; "
            "patternctl ran %d times during the race" % self.overlap,
            file=sys.stderr,
        )

    def test_sustained_logins_during_store_rewrites(self):
        # SUSTAIN seconds of back-to-back logins, 16 at a time, while the churn rewrites the store:
        # every right answer succeeds (the module never reads a torn or half-renamed store), and every
        # wrong guess that was verified ("Wrong pattern.") is counted: failures == verified guesses.
        tree = self.tree
        jobs = []
        wrongs = wrong_patterns(20000, avoid=(RIGHT, OTHER), length=6)  # a different one for every wrong job
        for i in range(100000):
            if i % 4 == 3:
                jobs.append((COUNTERS[(i // 4) % len(COUNTERS)], wrongs[(i // 4) % len(wrongs)]))
            else:
                jobs.append((self.users[i % 32], RIGHT))
        lock = threading.Lock()
        outcomes = {"right": 0, "verified": {c: 0 for c in COUNTERS}, "refused": 0, "bad": []}
        deadline = time.monotonic() + SUSTAIN
        start_iterations = self.churn.iterations

        def worker():
            while time.monotonic() < deadline:
                with lock:
                    user, answer = jobs.pop()
                service = "pattern-fault" if answer == RIGHT else "pattern-many"
                code, transcript = tree.auth(user, answer, service=service)
                with lock:
                    if answer == RIGHT and code == PAM_SUCCESS:
                        outcomes["right"] += 1
                    elif code == PAM_AUTH_ERR and any(WRONG_MESSAGE.match(l) for l in transcript):
                        outcomes["verified"][user] += 1
                    elif code == PAM_AUTH_ERR and any(l.startswith("error: Too many") for l in transcript):
                        outcomes["refused"] += 1
                    else:
                        outcomes["bad"].append((user, code, transcript))

        workers = [threading.Thread(target=worker) for _ in range(16)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        rewrites = self.churn.iterations - start_iterations
        self.assertEqual(outcomes["bad"], [])
        self.assertEqual(self.churn.failures, [])
        for counter in COUNTERS:
            self.assertEqual(tree.failures(counter), outcomes["verified"][counter], "lost failure counts")
            self.assertLessEqual(outcomes["verified"][counter], 1000, "guesses past deny=1000")
        parse_store(tree.store_bytes())
        self.assertGreater(rewrites, 10, "the store was hardly rewritten during the logins")
        wrong = sum(outcomes["verified"].values())
        print(
            "\n  %ds sustained: %d right logins, %d wrong guesses verified and all counted, %d refused by "
            "the throttle, %d store rewrites by patternctl"
            % (SUSTAIN, outcomes["right"], wrong, outcomes["refused"], rewrites),
            file=sys.stderr,
        )


class ReplacedWhileReadingTests(unittest.TestCase):
    """The race the sustained test found, made deterministic: strace holds the module right after it
    opened the store, patternctl replaces the store (rename) meanwhile, and the module goes on with its
    descriptor on the old, now unlinked file (nlink 0). That file is the complete previous store: the
    login must go through, not fail as "0 hard links" (PAM_AUTHINFO_UNAVAIL)."""

    def setUp(self):
        require_root_and_build()
        self.tree = Tree()
        self.addCleanup(self.tree.close)
        self.tree.set("daemon", RIGHT, check=True)

    def run_replacing(self, argv, opening):
        """Runs argv, held by strace for 1.5 s right after its `opening`-th open of the store, while
        patternctl set replaces the store; returns (exit status, stdout lines)."""
        tree = self.tree
        when = tree.aim(argv, "openat", '"patterns"', occurrence=opening)
        traced = subprocess.Popen(
            hold("openat", 1500000, when) + argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        time.sleep(0.5)  # inside the delay: the reader holds the old store open
        tree.set("bin", OTHER, check=True)
        out, err = traced.communicate(timeout=60)
        return traced.returncode, out.decode(errors="replace").splitlines(), err.decode(errors="replace")

    def replace_during(self, opening, answer, expected):
        _, lines, _ = self.run_replacing(self.tree.auth_argv("daemon", answer), opening)
        self.assertEqual(int(lines[-1][3:]), expected, lines)

    def test_store_replaced_while_patternctl_lists_it(self):
        status, lines, err = self.run_replacing(self.tree.ctl_argv("list"), 1)
        self.assertEqual(status, 0, err)
        self.assertTrue(any(l.startswith("daemon ") for l in lines), lines)

    def test_store_replaced_after_the_lookup_opened_it(self):
        self.replace_during(1, RIGHT, PAM_SUCCESS)

    def test_store_replaced_after_the_guess_gate_opened_it(self):
        # The second opening: the gate's own lookup, with the prompt already answered.
        self.replace_during(2, WRONG, PAM_AUTH_ERR)
        self.assertEqual(self.tree.failures("daemon"), 1)


if __name__ == "__main__":
    unittest.main()
