/*
 * pattern_lock.h - what pattern-lock (the Wayland lock screen) needs from C.
 *
 * Why C: libwayland's listeners, wl_shm buffers, cairo and xkbcommon are
 * callback- and struct-heavy. Every symbol carries the pattern_lock_ prefix.
 * No policy lives here: what to draw, when to send and what PAM said is
 * decided in Swift (the pad's PadSession and PadRenderer, LockMain.swift).
 * The renderer's drawing calls (pattern_pad.h) reach cairo through the
 * painter this side installs.
 */
#ifndef PATTERN_LOCK_H
#define PATTERN_LOCK_H

#include <stddef.h>
#include <stdint.h>

enum {
    PATTERN_LOCK_NONE = 0,
    /* The session is locked with ext-session-lock-v1: the compositor keeps it
     * locked until the locker says unlock, even when the locker dies. */
    PATTERN_LOCK_SESSION_LOCK = 1,
    /* wlr-layer-shell surfaces on top plus wlr-input-inhibitor (sway before
     * 1.8): the compositor lets the session go when the locker ends. */
    PATTERN_LOCK_LAYER_SHELL = 2,
};

/* Connects to $WAYLAND_DISPLAY, locks the session with the best protocol
 * offered, puts one lock surface on every output and waits until each has
 * its size. Returns the PATTERN_LOCK_* used, or -1 with the reason logged
 * (nothing locked). */
int pattern_lock_open(void);
/* Unlocks (ext-session-lock: unlock_and_destroy) and waits until the
 * compositor has read it. Only after PAM said yes. */
void pattern_lock_unlock(void);
/* Disconnects without unlocking. */
void pattern_lock_close(void);

/* The lock surfaces, in buffer pixels (logical size times the output's
 * scale, which *scale says). A surface without its size yet has width 0. */
int pattern_lock_monitor_count(void);
void pattern_lock_monitor(int i, int32_t *width, int32_t *height, int32_t *scale);
/* 1 once after any surface came, went, or changed size or scale. */
int pattern_lock_layout_changed(void);
/* 1 once after a surface asked to be drawn again (a buffer came back after
 * a frame was skipped, a new surface was configured). */
int pattern_lock_needs_frame(void);

/* Reads and dispatches the compositor's events, then waits up to timeout_ms
 * for the compositor or for fds (up to 4; -1 entries ignored). Returns a
 * bit mask: bit i for fds[i]; -1 when the connection is lost. */
int pattern_lock_wait(const int *fds, int count, int timeout_ms);

/* Input, in the order it came, with the pattern_pad.h kinds
 * (PATTERN_PAD_INPUT_PRESS, MOTION, RELEASE, TEXT, ESCAPE, ENTER, BACKSPACE,
 * CLEAR). MOTION comes with or without a press (the drawn pointer follows
 * it). *monitor is the surface the pointer or finger is on; x, y are that
 * surface's buffer pixels. TEXT's bytes may be a secret: the caller wipes
 * them, as this side wipes its queue. Returns NONE when nothing waits. */
int pattern_lock_input(int32_t *monitor, int32_t *x, int32_t *y, unsigned char *bytes, size_t capacity,
                       size_t *length);

/* The words on screen (the painter's set_caption) go to stderr, one
 * "pattern-lock: screen: ..." line each time they change, when
 * PATTERN_LOCK_SAY_SCREEN=1: what a test (or a log) reads instead of pixels. */

/* Installs the cairo painter for the renderer's pattern_pad_* drawing calls. */
void pattern_lock_use_cairo(void);

#endif
