/* The C side of pam_pattern_helper; see the header for why each piece is C. */
#define _GNU_SOURCE
#include "pattern_helper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A caller may start us with 0, 1 or 2 closed: the first file we open would
 * then become "stdout" and receive the verdict line. */
static int open_standard_fds(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            int null = open("/dev/null", O_RDWR | O_NOCTTY);
            if (null != fd) {
                if (null >= 0) close(null);
                return -1;
            }
        }
    }
    return 0;
}

static void close_other_fds(void) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 1048576) max = 1048576;
    for (long fd = 3; fd < max; fd++) close((int)fd);
}

static int set_signals(void) {
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    /* SIGSTOP cannot be ignored; the state lock is held only around
     * read-check-record, so a stopped helper blocks only its own caller. */
    const int ignored[] = { SIGTSTP, SIGTTIN, SIGTTOU, SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGXFSZ };
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
        if (sigaction(ignored[i], &ignore, NULL) != 0) return -1;
    }
    /* The caller may have blocked signals before exec; nothing here relies on
     * a blocked mask, and SIGCHLD-style surprises do not apply (no children). */
    sigset_t none;
    sigemptyset(&none);
    return sigprocmask(SIG_SETMASK, &none, NULL);
}

/* `ulimit -Sf 0` would make every state write fail; the hard limit the
 * caller chose still applies (raising it needs CAP_SYS_RESOURCE). */
static void raise_soft_limit(int resource) {
    struct rlimit limit;
    if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        (void)setrlimit(resource, &limit);
    }
}

int pattern_helper_harden(void) {
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return -1;
    if (open_standard_fds() != 0) return -1;
    close_other_fds();
    if (clearenv() != 0) return -1;
    if (set_signals() != 0) return -1;
    raise_soft_limit(RLIMIT_FSIZE);
    raise_soft_limit(RLIMIT_NOFILE);
    /* A hash needs its memory (cost 7: 64 MiB) and its CPU time; what the
     * hard limits leave is checked before a guess is counted. */
    raise_soft_limit(RLIMIT_AS);
    raise_soft_limit(RLIMIT_DATA);
    raise_soft_limit(RLIMIT_CPU);
    umask(077);
    return 0;
}

int pattern_helper_root_group(void) {
    if (setgroups(0, NULL) != 0) return -1;
    if (setresgid(0, 0, 0) != 0) return -1;
    gid_t real, effective, saved;
    if (getresgid(&real, &effective, &saved) != 0 || real != 0 || effective != 0 || saved != 0) return -1;
    return getgroups(0, NULL) == 0 ? 0 : -1;
}

int pattern_helper_stdin_is_tty(void) { return isatty(STDIN_FILENO) ? 1 : 0; }

uid_t pattern_helper_real_uid(void) { return getuid(); }

void pattern_helper_log(int priority, const char *message) {
    openlog("pam_pattern_helper", LOG_PID, LOG_AUTHPRIV);
    syslog(priority, "%s", message);
    closelog();
}
