/* Running pam_pattern_helper, for the module and for patternctl alike (see the header).
 * In C because the child between its start and exec may only make plain system calls.
 *
 * The child shares the host's memory until it execs (clone with CLONE_VM | CLONE_VFORK, as glibc's
 * posix_spawn does). A fork copied the host's page tables and left every page copy-on-write: a screen locker
 * of 10 MiB paid about 1 ms for the fork and 3 ms of page faults after it, twice per authentication
 * (bench/spawn_probe.c, a row of make bench); and it ran the host's pthread_atfork handlers. Sharing memory
 * sets the rules the child keeps: a stack of its own (the calling thread waits, its stack untouched), every
 * signal blocked from before the clone until the child has reset all handlers (a host's handler must never
 * run in it), raw system calls where glibc would touch process-wide state (setuid's broadcast to the host's
 * threads), and nothing written to memory but its stack and errno. The one wait without a deadline is the
 * clone itself: a child stopped before its exec (SIGSTOP cannot be blocked) holds the calling thread until it
 * is continued. Only the host's own user can stop it, who can stop the host as well.
 *
 * Two ways to run it: pattern_run_helper (input, then one answer: every call but the module's) and the
 * session (pattern_helper_session_*, the module's `authenticate`: the check's line now, the guess later, the
 * child alive across the host's conversation; see the second half of this file). */
#define _GNU_SOURCE
#include "pattern_system.h"

#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* The child's stack: child_exec's frame and the calls it makes need a few hundred bytes. Its lowest page is
 * a guard: an overflow faults instead of writing into the host's memory. */
#define CHILD_STACK_BYTES (64 * 1024)
#define CHILD_STACK_GUARD_BYTES 4096

/* Lowest fd the child moves its pipe ends to before placing them on 0-2, so
 * a host with 0, 1 or 2 closed (pipe ends landing there) is handled. */
#define HELPER_SCRATCH_FD 10

/* After SIGKILL a child is waited for this long at most: SIGKILL ends any
 * process except one stuck inside the kernel, and the caller must not hang
 * on that one either (it is then left to the host to reap). */
#define REAP_AFTER_KILL_MS 1000

static long long monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void child_exec(const char *path, char *const argv[], int input, int output) {
    static char *const empty_environment[] = { NULL };
    /* A setuid host (su) runs with its caller's real uid, which the helper takes for the one asking: su to
     * another account would then be refused as "asking about another user". Root in full, as pam_unix does
     * for unix_chkpwd, when the host is root: the host has already chosen whom to authenticate, and the caller
     * can no longer signal the helper. First of all: until then the caller can signal this child too. A host
     * that is not root (a screen locker, patternctl) keeps its uid. */
    if (geteuid() == 0 && syscall(SYS_setuid, 0) != 0) _exit(127);
    /* Ignored signals stay ignored across exec, and a blocked mask is inherited:
     * the helper starts with the defaults whatever the host set. */
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    /* glibc refuses its own two real-time signals (32, 33), which a host may ignore too; the kernel takes a
     * zeroed action for them (SIG_DFL, no flags, empty mask). */
    static const unsigned long kernel_default[4] = { 0, 0, 0, 0 };
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        if (sigaction(sig, &default_action, NULL) != 0)
            (void)syscall(SYS_rt_sigaction, sig, kernel_default, NULL, (size_t)((_NSIG - 1) / 8));
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    int in = fcntl(input, F_DUPFD, HELPER_SCRATCH_FD);
    int out = fcntl(output, F_DUPFD, HELPER_SCRATCH_FD);
    int null = open("/dev/null", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (in < 0 || out < 0 || null < 0) _exit(127);
    if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0) _exit(127);
    /* Nothing of the host's (its X connection, sockets, files) reaches the helper. */
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
    {
        long max = sysconf(_SC_OPEN_MAX);
        if (max < 0 || max > 65536) max = 65536;
        for (long fd = 3; fd < max; fd++) close((int)fd);
    }
    execve(path, argv, empty_environment);
    _exit(127);
}

struct child_start {
    const char *path;
    char *const *argv;
    int input, output;
};

static int child_main(void *argument) {
    const struct child_start *start = argument;
    child_exec(start->path, start->argv, start->input, start->output);
    return 127;
}

/* Starts the child on its own stack, sharing the host's memory until it execs or exits (the calling thread
 * waits until then). Every signal is blocked in the calling thread around it; child_exec unblocks them in the
 * child once every handler is back at its default. The child's pid, or -1 (errno set). */
static pid_t start_child(struct child_start *start) {
    void *stack = mmap(NULL, CHILD_STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
                       -1, 0);
    if (stack == MAP_FAILED) return -1;
    if (mprotect(stack, CHILD_STACK_GUARD_BYTES, PROT_NONE) != 0) {
        int saved = errno;
        munmap(stack, CHILD_STACK_BYTES);
        errno = saved;
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = clone(child_main, (char *)stack + CHILD_STACK_BYTES, CLONE_VM | CLONE_VFORK | SIGCHLD, start);
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    munmap(stack, CHILD_STACK_BYTES);
    errno = saved;
    return pid;
}

/* Waits for the child to exit, until `deadline_ms`: 1 reaped (*wait_status set), 0 still running at the
 * deadline, -1 waitpid failed (errno). No signal or alarm in the host: a pidfd (Linux 5.3) is polled, which
 * wakes the moment the child exits; its pipe reaches end of file a little before the child is a zombie, and a
 * fixed nap there cost every call up to half a millisecond. Without a pidfd (older kernel, seccomp, the
 * host's fd limit reached) waitpid(WNOHANG) is polled with growing naps. */
static int reap_until(pid_t pid, long long deadline_ms, int *wait_status) {
#ifdef SYS_pidfd_open
    int exited_fd = (int)syscall(SYS_pidfd_open, pid, 0);  /* close-on-exec by definition */
#else
    int exited_fd = -1;
#endif
    long pause_us = 500;
    int result;
    for (;;) {
        pid_t waited = waitpid(pid, wait_status, WNOHANG);
        if (waited == pid) { result = 1; break; }
        if (waited < 0 && errno != EINTR) { result = -1; break; }
        long long left = deadline_ms - monotonic_ms();
        if (left <= 0) { result = 0; break; }
        if (exited_fd >= 0) {
            struct pollfd exited = { .fd = exited_fd, .events = POLLIN };
            (void)poll(&exited, 1, left > INT_MAX ? INT_MAX : (int)left);
            continue;
        }
        long pause = pause_us < left * 1000 ? pause_us : (long)(left * 1000);
        struct timespec nap = { 0, pause * 1000 };
        nanosleep(&nap, NULL);
        if (pause_us < 10000) pause_us *= 2;
    }
    if (exited_fd >= 0) {
        int saved = errno;
        close(exited_fd);
        errno = saved;
    }
    return result;
}

/* The host may ignore SIGCHLD (children then reap themselves and waitpid fails) or reap in a handler:
 * default disposition while the helper is waited for. */
static int set_default_sigchld(struct sigaction *old) {
    struct sigaction default_chld;
    memset(&default_chld, 0, sizeof default_chld);
    default_chld.sa_handler = SIG_DFL;
    sigemptyset(&default_chld.sa_mask);
    return sigaction(SIGCHLD, &default_chld, old);
}

/* Reads from `fd` into output (keeping at most capacity bytes, dropping the rest) until end of file, or, with
 * `stop_at_newline`, until a newline has been read. 1 done, 0 the deadline came first, -1 error (errno). */
static int read_until(int fd, int stop_at_newline, unsigned char *output, size_t capacity, size_t *length,
                      long long deadline_ms) {
    for (;;) {
        if (stop_at_newline && *length > 0 && memchr(output, '\n', *length) != NULL) return 1;
        long long left = deadline_ms - monotonic_ms();
        if (left <= 0) return 0;
        struct pollfd readable = { .fd = fd, .events = POLLIN };
        int ready = poll(&readable, 1, left > INT_MAX ? INT_MAX : (int)left);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return -1;
        if (ready == 0) continue;
        /* One byte at a time before the first newline: nothing of a later line is taken early. */
        unsigned char scratch[256];
        size_t want = stop_at_newline ? 1 : sizeof scratch;
        ssize_t n = read(fd, scratch, want);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) return -1;
        if (n == 0) return 1;
        size_t room = capacity - *length;
        size_t take = (size_t)n < room ? (size_t)n : room;
        memcpy(output + *length, scratch, take);
        *length += take;
        if (stop_at_newline && take < (size_t)n) return 1;  /* a line longer than the buffer: the caller refuses it */
    }
}

enum pattern_helper_run pattern_run_helper(const char *path, char *const argv[],
                                           const unsigned char *input, size_t input_length,
                                           unsigned char *output, size_t output_capacity, size_t *output_length,
                                           int timeout_ms, int *status) {
    int to_child[2] = { -1, -1 }, from_child[2] = { -1, -1 };
    int saved_errno = 0;
    enum pattern_helper_run result = PATTERN_HELPER_NOT_RUN;
    struct sigaction old_chld;
    pid_t pid = -1;

    *output_length = 0;
    *status = 0;
    /* The input is written before the fork, so it must fit the pipe without
     * blocking; the helper's own limit is far below PIPE_BUF. */
    if (input_length > PIPE_BUF || timeout_ms <= 0) { errno = EINVAL; return PATTERN_HELPER_NOT_RUN; }
    if (pipe2(to_child, O_CLOEXEC) != 0) return PATTERN_HELPER_NOT_RUN;
    if (pipe2(from_child, O_CLOEXEC) != 0) { saved_errno = errno; goto done; }
    /* Written while we hold the read end: no SIGPIPE can reach the host. */
    size_t written = 0;
    while (written < input_length) {
        ssize_t n = write(to_child[1], input + written, input_length - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { saved_errno = n < 0 ? errno : EIO; goto done; }
        written += (size_t)n;
    }
    close(to_child[1]);
    to_child[1] = -1;

    if (set_default_sigchld(&old_chld) != 0) { saved_errno = errno; goto done; }

    long long deadline = monotonic_ms() + timeout_ms;
    struct child_start start = { .path = path, .argv = argv, .input = to_child[0], .output = from_child[1] };
    pid = start_child(&start);
    if (pid < 0) { saved_errno = errno; goto restore; }
    close(from_child[1]);
    from_child[1] = -1;

    /* One line is expected; anything past the buffer is read and dropped so a chatty child cannot block on a
     * full pipe (the caller sizes the buffer one byte over the longest valid line, so a full buffer means "too
     * long"). */
    int got = read_until(from_child[0], 0, output, output_capacity, output_length, deadline);
    if (got < 0) saved_errno = errno;
    int timed_out = got <= 0;
    int wait_status = 0;
    int reaped = timed_out ? 0 : reap_until(pid, deadline, &wait_status);
    if (reaped < 0) { saved_errno = errno; goto restore; }
    if (reaped == 0) {
        /* Past the deadline (stopped, stuck, or still running after closing its
         * stdout): its answer no longer counts. */
        (void)kill(pid, SIGKILL);
        (void)reap_until(pid, monotonic_ms() + REAP_AFTER_KILL_MS, &wait_status);
        *status = timeout_ms;
        result = PATTERN_HELPER_TIMED_OUT;
        goto restore;
    }
    if (WIFEXITED(wait_status)) {
        *status = WEXITSTATUS(wait_status);
        result = PATTERN_HELPER_EXITED;
    } else {
        *status = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
        result = PATTERN_HELPER_SIGNALLED;
    }

restore:
    sigaction(SIGCHLD, &old_chld, NULL);
done:
    if (to_child[0] >= 0) close(to_child[0]);
    if (to_child[1] >= 0) close(to_child[1]);
    if (from_child[0] >= 0) close(from_child[0]);
    if (from_child[1] >= 0) close(from_child[1]);
    if (result == PATTERN_HELPER_NOT_RUN) errno = saved_errno != 0 ? saved_errno : EIO;
    return result;
}

/* ---- A helper kept running across the conversation: `authenticate` (check, then one guess) ----
 * The child's stdin is a socket, not a pipe, so that the guess sent after the conversation cannot raise
 * SIGPIPE in the host when the helper has gone meanwhile (send with MSG_NOSIGNAL says EPIPE instead). While the
 * host runs its own code (the conversation) the host's SIGCHLD disposition is back in place and the child may
 * be reaped by someone else: so it is known by a pidfd only, signalled and reaped through it, and a pid the
 * kernel has given to another process is never touched. */

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

struct pattern_helper_session {
    int pidfd;
    int to_child;    /* our end of the socket on the child's stdin */
    int from_child;  /* the read end of the pipe on the child's stdout */
};

/* Waits for the child behind `pidfd` to end, until `deadline_ms`: 1 reaped (*result_code 0/1 and *status as
 * pattern_run_helper's), 0 still running, -1 waitid failed (ECHILD: reaped by someone else). */
static int reap_pidfd_until(int pidfd, long long deadline_ms, enum pattern_helper_run *result_code, int *status) {
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED | WNOHANG) != 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (info.si_pid != 0) {
            /* else killed or dumped: si_status is the signal */
            *result_code = info.si_code == CLD_EXITED ? PATTERN_HELPER_EXITED : PATTERN_HELPER_SIGNALLED;
            *status = info.si_status;
            return 1;
        }
        long long left = deadline_ms - monotonic_ms();
        if (left <= 0) return 0;
        struct pollfd exited = { .fd = pidfd, .events = POLLIN };
        (void)poll(&exited, 1, left > INT_MAX ? INT_MAX : (int)left);
    }
}

static void session_close_fds(struct pattern_helper_session *session) {
    if (session->to_child >= 0) close(session->to_child);
    if (session->from_child >= 0) close(session->from_child);
    if (session->pidfd >= 0) close(session->pidfd);
    session->to_child = session->from_child = session->pidfd = -1;
}

/* Kills the child through its pidfd and reaps it (at most REAP_AFTER_KILL_MS more). */
static void session_kill(struct pattern_helper_session *session) {
    enum pattern_helper_run code = PATTERN_HELPER_EXITED;
    int status = 0;
    (void)syscall(SYS_pidfd_send_signal, session->pidfd, SIGKILL, NULL, 0U);
    (void)reap_pidfd_until(session->pidfd, monotonic_ms() + REAP_AFTER_KILL_MS, &code, &status);
}

enum pattern_helper_run pattern_helper_session_start(const char *path, char *const argv[],
                                                     unsigned char *line, size_t line_capacity, size_t *line_length,
                                                     int timeout_ms, struct pattern_helper_session **out) {
    int to_child[2] = { -1, -1 }, from_child[2] = { -1, -1 };
    int saved_errno = 0;
    enum pattern_helper_run result = PATTERN_HELPER_NOT_RUN;
    struct sigaction old_chld;
    struct pattern_helper_session *session = NULL;

    *out = NULL;
    *line_length = 0;
    if (timeout_ms <= 0) { errno = EINVAL; return PATTERN_HELPER_NOT_RUN; }
    /* No pidfd to be had (an old kernel, seccomp): say so before any child is started. */
    int probe = (int)syscall(SYS_pidfd_open, getpid(), 0);
    if (probe < 0) return PATTERN_HELPER_NOT_RUN;
    close(probe);
    session = calloc(1, sizeof *session);
    if (session == NULL) return PATTERN_HELPER_NOT_RUN;
    session->pidfd = session->to_child = session->from_child = -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, to_child) != 0) { saved_errno = errno; goto done; }
    if (pipe2(from_child, O_CLOEXEC) != 0) { saved_errno = errno; goto done; }
    if (set_default_sigchld(&old_chld) != 0) { saved_errno = errno; goto done; }

    long long deadline = monotonic_ms() + timeout_ms;
    struct child_start start = { .path = path, .argv = argv, .input = to_child[0], .output = from_child[1] };
    pid_t pid = start_child(&start);
    if (pid < 0) { saved_errno = errno; goto restore; }
    session->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (session->pidfd < 0) {
        /* No pidfd (an old kernel, seccomp, the fd limit): no session; the caller runs the calls one by one.
         * The child is ours and SIGCHLD is at its default, so its pid is still its own here. */
        saved_errno = errno;
        int wait_status;
        (void)kill(pid, SIGKILL);
        (void)reap_until(pid, monotonic_ms() + REAP_AFTER_KILL_MS, &wait_status);
        goto restore;
    }
    session->to_child = to_child[1];
    session->from_child = from_child[0];
    to_child[1] = from_child[0] = -1;
    close(from_child[1]);
    from_child[1] = -1;

    int got = read_until(session->from_child, 1, line, line_capacity, line_length, deadline);
    if (got <= 0) {
        saved_errno = got < 0 ? errno : 0;
        session_kill(session);
        result = got < 0 ? PATTERN_HELPER_NOT_RUN : PATTERN_HELPER_TIMED_OUT;
        goto restore;
    }
    result = PATTERN_HELPER_EXITED;
    *out = session;
    session = NULL;

restore:
    sigaction(SIGCHLD, &old_chld, NULL);
done:
    for (int i = 0; i < 2; i++) {
        if (to_child[i] >= 0) close(to_child[i]);
        if (from_child[i] >= 0) close(from_child[i]);
    }
    if (session != NULL) {
        session_close_fds(session);
        free(session);
    }
    if (result == PATTERN_HELPER_NOT_RUN) errno = saved_errno != 0 ? saved_errno : EIO;
    return result;
}

enum pattern_helper_run pattern_helper_session_finish(struct pattern_helper_session *session,
                                                      const unsigned char *input, size_t input_length,
                                                      unsigned char *output, size_t output_capacity,
                                                      size_t *output_length, int timeout_ms, int *status) {
    struct sigaction old_chld;
    enum pattern_helper_run result = PATTERN_HELPER_NOT_RUN;
    int saved_errno = 0, delivered = 1;

    *output_length = 0;
    *status = 0;
    if (session == NULL) { errno = EINVAL; return PATTERN_HELPER_NOT_RUN; }
    if (timeout_ms <= 0 || input_length > PIPE_BUF) timeout_ms = 1;  /* still end the child, at once */
    int have_old = set_default_sigchld(&old_chld) == 0;
    long long deadline = monotonic_ms() + timeout_ms;

    size_t sent = 0;
    while (sent < input_length) {
        ssize_t n = send(session->to_child, input + sent, input_length - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN && monotonic_ms() < deadline) {
            struct pollfd writable = { .fd = session->to_child, .events = POLLOUT };
            (void)poll(&writable, 1, 10);
            continue;
        }
        if (n <= 0) { delivered = 0; break; }
        sent += (size_t)n;
    }
    /* End of file for the helper: after a guess, or in place of one (it then exits at once). shutdown, not
     * close alone: a copy of this end in a child the host forked meanwhile must not keep the helper waiting. */
    (void)shutdown(session->to_child, SHUT_WR);
    close(session->to_child);
    session->to_child = -1;

    int got = read_until(session->from_child, 0, output, output_capacity, output_length, deadline);
    if (got < 0) saved_errno = errno;
    enum pattern_helper_run code = PATTERN_HELPER_EXITED;
    int reaped = got > 0 ? reap_pidfd_until(session->pidfd, deadline, &code, status) : 0;
    if (reaped == 1) {
        result = delivered ? code : PATTERN_HELPER_GONE_BEFORE_INPUT;
    } else if (reaped < 0) {
        /* Reaped by the host during the conversation (its SIGCHLD handler, or SIGCHLD ignored): only the
         * output is known. */
        saved_errno = errno;
        result = delivered ? PATTERN_HELPER_REAPED_ELSEWHERE : PATTERN_HELPER_GONE_BEFORE_INPUT;
    } else {
        session_kill(session);
        *status = timeout_ms;
        result = got < 0 ? PATTERN_HELPER_NOT_RUN : PATTERN_HELPER_TIMED_OUT;
    }
    if (have_old) sigaction(SIGCHLD, &old_chld, NULL);
    session_close_fds(session);
    free(session);
    if (result == PATTERN_HELPER_NOT_RUN) errno = saved_errno != 0 ? saved_errno : EIO;
    return result;
}
