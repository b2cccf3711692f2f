/* The PAM entry points and the libpam calls Swift cannot make (see header). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* program_invocation_short_name */
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libintl.h>
#include "pam_shim.h"

/* Where `make install` puts pam_pattern.mo; fixed like the PAM module directory, since the module
   cannot trust the environment of a setuid host to find it. */
#ifndef PAM_PATTERN_LOCALEDIR
#define PAM_PATTERN_LOCALEDIR "/usr/share/locale"
#endif
#define PAM_PATTERN_TEXTDOMAIN "pam_pattern"

PAM_EXTERN int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    return pam_pattern_swift_authenticate(pamh, flags, argc, argv);
}

/* Credentials are not ours to set; su fails "setting user credentials"
   unless this succeeds. */
PAM_EXTERN int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    (void)pamh; (void)flags; (void)argc; (void)argv;
    return PAM_SUCCESS;
}

void pam_pattern_log(pam_handle_t *pamh, int priority, const char *message) {
    pam_syslog(pamh, priority, "%s", message != NULL ? message : "");
}

int pam_pattern_converse(pam_handle_t *pamh, int style, const char *message, char **answer) {
    const struct pam_conv *conv = NULL;
    struct pam_message msg;
    const struct pam_message *msgp = &msg;
    struct pam_response *resp = NULL;
    int rc;

    if (answer != NULL) *answer = NULL;
    rc = pam_get_item(pamh, PAM_CONV, (const void **)&conv);
    if (rc != PAM_SUCCESS) return rc;
    if (conv == NULL || conv->conv == NULL) return PAM_CONV_ERR;

    msg.msg_style = style;
    msg.msg = message != NULL ? message : "";
    rc = conv->conv(1, &msgp, &resp, conv->appdata_ptr);
    if (rc != PAM_SUCCESS) {
        /* Applications should not return data on failure; free it if they did. */
        if (resp != NULL) {
            if (resp[0].resp != NULL) {
                explicit_bzero(resp[0].resp, strlen(resp[0].resp));
                free(resp[0].resp);
            }
            free(resp);
        }
        return rc;
    }
    if (resp == NULL) {
        return (style == PAM_PROMPT_ECHO_OFF || style == PAM_PROMPT_ECHO_ON) ? PAM_CONV_ERR : PAM_SUCCESS;
    }
    if (answer != NULL) {
        *answer = resp[0].resp; /* ownership moves to the caller */
    } else if (resp[0].resp != NULL) {
        explicit_bzero(resp[0].resp, strlen(resp[0].resp));
        free(resp[0].resp);
    }
    free(resp);
    return PAM_SUCCESS;
}

const char *pam_pattern_get_item_string(pam_handle_t *pamh, int item) {
    const void *value = NULL;
    if (pam_get_item(pamh, item, &value) != PAM_SUCCESS) return NULL;
    return (const char *)value;
}

int pam_pattern_get_user(pam_handle_t *pamh, const char **user) {
    return pam_get_user(pamh, user, NULL);
}

int pam_pattern_set_authtok(pam_handle_t *pamh, const char *token) {
    return pam_set_item(pamh, PAM_AUTHTOK, token);
}

void pam_pattern_free_answer(char *answer) {
    if (answer == NULL) return;
    explicit_bzero(answer, strlen(answer));
    free(answer);
}

/* The kept bytes: their length, then the bytes (freed by libpam at pam_end or when replaced). */
struct pam_pattern_kept { size_t length; unsigned char bytes[]; };

static void pam_pattern_free_kept(pam_handle_t *pamh, void *data, int error_status) {
    (void)pamh; (void)error_status;
    free(data);
}

int pam_pattern_keep_bytes(pam_handle_t *pamh, const char *name, const unsigned char *bytes, size_t length) {
    struct pam_pattern_kept *kept;
    if (length > 4096 || (length > 0 && bytes == NULL)) return PAM_BUF_ERR;
    kept = malloc(sizeof(*kept) + length);
    if (kept == NULL) return PAM_BUF_ERR;
    kept->length = length;
    if (length > 0) memcpy(kept->bytes, bytes, length);
    int rc = pam_set_data(pamh, name, kept, pam_pattern_free_kept);
    if (rc != PAM_SUCCESS) free(kept);
    return rc;
}

const unsigned char *pam_pattern_kept_bytes(pam_handle_t *pamh, const char *name, size_t *length) {
    const void *data = NULL;
    *length = 0;
    if (pam_get_data(pamh, name, &data) != PAM_SUCCESS || data == NULL) return NULL;
    const struct pam_pattern_kept *kept = data;
    *length = kept->length;
    return kept->bytes;
}

void pam_pattern_fail_delay(pam_handle_t *pamh, unsigned int micros) {
    (void)pam_fail_delay(pamh, micros);
}

void pam_pattern_bind_text_domain(void) {
    /* As Linux-PAM's own modules: the module's domain, the application's locale (never setlocale here). */
    (void)bindtextdomain(PAM_PATTERN_TEXTDOMAIN, PAM_PATTERN_LOCALEDIR);
}

int pam_pattern_format_time(long long seconds, char *out, int out_size) {
    time_t t = (time_t)seconds;
    struct tm tm;
    if (out == NULL || out_size <= 0 || localtime_r(&t, &tm) == NULL) return -1;
    /* Numeric and the same in every language; the host's time zone, as login shows it. */
    return strftime(out, (size_t)out_size, "%Y-%m-%d %H:%M %Z", &tm) > 0 ? 0 : -1;
}

const char *pam_pattern_program_name(void) {
    return program_invocation_short_name;
}
