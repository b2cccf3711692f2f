/*
 * pattern_helper_pam.c - the account password check of `pam_pattern_helper enroll`.
 *
 * Why C: a PAM conversation is a C callback that hands back malloc'd
 * responses. The helper runs the "patternctl" service itself, as root, for the
 * caller's own user (checked before this is called), like chsh and chfn do:
 * a user calling the helper directly still has to know the password. The
 * throttle around it (recorded before PAM runs) is in Swift (GuessGate).
 *
 * libpam is dlopened here, by soname, the one time it is needed: linked, it
 * and the libaudit and libcap-ng it pulls in were mapped and relocated by
 * every run of the helper (two per authentication through it), and libcap-ng's
 * constructor reads /proc on each. A setuid process's loader ignores
 * LD_LIBRARY_PATH, and the helper has cleared its environment by now.
 */
#include "pattern_helper.h"

#include <dlfcn.h>
#include <security/pam_appl.h>
#include <stdlib.h>
#include <string.h>

struct password_answer {
    const char *password;
    int used;
};

/* Answers the first echo-off prompt with the password; any further prompt,
 * or an echo-on prompt (a user name, an OTP), fails the conversation, so no
 * module can loop on or learn more than the one password. Messages are
 * dropped: the caller has no terminal here. */
static int answer(int count, const struct pam_message **messages, struct pam_response **responses, void *data) {
    struct password_answer *state = data;
    if (count <= 0 || count > PAM_MAX_NUM_MSG || responses == NULL) return PAM_CONV_ERR;
    struct pam_response *reply = calloc((size_t)count, sizeof *reply);
    if (reply == NULL) return PAM_BUF_ERR;
    for (int i = 0; i < count; i++) {
        int style = messages[i]->msg_style;
        if (style == PAM_ERROR_MSG || style == PAM_TEXT_INFO) continue;
        if (style != PAM_PROMPT_ECHO_OFF || state->used) goto fail;
        reply[i].resp = strdup(state->password);
        if (reply[i].resp == NULL) goto fail;
        state->used = 1;
    }
    *responses = reply;
    return PAM_SUCCESS;
fail:
    for (int i = 0; i < count; i++) {
        if (reply[i].resp != NULL) {
            explicit_bzero(reply[i].resp, strlen(reply[i].resp));
            free(reply[i].resp);
        }
    }
    free(reply);
    return PAM_CONV_ERR;
}

/* The four libpam entry points the check uses, resolved from one handle. */
struct pam_library {
    __typeof__(pam_start) *start;
    __typeof__(pam_authenticate) *authenticate;
    __typeof__(pam_acct_mgmt) *acct_mgmt;
    __typeof__(pam_end) *end;
};

static int load_pam(struct pam_library *pam) {
    /* RTLD_NODELETE: modules that libpam loads may keep state (atexit, threads) that outlives a handle. */
    void *library = dlopen("libpam.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == NULL) return -1;
    pam->start = (__typeof__(pam_start) *)dlsym(library, "pam_start");
    pam->authenticate = (__typeof__(pam_authenticate) *)dlsym(library, "pam_authenticate");
    pam->acct_mgmt = (__typeof__(pam_acct_mgmt) *)dlsym(library, "pam_acct_mgmt");
    pam->end = (__typeof__(pam_end) *)dlsym(library, "pam_end");
    return pam->start && pam->authenticate && pam->acct_mgmt && pam->end ? 0 : -1;
}

int pattern_helper_check_password(const char *user, const char *password) {
    struct pam_library pam;
    /* No libpam: the password cannot be checked, as when the service cannot be read. */
    if (load_pam(&pam) != 0) return PAM_SYSTEM_ERR;
    struct password_answer state = {password, 0};
    struct pam_conv conversation = {answer, &state};
    pam_handle_t *handle = NULL;
    int rc = pam.start("patternctl", user, &conversation, &handle);
    if (rc != PAM_SUCCESS) return rc;
    rc = pam.authenticate(handle, PAM_DISALLOW_NULL_AUTHTOK);
    /* An expired or locked account does not get to enrol either. */
    if (rc == PAM_SUCCESS) rc = pam.acct_mgmt(handle, PAM_DISALLOW_NULL_AUTHTOK);
    pam.end(handle, rc);
    return rc;
}
