/*
 * pattern-draw's entry point (man/patternctl.8, "set --draw"): the window in
 * which a person draws their own pattern for `patternctl set --draw`, which
 * starts it with a pipe each way and does everything else (the helper, the
 * strength rules). In C because Embedded Swift has no argv; the process is
 * made non-dumpable and its secret buffer locked before any Swift code runs,
 * as the lock screen's pad is; then PatternPad (Embedded Swift) runs it.
 */
#include <stdio.h>
#include <unistd.h>

#include "pattern_pad.h"

int pattern_draw_run(void);

int main(void) {
    if (isatty(STDIN_FILENO) || isatty(STDOUT_FILENO)) {
        fputs("pattern-draw: this is the window of 'patternctl set --draw'; run that instead\n", stderr);
        return 2;
    }
    if (pattern_pad_prepare() != 0) {
        pattern_pad_log("cannot make the process non-dumpable; refusing to take a secret");
        return 1;
    }
    return pattern_draw_run();
}
