/* Wrappers for the libc pieces Swift cannot call directly; see the header. */
#define _GNU_SOURCE /* setresuid */
#include <limits.h>
#include <poll.h>
#include <sys/random.h>
#include "pattern_system.h"

int pattern_errno(void) { return errno; }
void pattern_set_errno(int value) { errno = value; }

int pattern_open(const char *path, int flags, mode_t mode) {
    return open(path, flags, mode);
}

int pattern_openat(int dirfd, const char *path, int flags, mode_t mode) {
    return openat(dirfd, path, flags, mode);
}

void pattern_secure_zero(void *pointer, size_t length) {
    if (pointer != NULL && length > 0) explicit_bzero(pointer, length);
}

int pattern_s_isreg(mode_t mode) { return S_ISREG(mode); }
int pattern_s_isdir(mode_t mode) { return S_ISDIR(mode); }
int pattern_s_islnk(mode_t mode) { return S_ISLNK(mode); }

int pattern_dup_cloexec(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 3); }

int pattern_flock(int fd, int operation) { return flock(fd, operation); }

int pattern_flock_bounded(int fd, int operation, int timeout_ms) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (flock(fd, operation | LOCK_NB) == 0) return 0;
        if (errno == EINTR) continue;
        if (errno != EWOULDBLOCK) return -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long elapsed = (long long)(now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed >= timeout_ms) {
            errno = EWOULDBLOCK;
            return -1;
        }
        /* 2 ms: a holder keeps the lock for one read and one fsync'd 31-byte write. */
        struct timespec pause = {0, 2 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

int pattern_fd_above_stdio(int fd) {
    if (fd < 0 || fd > 2) return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int saved = errno;
    close(fd);
    errno = saved;
    return moved;
}

int pattern_file_size_room(long long end, struct rlimit *saved, int *raised) {
    *raised = 0;
    if (end < 0) {
        errno = EINVAL;
        return -1;
    }
    struct rlimit limit;
    if (getrlimit(RLIMIT_FSIZE, &limit) != 0) return -1;
    if (limit.rlim_cur == RLIM_INFINITY || (rlim_t)end <= limit.rlim_cur) return 0;
    if (limit.rlim_max != RLIM_INFINITY && (rlim_t)end > limit.rlim_max) {
        errno = EFBIG;
        return -1;
    }
    *saved = limit;
    struct rlimit wider = {limit.rlim_max, limit.rlim_max};
    if (setrlimit(RLIMIT_FSIZE, &wider) != 0) return -1;
    *raised = 1;
    return 0;
}

void pattern_file_size_restore(const struct rlimit *saved, int raised) {
    if (raised) {
        int kept = errno;
        setrlimit(RLIMIT_FSIZE, saved);
        errno = kept;
    }
}

int pattern_account_lookup(const char *name, uid_t *uid, unsigned char *name_out, size_t name_capacity,
                           size_t *name_length) {
    size_t size = 4096;
    while (size <= (1u << 20)) {
        char *buffer = malloc(size);
        if (buffer == NULL) return -1;
        struct passwd entry, *found = NULL;
        int status = name != NULL ? getpwnam_r(name, &entry, buffer, size, &found)
                                  : getpwuid_r(*uid, &entry, buffer, size, &found);
        if (status == 0 && found != NULL) {
            *uid = found->pw_uid;
            if (name_out != NULL) {
                size_t length = strnlen(found->pw_name, name_capacity + 1);
                if (length > name_capacity) {
                    status = ENAMETOOLONG;
                } else {
                    memcpy(name_out, found->pw_name, length);
                    *name_length = length;
                }
            }
        }
        /* The entry holds the password field: nothing of it stays in the freed buffer. */
        explicit_bzero(buffer, size);
        free(buffer);
        if (status == ERANGE) {
            size *= 4;
            continue;
        }
        if (status == 0) return found != NULL ? 0 : 1;
        /* ENOENT, ESRCH, EBADF, EPERM: documented as "name not found" by some NSS modules. */
        if (status == ENOENT || status == ESRCH || status == EBADF || status == EPERM) return 1;
        errno = status;
        return -1;
    }
    errno = ERANGE;
    return -1;
}

const char *pattern_dirent_name(const struct dirent *entry) {
    return entry->d_name;
}

int pattern_cpu_seconds_left(long long *left) {
    struct rlimit limit;
    struct rusage used;
    if (getrlimit(RLIMIT_CPU, &limit) != 0 || getrusage(RUSAGE_SELF, &used) != 0) return -1;
    if (limit.rlim_cur == RLIM_INFINITY) return 0;
    /* Whole seconds rounded up from the sum: truncating user and system time apart undercounted by up to 2 s. */
    long long micros = ((long long)used.ru_utime.tv_sec + used.ru_stime.tv_sec) * 1000000LL +
                       used.ru_utime.tv_usec + used.ru_stime.tv_usec;
    long long spent = (micros + 999999LL) / 1000000LL;
    long long allowed = (long long)limit.rlim_cur;
    *left = allowed > spent ? allowed - spent : 0;
    return 1;
}

long pattern_take_real_uid_root(void) {
    uid_t real = getuid();
    if (geteuid() != 0 || real == 0) return -1;
    if (setresuid(0, (uid_t)-1, (uid_t)-1) != 0) return -1;
    return (long)real;
}

void pattern_restore_real_uid(long saved) {
    if (saved >= 0) (void)setresuid((uid_t)saved, (uid_t)-1, (uid_t)-1);
}

int pattern_random_bytes(void *out, size_t length) {
    unsigned char *p = out;
    while (length > 0) {
        ssize_t got = getrandom(p, length, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += got;
        length -= (size_t)got;
    }
    return 0;
}

int pattern_wait_readable(int fd, long long deadline_ms) {
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long left = deadline_ms - ((long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
        if (left <= 0) return 0;
        struct pollfd readable = { .fd = fd, .events = POLLIN };
        int ready = poll(&readable, 1, left > INT_MAX ? INT_MAX : (int)left);
        if (ready < 0 && errno == EINTR) continue;
        if (ready != 0) return ready > 0 ? 1 : -1;
    }
}

long long pattern_monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}
