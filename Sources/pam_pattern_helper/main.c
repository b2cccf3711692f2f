/*
 * pam_pattern_helper's entry point (man/pam_pattern_helper.8). In C because
 * Embedded Swift has no access to argv: the process is hardened here before
 * any Swift code runs, then PatternHelper (Embedded Swift) serves one call
 * and its verdict's exit status is returned.
 */
#include "pattern_helper.h"

int main(int argc, char **argv) {
    if (pattern_helper_harden() != 0) {
        pattern_helper_log(LOG_CRIT, "could not make the process safe (prctl, fds, environment or signals); refusing");
        return 5; /* HelperExit.unavailable */
    }
    return pattern_helper_serve(argc, (const char *const *)argv);
}
