/*
 * auth_pattern's entry point (man/auth_pattern.8): an xsecurelock auth
 * module. In C because Embedded Swift has no argv; the process is made
 * non-dumpable and its secret buffer locked before any Swift code runs,
 * then PatternPad (Embedded Swift) runs the lock screen. Exit 0 only when
 * authproto_pam said the user is authenticated.
 */
#include "pattern_pad.h"

int pattern_pad_run(void);

int main(void) {
    if (pattern_pad_prepare() != 0) {
        pattern_pad_log("cannot make the process non-dumpable; refusing to take a secret");
        return 1;
    }
    return pattern_pad_run();
}
