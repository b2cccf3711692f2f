/*
 * pam_bench: time pam_authenticate for two PAM services in the SAME process,
 * interleaved, so that both see the same machine state. Prints one line per
 * service: "SERVICE median_us p90_us result".
 *
 * usage: pam_bench CONFDIR USER ITERATIONS SERVICE=ANSWER [SERVICE=ANSWER ...]
 * The conversation answers every echo-off/echo-on prompt with ANSWER.
 */
#define _GNU_SOURCE
#include <security/pam_appl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int answer_conv(int n, const struct pam_message **msg, struct pam_response **resp, void *data) {
    struct pam_response *r = calloc((size_t)n, sizeof *r);
    if (r == NULL) return PAM_BUF_ERR;
    for (int i = 0; i < n; i++) {
        if (msg[i]->msg_style == PAM_PROMPT_ECHO_OFF || msg[i]->msg_style == PAM_PROMPT_ECHO_ON)
            r[i].resp = strdup((const char *)data);
    }
    *resp = r;
    return PAM_SUCCESS;
}

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: pam_bench CONFDIR USER ITERATIONS SERVICE=ANSWER...\n");
        return 2;
    }
    const char *confdir = argv[1], *user = argv[2];
    int iterations = atoi(argv[3]);
    int services = argc - 4;
    if (iterations < 1) return 2;
    double *samples = calloc((size_t)services * (size_t)iterations, sizeof(double));
    int *results = calloc((size_t)services, sizeof(int));
    char **names = calloc((size_t)services, sizeof(char *));
    char **answers = calloc((size_t)services, sizeof(char *));
    if (!samples || !results || !names || !answers) return 1;
    for (int s = 0; s < services; s++) {
        names[s] = strdup(argv[4 + s]);
        char *eq = strchr(names[s], '=');
        if (eq == NULL) return 2;
        *eq = '\0';
        answers[s] = eq + 1;
    }
    for (int i = 0; i < iterations; i++) {
        for (int s = 0; s < services; s++) {
            struct pam_conv conv = { answer_conv, answers[s] };
            pam_handle_t *pamh = NULL;
            double start = now_us();
            int rc = pam_start_confdir(names[s], user, &conv, confdir, &pamh);
            if (rc == PAM_SUCCESS) rc = pam_authenticate(pamh, PAM_SILENT);
            pam_end(pamh, rc);
            samples[s * iterations + i] = now_us() - start;
            results[s] = rc;
        }
    }
    for (int s = 0; s < services; s++) {
        double *v = samples + s * iterations;
        qsort(v, (size_t)iterations, sizeof(double), cmp);
        printf("%s %.0f %.0f %s\n", names[s], v[iterations / 2], v[(iterations * 9) / 10],
               results[s] == PAM_SUCCESS ? "success" : pam_strerror(NULL, results[s]));
    }
    return 0;
}
