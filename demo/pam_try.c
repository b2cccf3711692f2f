/*
 * pam-try: authenticate once or more through the real libpam, interactively.
 *
 * Why: `make demo` must show a real "Pattern:" prompt from a real PAM stack
 * without touching /etc/pam.d. pam_start_confdir (libpam >= 1.4) reads the
 * service file from a private directory instead.
 *
 * usage: pam-try CONFDIR SERVICE USER [TRIES]
 * Exit status: 0 when an attempt succeeded, 1 otherwise, 2 on usage errors.
 */
#include <security/pam_appl.h>
#include <security/pam_misc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: pam-try CONFDIR SERVICE USER [TRIES]\n");
        return 2;
    }
    const char *confdir = argv[1], *service = argv[2], *user = argv[3];
    int tries = argc == 5 ? atoi(argv[4]) : 3;
    if (tries < 1 || tries > 10) tries = 3;

    struct pam_conv conv = { misc_conv, NULL };
    for (int attempt = 1; attempt <= tries; attempt++) {
        pam_handle_t *pamh = NULL;
        int rc = pam_start_confdir(service, user, &conv, confdir, &pamh);
        if (rc != PAM_SUCCESS) {
            fprintf(stderr, "pam_start_confdir: %s\n", pam_strerror(pamh, rc));
            return 1;
        }
        rc = pam_authenticate(pamh, 0);
        printf("attempt %d of %d: %s (%s)\n", attempt, tries,
               rc == PAM_SUCCESS ? "ACCEPTED" : "REFUSED", pam_strerror(pamh, rc));
        fflush(stdout);
        pam_end(pamh, rc);
        if (rc == PAM_SUCCESS) return 0;
    }
    return 1;
}
