/*
 * pattern_system.h - the libc and libcrypt surface the Swift core uses.
 *
 * Why this exists: the core is also compiled as Embedded Swift, which cannot
 * import Glibc. This header is the whole C <-> Swift contract for system
 * calls. Swift calls the plain functions (read, pwrite, flock, fsync, ...)
 * and sees the O_* constants through this header directly; only what it
 * cannot call gets a small prefixed wrapper here: variadic functions (open,
 * fcntl), macros (errno, S_IS*), a function hidden by a struct of the same
 * name (flock), a struct field Swift imports as a tuple
 * (d_name), and libcrypt's calls with their buffer rules.
 */
#ifndef PATTERN_SYSTEM_H
#define PATTERN_SYSTEM_H

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>
#include <dirent.h>
#include <pwd.h>
#include <signal.h>
#include <crypt.h>
#include <locale.h>
/* gettext for the core's MessageCatalogue (dgettext, in both builds) and patternctl's bindtextdomain: Glibc's Swift
 * module does not carry them. */
#include <libintl.h>

/* errno of the calling thread. */
int pattern_errno(void);
/* Sets errno (tests and fault paths). */
void pattern_set_errno(int value);

/* open(2) with an explicit mode (open is variadic). */
int pattern_open(const char *path, int flags, mode_t mode);
/* openat(2) with an explicit mode. */
int pattern_openat(int dirfd, const char *path, int flags, mode_t mode);

/* Zeroes memory in a way the compiler may not elide (explicit_bzero). */
void pattern_secure_zero(void *pointer, size_t length);

/* stat(2) field helpers: st_mode type tests are macros. */
int pattern_s_isreg(mode_t mode);
int pattern_s_isdir(mode_t mode);
int pattern_s_islnk(mode_t mode);

/* fcntl(fd, F_DUPFD_CLOEXEC, 3): a close-on-exec duplicate, never on fd 0-2 (fcntl is variadic). */
int pattern_dup_cloexec(int fd);

/* flock(2): Swift sees only `struct flock` under that name. */
int pattern_flock(int fd, int operation);

/* flock(2) that gives up: LOCK_NB polled with short sleeps until it succeeds or `timeout_ms` have passed
 * (CLOCK_MONOTONIC). No signal or alarm is used, so it is safe inside any host process. Returns 0, or -1
 * with errno EWOULDBLOCK when the time ran out (another process holds the lock), or flock's own errno. */
int pattern_flock_bounded(int fd, int operation, int timeout_ms);

/* A descriptor that is not 0, 1 or 2: a process started with those closed would otherwise get its
 * store or state file as stdin/stdout/stderr, and the host's next message would be written into it.
 * Moves fd to the lowest free number >= 3 (close-on-exec) and closes the original. Returns the new
 * descriptor (fd itself when it is already >= 3), or -1 with errno set (the original is closed). */
int pattern_fd_above_stdio(int fd);

/* Makes room for a write that ends at byte `end` under RLIMIT_FSIZE, which a caller (su, sudo) hands
 * down unchanged and which limits every write past that offset (SIGXFSZ or a short write), in place
 * or not. If the soft limit is below `end`, it is raised to the hard limit (allowed without privilege)
 * and the old limits are saved in `saved` with *raised = 1. Returns 0, or -1 with errno EFBIG when even
 * the hard limit is below `end` (nothing may then be written), or getrlimit/setrlimit's errno. */
int pattern_file_size_room(long long end, struct rlimit *saved, int *raised);

/* Puts back the limits saved by pattern_file_size_room (when it raised them). */
void pattern_file_size_restore(const struct rlimit *saved, int raised);

/* The CPU time this process may still use before RLIMIT_CPU's soft limit (SIGXCPU) strikes, in whole seconds
 * (what it has used so far, exec included, counts against it). Returns 1 and sets *left, 0 when there is no
 * limit, -1 when it cannot be read. */
int pattern_cpu_seconds_left(long long *left);

/* A setuid-root process (euid 0) whose real uid is its caller's can be stopped by that caller (kill(2) allows a
 * signal to a process whose real uid is the sender's): while it holds a lock every other user waits for, it
 * takes real uid 0 so it cannot be. Returns the real uid to put back with pattern_restore_real_uid, or -1 when
 * nothing was changed (not euid 0, real uid 0 already, or setresuid refused). */
long pattern_take_real_uid_root(void);

/* Puts back the real uid pattern_take_real_uid_root saved (nothing for -1). */
void pattern_restore_real_uid(long saved);

/* The one lookup in the system user database (getpwnam_r, or getpwuid_r when name is NULL; through NSS).
 * Finds the account named `name`, or the one whose uid is *uid. Returns 0 when it exists: *uid is its uid and,
 * when name_out is not NULL, its name (no NUL added) is in name_out[0 ..< *name_length]; 1 when there is no
 * such account; -1 with errno when the lookup itself failed (ENAMETOOLONG: the name is over name_capacity). */
int pattern_account_lookup(const char *name, uid_t *uid, unsigned char *name_out, size_t name_capacity,
                           size_t *name_length);

/* The bytes of a directory entry's name (d_name is a fixed char array that
 * Swift imports as a 256-element tuple). */
const char *pattern_dirent_name(const struct dirent *entry);

/* libcrypt (pattern_crypt.c): linked by the module, patternctl and the tests,
 * dlopened by the setuid helper at its first hash. Both fail with ELIBACC if
 * it cannot be loaded. */

/* crypt_gensalt_rn for yescrypt: writes "$y$<params>$<salt>" for `cost`
 * (1...11) into out. Salt bytes come from the OS (rbytes NULL).
 * Returns 0, or -1 with errno set. */
int pattern_yescrypt_setting(unsigned long cost, char *out, int out_size);

/* crypt_rn(phrase, setting) with a heap-allocated, zeroed struct crypt_data
 * (~32 KiB, too big for a module's stack budget), copying the NUL-terminated
 * result into out and zeroing the crypt_data (it holds the phrase) before
 * freeing it. Returns 0, or -1 with errno set (EINVAL for a refused setting,
 * ERANGE if out is too small). */
int pattern_crypt(const char *phrase, const char *setting, char *out, size_t out_size);
/* Loads libcrypt now where it is dlopened (the helper), so the hash that follows does not wait for it: the
 * helper's `authenticate` calls it while the person is being asked. Nothing happens where it is linked. */
void pattern_crypt_preload(void);

/* What a run of the helper came to: what pattern_run_helper and the session's start and finish return (each
 * says which of these it can). A named type, so the callers read a name where the C once returned 0 to 4. */
enum pattern_helper_run {
    /* It could not be run, or waiting for it failed (errno set). */
    PATTERN_HELPER_NOT_RUN = -1,
    /* It exited: *status is its exit status. */
    PATTERN_HELPER_EXITED = 0,
    /* A signal ended it: *status is the signal. */
    PATTERN_HELPER_SIGNALLED = 1,
    /* The deadline came first: it was killed and reaped (*status = timeout_ms). */
    PATTERN_HELPER_TIMED_OUT = 2,
    /* A session's child had gone before its input could be sent: it never saw it. */
    PATTERN_HELPER_GONE_BEFORE_INPUT = 3,
    /* A session's child exited, but someone else reaped it: only its output is known. */
    PATTERN_HELPER_REAPED_ELSEWHERE = 4,
};

/*
 * Runs pam_pattern_helper (the module and patternctl both call this): a child (sharing memory until its exec,
 * as posix_spawn does) gets a pipe holding `input` on stdin, a pipe on stdout, /dev/null on stderr, no other fd,
 * every signal unblocked and at its default action, an empty environment, and execs `path` with `argv`. SIGCHLD
 * has its default action until the child is reaped. Keeps at most output_capacity bytes of its stdout (the
 * rest is read and dropped). Nothing waits past `timeout_ms` (CLOCK_MONOTONIC, from the start) once the child
 * has exec'd: a child that has not exited by then is sent SIGKILL and reaped (waited for at most one more
 * second, never blocking). No signal or alarm is used.
 * Returns PATTERN_HELPER_EXITED, _SIGNALLED, _TIMED_OUT or _NOT_RUN.
 */
enum pattern_helper_run pattern_run_helper(const char *path, char *const argv[],
                       const unsigned char *input, size_t input_length,
                       unsigned char *output, size_t output_capacity, size_t *output_length,
                       int timeout_ms, int *status);

/*
 * A helper kept running across the module's conversation (operation `authenticate`: the check, then one guess),
 * so an authentication through the helper pays one exec, not two. Started as pattern_run_helper starts a child,
 * except that its stdin is a socket left open; `line` gets its stdout up to the first newline, within
 * `timeout_ms`. Returns PATTERN_HELPER_EXITED with *session set, though it still runs (the caller must finish it,
 * whatever the line says), _TIMED_OUT when the deadline came first (the child killed and reaped), _NOT_RUN when
 * it could not be run (errno set; ENOSYS and the like when no pidfd could be had: the caller then runs the calls
 * one by one). Between start and finish the host's
 * own SIGCHLD disposition is in place: the child is known by a pidfd alone, so a pid reused by another process
 * is never signalled.
 */
/* The helper's side of `authenticate`: whether `fd` has input (or end of file) before `deadline_ms`
 * (pattern_monotonic_ms): 1 yes, 0 the deadline came, -1 poll failed. */
int pattern_wait_readable(int fd, long long deadline_ms);
/* CLOCK_MONOTONIC in milliseconds. */
long long pattern_monotonic_ms(void);

struct pattern_helper_session;
enum pattern_helper_run pattern_helper_session_start(const char *path, char *const argv[],
                                 unsigned char *line, size_t line_capacity, size_t *line_length,
                                 int timeout_ms, struct pattern_helper_session **session);
/*
 * Sends `input` (none: the child is told there is no guess and exits at once), ends the child's stdin, keeps at
 * most output_capacity bytes of the rest of its stdout, reaps it, and frees the session; nothing waits past
 * `timeout_ms` from the call (then SIGKILL through the pidfd). Returns what pattern_run_helper does, or
 * PATTERN_HELPER_GONE_BEFORE_INPUT, or PATTERN_HELPER_REAPED_ELSEWHERE.
 */
enum pattern_helper_run pattern_helper_session_finish(struct pattern_helper_session *session,
                                  const unsigned char *input, size_t input_length,
                                  unsigned char *output, size_t output_capacity, size_t *output_length,
                                  int timeout_ms, int *status);

/* Fills `out` with `length` bytes from the kernel's CSPRNG (getrandom). 0, or -1 with errno set. */
int pattern_random_bytes(void *out, size_t length);

#endif
