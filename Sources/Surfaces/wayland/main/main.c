/*
 * pattern-lock's entry point (man/pattern-lock.1): the Wayland lock screen.
 * In C because Embedded Swift has no argv; the process is made non-dumpable
 * and its secret buffer locked before any Swift code runs, the renderer's
 * drawing is pointed at cairo, then PatternPad (Embedded Swift, LockMain)
 * locks and runs the screen. Exit 0 only after PAM said yes and the session
 * was unlocked.
 */
#include "pattern_lock.h"
#include "pattern_pad.h"

int pattern_lock_run(void);

int main(void) {
    if (pattern_pad_prepare() != 0) {
        pattern_pad_log("cannot make the process non-dumpable; refusing to take a secret");
        return 1;
    }
    pattern_lock_use_cairo();
    return pattern_lock_run();
}
