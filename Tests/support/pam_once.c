/*
 * pam_once: one authentication through the real libpam, for the fault-injection and concurrency tests
 * (one process each, so strace can inject into it, kill -9 can hit it, and 64 of them can race).
 *
 * usage: pam_once CONFDIR SERVICE USER ANSWER
 * Every prompt is answered with ANSWER. libpam's failure delay is replaced by a no-op callback (the
 * module asks for 2 s; the tests would only sleep). With PAM_ONCE_GO=<fifo> it blocks on the FIFO
 * after pam_start until the test releases all processes at once (a start barrier).
 * Prints nothing until pam_end (a write injected by strace then hits the module, not this program),
 * then one line per message ("prompt: ...", "error: ...", "info: ...", and "log: ..." for what the module
 * logs: pam_syslog is replaced by this program's own, linked with -rdynamic) and "rc=<code>".
 * Exit status 0 (the PAM code is in the output), 2 usage, 3 pam_start failed.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <security/pam_appl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char transcript[65536];
static size_t used;

static void note(const char *kind, const char *text) {
    int n = snprintf(transcript + used, sizeof transcript - used, "%s: %s\n", kind, text ? text : "(null)");
    if (n > 0 && (size_t)n < sizeof transcript - used) used += (size_t)n;
}

/* The module's log lines, kept in the transcript instead of syslog. */
void pam_vsyslog(const pam_handle_t *pamh, int priority, const char *fmt, va_list args) {
    (void)pamh; (void)priority;
    char line[2048];
    vsnprintf(line, sizeof line, fmt, args);
    note("log", line);
}

void pam_syslog(const pam_handle_t *pamh, int priority, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    pam_vsyslog(pamh, priority, fmt, args);
    va_end(args);
}

static int converse(int count, const struct pam_message **messages, struct pam_response **responses, void *data) {
    const char *answer = data;
    struct pam_response *reply = calloc((size_t)count, sizeof *reply);
    if (reply == NULL) return PAM_BUF_ERR;
    for (int i = 0; i < count; i++) {
        switch (messages[i]->msg_style) {
        case PAM_PROMPT_ECHO_OFF:
        case PAM_PROMPT_ECHO_ON:
            note("prompt", messages[i]->msg);
            reply[i].resp = strdup(answer);
            break;
        case PAM_ERROR_MSG: note("error", messages[i]->msg); break;
        default: note("info", messages[i]->msg); break;
        }
    }
    *responses = reply;
    return PAM_SUCCESS;
}

static void no_delay(int status, unsigned int usec, void *data) {
    (void)status; (void)usec; (void)data;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: pam_once CONFDIR SERVICE USER ANSWER\n");
        return 2;
    }
    struct pam_conv conv = {converse, argv[4]};
    pam_handle_t *pamh = NULL;
    if (pam_start_confdir(argv[2], argv[3], &conv, argv[1], &pamh) != PAM_SUCCESS) return 3;
    pam_set_item(pamh, PAM_FAIL_DELAY, (const void *)no_delay);
    const char *go = getenv("PAM_ONCE_GO");
    if (go != NULL) {
        int fd = open(go, O_RDONLY | O_CLOEXEC);
        char byte;
        if (fd >= 0) {
            while (read(fd, &byte, 1) > 0) {}
            close(fd);
        }
    }
    int rc = pam_authenticate(pamh, 0);
    pam_end(pamh, rc);
    fputs(transcript, stdout);
    printf("rc=%d\n", rc);
    return 0;
}
