/* The PAM entry points and the libpam calls Swift cannot make (see header). */
#include <stdlib.h>
#include <string.h>
#include "pam_shim.h"

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

void pam_pattern_fail_delay(pam_handle_t *pamh, unsigned int micros) {
    (void)pam_fail_delay(pamh, micros);
}
