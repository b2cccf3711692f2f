/*
 * pattern-lock-pam: pattern-lock's PAM child. One pam_authenticate (with
 * up to three tries, as xsecurelock's authproto_pam) for the user who runs
 * it, service "pattern-lock", then pam_acct_mgmt; exit 0 only on success.
 * It speaks authproto on stdin/stdout (packets "<type> <length>\n<bytes>\n":
 * P/U prompts, i/e messages to the screen; p/u answers, x cancel from it),
 * so the lock screen reuses the pad's conversation unchanged and never
 * waits on PAM: PAM's delays happen here, in another process.
 *
 * Runs as the user, never setuid: pam_unix reaches /etc/shadow through
 * unix_chkpwd, pam_pattern through its setuid helper.
 */
#define _GNU_SOURCE
#include <pwd.h>
#include <security/pam_appl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_REPLY 4096

static int write_packet(char type, const char *text) {
    size_t length = text == NULL ? 0 : strlen(text);
    if (printf("%c %zu\n", type, length) < 0) return -1;
    if (length > 0 && fwrite(text, 1, length, stdout) != length) return -1;
    if (putchar('\n') == EOF) return -1;
    return fflush(stdout) == 0 ? 0 : -1;
}

/* Reads one reply; its bytes into a new NUL-terminated buffer (PAM frees it). Returns the type, or 0. */
static char read_packet(char **bytes) {
    *bytes = NULL;
    int type = getchar();
    if (type == EOF || getchar() != ' ') return 0;
    size_t length = 0;
    int c;
    while ((c = getchar()) >= '0' && c <= '9') {
        length = length * 10 + (size_t)(c - '0');
        if (length > MAX_REPLY) return 0;
    }
    if (c != '\n') return 0;
    char *buffer = calloc(length + 1, 1);
    if (buffer == NULL) return 0;
    if (length > 0 && fread(buffer, 1, length, stdin) != length) {
        explicit_bzero(buffer, length);
        free(buffer);
        return 0;
    }
    if (getchar() != '\n') {
        explicit_bzero(buffer, length);
        free(buffer);
        return 0;
    }
    *bytes = buffer;
    return (char)type;
}

static int converse(int count, const struct pam_message **messages, struct pam_response **responses, void *data) {
    (void)data;
    if (count <= 0 || count > PAM_MAX_NUM_MSG) return PAM_CONV_ERR;
    struct pam_response *out = calloc((size_t)count, sizeof *out);
    if (out == NULL) return PAM_BUF_ERR;
    for (int i = 0; i < count; i++) {
        const struct pam_message *m = messages[i];
        char type = 0;
        switch (m->msg_style) {
        case PAM_PROMPT_ECHO_OFF: type = 'P'; break;
        case PAM_PROMPT_ECHO_ON: type = 'U'; break;
        case PAM_TEXT_INFO: type = 'i'; break;
        case PAM_ERROR_MSG: type = 'e'; break;
        default: goto fail;
        }
        if (write_packet(type, m->msg) != 0) goto fail;
        if (type == 'i' || type == 'e') continue;
        char *reply = NULL;
        char got = read_packet(&reply);
        if (got != 'p' && got != 'u') {
            if (reply != NULL) free(reply);
            goto fail;
        }
        out[i].resp = reply;
    }
    *responses = out;
    return PAM_SUCCESS;
fail:
    for (int i = 0; i < count; i++) {
        if (out[i].resp == NULL) continue;
        explicit_bzero(out[i].resp, strlen(out[i].resp));
        free(out[i].resp);
    }
    free(out);
    return PAM_CONV_ERR;
}

int main(void) {
    signal(SIGPIPE, SIG_DFL);
    struct passwd *pw = getpwuid(getuid());
    if (pw == NULL) {
        fputs("pattern-lock-pam: who runs this is unknown\n", stderr);
        return 1;
    }
    const struct pam_conv conversation = {converse, NULL};
    pam_handle_t *pamh = NULL;
    int result = pam_start("pattern-lock", pw->pw_name, &conversation, &pamh);
    if (result != PAM_SUCCESS) return 1;
    for (int tries = 0; tries < 3; tries++) {
        result = pam_authenticate(pamh, 0);
        if (result == PAM_SUCCESS || result == PAM_ABORT || result == PAM_MAXTRIES || result == PAM_CONV_ERR) break;
    }
    if (result == PAM_SUCCESS) {
        result = pam_acct_mgmt(pamh, 0);
        /* An expired password still opens the screen (the session is already the user's), as swaylock does. */
        if (result == PAM_NEW_AUTHTOK_REQD) result = PAM_SUCCESS;
    }
    if (result == PAM_SUCCESS) pam_setcred(pamh, PAM_REFRESH_CRED);
    pam_end(pamh, result);
    return result == PAM_SUCCESS ? 0 : 1;
}
