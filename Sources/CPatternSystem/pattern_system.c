/* Wrappers for the libc pieces Swift cannot call directly; see the header. */
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

int pattern_o_rdonly(void) { return O_RDONLY; }
int pattern_o_wronly(void) { return O_WRONLY; }
int pattern_o_rdwr(void) { return O_RDWR; }
int pattern_o_creat(void) { return O_CREAT; }
int pattern_o_excl(void) { return O_EXCL; }
int pattern_o_trunc(void) { return O_TRUNC; }
int pattern_o_nofollow(void) { return O_NOFOLLOW; }
int pattern_o_cloexec(void) { return O_CLOEXEC; }
int pattern_o_noctty(void) { return O_NOCTTY; }
int pattern_o_directory(void) { return O_DIRECTORY; }
int pattern_o_nonblock(void) { return O_NONBLOCK; }

int pattern_s_isreg(mode_t mode) { return S_ISREG(mode); }
int pattern_s_isdir(mode_t mode) { return S_ISDIR(mode); }
