// The layer's own TCTI: raw TPM 2.0 commands over a character device (device:PATH) or a swtpm unix socket
// (swtpm:path=PATH), every wait bounded by one deadline for the whole conversation.
//
// Why not tpm2-tss's TCTIs: their synchronous calls wait without limit (the swtpm TCTI ignores the timeout
// argument, and ESAPI's synchronous functions resubmit on TRY_AGAIN), so one stopped process holding a
// swtpm connection would hang every other check; and TctiLdr dlopens TCTI libraries by name, which a
// setuid program does not need. Past the deadline every call answers TSS2_TCTI_RC_IO_ERROR (never
// TRY_AGAIN, so ESAPI gives up at once), which the layer reads as "unavailable".
#define _GNU_SOURCE
#include "pattern_tcti.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define PATTERN_TCTI_MAGIC 0x7061747465726e31ULL // "pattern1"
#define HEADER_SIZE 10

typedef struct {
    TSS2_TCTI_CONTEXT_COMMON_V2 common;
    int fd;
    int64_t deadline_ns;  // CLOCK_MONOTONIC
    uint32_t commands;    // commands sent (for `make bench`)
    int timed_out;        // a wait ended at the deadline, or a command was held back by it
    int awaiting;         // a command was sent and its response not read yet
    int have_header;      // the response's header is read (into `header`), its body not yet
    uint8_t header[HEADER_SIZE];
    uint32_t length;      // the response's size, from its header
} pattern_tcti;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// Milliseconds left (0 when the deadline has passed), rounded up so a wait never spins.
static int left_ms(const pattern_tcti *tcti) {
    int64_t left = tcti->deadline_ns - now_ns();
    if (left <= 0) return 0;
    int64_t ms = (left + 999999) / 1000000;
    return ms > 1000000 ? 1000000 : (int)ms;
}

// Waits for `events` on the fd until the deadline; 0 when ready.
static int wait_for(pattern_tcti *tcti, short events) {
    for (;;) {
        int ms = left_ms(tcti);
        if (ms == 0) {
            tcti->timed_out = 1;
            return -1;
        }
        struct pollfd p = {.fd = tcti->fd, .events = events};
        int n = poll(&p, 1, ms);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) tcti->timed_out = 1;
        if (n <= 0) return -1;
        if (p.revents & (POLLERR | POLLNVAL)) return -1;
        if (p.revents & (events | POLLHUP)) return 0;
    }
}

static int write_all(pattern_tcti *tcti, const uint8_t *data, size_t size) {
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(tcti->fd, data + done, size - done);
        if (n > 0) { done += (size_t)n; continue; }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && wait_for(tcti, POLLOUT) == 0) continue;
        return -1;
    }
    return 0;
}

// Reads exactly `size` bytes (a socket may deliver a response in pieces; a device gives it whole).
static int read_exact(pattern_tcti *tcti, uint8_t *data, size_t size) {
    size_t done = 0;
    while (done < size) {
        if (wait_for(tcti, POLLIN) != 0) return -1;
        ssize_t n = read(tcti->fd, data + done, size - done);
        if (n > 0) { done += (size_t)n; continue; }
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
        return -1; // 0: the other end closed
    }
    return 0;
}

static pattern_tcti *cast(TSS2_TCTI_CONTEXT *context) {
    pattern_tcti *tcti = (pattern_tcti *)context;
    return tcti != NULL && tcti->common.v1.magic == PATTERN_TCTI_MAGIC ? tcti : NULL;
}

// Once anything failed the connection is in an unknown state: it stays failed.
static void fail(pattern_tcti *tcti) {
    if (tcti->fd >= 0) close(tcti->fd);
    tcti->fd = -1;
}

static TSS2_RC transmit(TSS2_TCTI_CONTEXT *context, size_t size, const uint8_t *command) {
    pattern_tcti *tcti = cast(context);
    if (tcti == NULL) return TSS2_TCTI_RC_BAD_CONTEXT;
    if (command == NULL || size < HEADER_SIZE) return TSS2_TCTI_RC_BAD_VALUE;
    if (tcti->awaiting) return TSS2_TCTI_RC_BAD_SEQUENCE;
    if (tcti->fd < 0) return TSS2_TCTI_RC_IO_ERROR;
    // Nothing goes out past the deadline: a command sent now (by a process stopped and continued late) would
    // be judged by the TPM while its answer is no longer waited for.
    if (tcti->deadline_ns - now_ns() <= 0) {
        tcti->timed_out = 1;
        fail(tcti);
        return TSS2_TCTI_RC_IO_ERROR;
    }
    if (write_all(tcti, command, size) != 0) {
        fail(tcti);
        return TSS2_TCTI_RC_IO_ERROR;
    }
    tcti->commands++;
    tcti->awaiting = 1;
    return TSS2_RC_SUCCESS;
}

// The response, in SAPI's two calls: first with no buffer (the header is read and the size returned), then
// with one (the rest is read). The deadline, not `timeout`, bounds every wait (ESAPI's synchronous calls
// pass "block").
static TSS2_RC receive(TSS2_TCTI_CONTEXT *context, size_t *size, uint8_t *response, int32_t timeout) {
    (void)timeout;
    pattern_tcti *tcti = cast(context);
    if (tcti == NULL) return TSS2_TCTI_RC_BAD_CONTEXT;
    if (size == NULL) return TSS2_TCTI_RC_BAD_REFERENCE;
    if (!tcti->awaiting) return TSS2_TCTI_RC_BAD_SEQUENCE;
    if (!tcti->have_header) {
        if (tcti->fd < 0 || read_exact(tcti, tcti->header, HEADER_SIZE) != 0) goto failed;
        tcti->length = (uint32_t)tcti->header[2] << 24 | (uint32_t)tcti->header[3] << 16 |
                       (uint32_t)tcti->header[4] << 8 | tcti->header[5];
        if (tcti->length < HEADER_SIZE) goto failed;
        tcti->have_header = 1;
    }
    if (response == NULL) {
        *size = tcti->length;
        return TSS2_RC_SUCCESS;
    }
    if (*size < tcti->length) {
        *size = tcti->length;
        return TSS2_TCTI_RC_INSUFFICIENT_BUFFER;
    }
    memcpy(response, tcti->header, HEADER_SIZE);
    if (read_exact(tcti, response + HEADER_SIZE, tcti->length - HEADER_SIZE) != 0) goto failed;
    *size = tcti->length;
    tcti->awaiting = 0;
    tcti->have_header = 0;
    return TSS2_RC_SUCCESS;
failed:
    tcti->awaiting = 0;
    tcti->have_header = 0;
    fail(tcti);
    return TSS2_TCTI_RC_IO_ERROR;
}

static void finalize(TSS2_TCTI_CONTEXT *context) {
    pattern_tcti *tcti = cast(context);
    if (tcti == NULL) return;
    if (tcti->fd >= 0) close(tcti->fd);
    tcti->fd = -1;
    tcti->common.v1.magic = 0;
}

static TSS2_RC not_implemented(void) { return TSS2_TCTI_RC_NOT_IMPLEMENTED; }
static TSS2_RC cancel(TSS2_TCTI_CONTEXT *context) { (void)context; return not_implemented(); }
static TSS2_RC poll_handles(TSS2_TCTI_CONTEXT *context, TSS2_TCTI_POLL_HANDLE *handles, size_t *count) {
    (void)context; (void)handles; (void)count;
    return not_implemented();
}
static TSS2_RC set_locality(TSS2_TCTI_CONTEXT *context, uint8_t locality) {
    (void)context; (void)locality;
    return not_implemented();
}
static TSS2_RC make_sticky(TSS2_TCTI_CONTEXT *context, TPM2_HANDLE *handle, uint8_t sticky) {
    (void)context; (void)handle; (void)sticky;
    return not_implemented();
}

static int has_prefix(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

// A non-blocking connect to a unix socket, finished within the deadline.
static int connect_socket(pattern_tcti *tcti, const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) return -1;
    strcpy(address.sun_path, path);
    tcti->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (tcti->fd < 0) return -1;
    if (connect(tcti->fd, (struct sockaddr *)&address, sizeof address) == 0) return 0;
    if (errno != EINPROGRESS && errno != EAGAIN && errno != EINTR) return -1;
    // A unix socket whose listener's backlog is full answers EAGAIN: try again until the deadline.
    while (errno == EAGAIN) {
        if (left_ms(tcti) == 0) {
            tcti->timed_out = 1;
            return -1;
        }
        struct timespec pause = {.tv_nsec = 5000000};
        nanosleep(&pause, NULL);
        if (connect(tcti->fd, (struct sockaddr *)&address, sizeof address) == 0) return 0;
        if (errno == EISCONN) return 0;
    }
    if (errno != EINPROGRESS && errno != EINTR) return -1;
    if (wait_for(tcti, POLLOUT) != 0) return -1;
    int error = 0;
    socklen_t length = sizeof error;
    if (getsockopt(tcti->fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) return -1;
    return 0;
}

TSS2_RC pattern_tcti_open(const char *spec, uint32_t deadline_ms, TSS2_TCTI_CONTEXT **out) {
    *out = NULL;
    pattern_tcti *tcti = calloc(1, sizeof *tcti);
    if (tcti == NULL) return TSS2_TCTI_RC_MEMORY;
    tcti->common.v1.magic = PATTERN_TCTI_MAGIC;
    tcti->common.v1.version = 2;
    tcti->common.v1.transmit = transmit;
    tcti->common.v1.receive = receive;
    tcti->common.v1.finalize = finalize;
    tcti->common.v1.cancel = cancel;
    tcti->common.v1.getPollHandles = poll_handles;
    tcti->common.v1.setLocality = set_locality;
    tcti->common.makeSticky = make_sticky;
    tcti->fd = -1;
    tcti->deadline_ns = now_ns() + (int64_t)deadline_ms * 1000000;
    int ok;
    if (has_prefix(spec, "device:/")) {
        // O_NONBLOCK: the kernel runs the command in the background and poll() says when the answer is in.
        tcti->fd = open(spec + strlen("device:"), O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        ok = tcti->fd >= 0;
    } else if (has_prefix(spec, "swtpm:path=/")) {
        ok = connect_socket(tcti, spec + strlen("swtpm:path=")) == 0;
    } else {
        free(tcti);
        return TSS2_TCTI_RC_BAD_VALUE;
    }
    if (!ok) {
        if (tcti->fd >= 0) close(tcti->fd);
        free(tcti);
        return TSS2_TCTI_RC_IO_ERROR;
    }
    *out = (TSS2_TCTI_CONTEXT *)tcti;
    return TSS2_RC_SUCCESS;
}

void pattern_tcti_close(TSS2_TCTI_CONTEXT *context) {
    if (context == NULL) return;
    finalize(context);
    free(context);
}

uint32_t pattern_tcti_commands(TSS2_TCTI_CONTEXT *context) {
    pattern_tcti *tcti = cast(context);
    return tcti == NULL ? 0 : tcti->commands;
}

int pattern_tcti_has_resource_manager(const char *spec) { return has_prefix(spec, "device:/dev/tpmrm"); }

int pattern_tcti_timed_out(TSS2_TCTI_CONTEXT *context) {
    pattern_tcti *tcti = cast(context);
    return tcti != NULL && tcti->timed_out;
}
