/*
 * auth_pattern's process, secret buffer, gettext and the authproto child
 * (pattern_pad.h). X11 drawing is in pattern_pad_x11.c.
 */
#define _GNU_SOURCE
#include "pattern_pad.h"

#include <errno.h>
#include <fcntl.h>
#include <libintl.h>
#include <locale.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TEXT_DOMAIN "pam_pattern"

/* One page of its own, so mlock and MADV_DONTDUMP cover exactly the secret. */
static unsigned char secret[4096] __attribute__((aligned(4096)));
static int secret_locked = 0;

int pattern_pad_prepare(void) {
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return -1;
    signal(SIGPIPE, SIG_IGN);
    secret_locked = mlock(secret, sizeof secret) == 0;
    (void)madvise(secret, sizeof secret, MADV_DONTDUMP);
    setlocale(LC_ALL, "");
    bind_textdomain_codeset(TEXT_DOMAIN, "UTF-8");
    return 0;
}

unsigned char *pattern_pad_secret(void) { return secret; }
int pattern_pad_secret_locked(void) { return secret_locked; }
void pattern_pad_wipe(unsigned char *bytes, size_t length) { explicit_bzero(bytes, length); }

int64_t pattern_pad_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t pattern_pad_wall_seconds(void) { return (int64_t)time(NULL); }

size_t pattern_pad_clock(unsigned char *out, size_t capacity) {
    time_t now = time(NULL);
    struct tm local;
    if (capacity == 0 || localtime_r(&now, &local) == NULL) return 0;
    return strftime((char *)out, capacity, "%R   %A %x", &local);
}

const char *pattern_pad_getenv(const char *name) { return getenv(name); }

const char *pattern_pad_user_name(void) {
    static char name[256];
    struct passwd pw, *found = NULL;
    char buffer[4096];
    if (getpwuid_r(getuid(), &pw, buffer, sizeof buffer, &found) != 0 || found == NULL) return "";
    /* The full name (the GECOS field up to its first comma), as desktop lock screens show; else the login. */
    size_t full = found->pw_gecos ? strcspn(found->pw_gecos, ",") : 0;
    if (full > 0 && full < sizeof name)
        snprintf(name, sizeof name, "%.*s", (int)full, found->pw_gecos);
    else
        snprintf(name, sizeof name, "%s", found->pw_name);
    return name;
}

void pattern_pad_log(const char *message) { fprintf(stderr, "%s: %s\n", program_invocation_short_name, message); }

pid_t pattern_pad_spawn(const char *path, int *to_child, int *from_child) {
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0) return -1;
    if (pipe2(up, O_CLOEXEC) != 0) {
        close(down[0]);
        close(down[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        return -1;
    }
    if (pid == 0) {
        /* The child: pipes on 0 and 1, stderr kept (xsecurelock's log). */
        if (dup2(down[0], 0) < 0 || dup2(up[1], 1) < 0) _exit(127);
        signal(SIGPIPE, SIG_DFL);
        /* pam_pattern takes any PAM_RHOST as a remote login; this is a local one. */
        setenv("XSECURELOCK_NO_PAM_RHOST", "1", 1);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(down[0]);
    close(up[1]);
    fcntl(down[1], F_SETFL, fcntl(down[1], F_GETFL) | O_NONBLOCK);
    fcntl(up[0], F_SETFL, fcntl(up[0], F_GETFL) | O_NONBLOCK);
    *to_child = down[1];
    *from_child = up[0];
    return pid;
}

static int write_all(int fd, const unsigned char *bytes, size_t length, int64_t deadline) {
    while (length > 0) {
        ssize_t n = write(fd, bytes, length);
        if (n > 0) {
            bytes += n;
            length -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) {
            int64_t left = deadline - pattern_pad_now_ms();
            if (left <= 0) return -1;
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            (void)poll(&p, 1, (int)left);
            continue;
        }
        return -1;
    }
    return 0;
}

int pattern_pad_write_packet(int fd, char type, const unsigned char *bytes, size_t length) {
    char header[32];
    int n = snprintf(header, sizeof header, "%c %zu\n", type, length);
    if (n <= 0 || (size_t)n >= sizeof header) return -1;
    int64_t deadline = pattern_pad_now_ms() + 2000;
    if (write_all(fd, (const unsigned char *)header, (size_t)n, deadline) != 0) return -1;
    if (length > 0 && write_all(fd, bytes, length, deadline) != 0) return -1;
    return write_all(fd, (const unsigned char *)"\n", 1, deadline);
}

long pattern_pad_read(int fd, unsigned char *buffer, size_t capacity) {
    for (;;) {
        ssize_t n = read(fd, buffer, capacity);
        if (n >= 0) return (long)n;
        if (errno == EINTR) continue;
        if (errno == EAGAIN) return -2;
        return -1;
    }
}

int pattern_pad_exit_watch(pid_t pid) {
#ifdef SYS_pidfd_open
    if (pid > 0) return (int)syscall(SYS_pidfd_open, pid, 0);
#endif
    return -1;
}

int pattern_pad_reap(pid_t pid, int *status) {
    int raw = 0;
    pid_t done = waitpid(pid, &raw, WNOHANG);
    if (done == 0) return 0;
    if (done < 0) return -1;
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + (WIFSIGNALED(raw) ? WTERMSIG(raw) : 0);
    return 1;
}

void pattern_pad_kill(pid_t pid) {
    if (pid <= 0) return;
    kill(pid, SIGKILL);
    int raw;
    while (waitpid(pid, &raw, 0) < 0 && errno == EINTR) {
    }
}

void pattern_pad_signal_kill(pid_t pid) {
    if (pid > 0) kill(pid, SIGKILL);
}

void pattern_pad_close(int fd) {
    if (fd >= 0) close(fd);
}

void pattern_pad_stdin_nonblocking(void) { fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK); }
