/*
 * pattern_pad.h - what auth_pattern (the xsecurelock auth module) needs from C.
 *
 * Why C: Xlib, XRandR and Xft are macro- and struct-heavy, and fork/exec,
 * poll, mlock and gettext are easier to get right here. Every symbol carries
 * the pattern_pad_ prefix. No policy lives here: what to draw, when to send
 * and what a packet means is decided in Swift (target PatternPad, Sources/Surfaces).
 */
#ifndef PATTERN_PAD_H
#define PATTERN_PAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- process ------------------------------------------------------------ */

/* Not dumpable (no core file, no ptrace by other processes of the user),
 * SIGPIPE ignored, locale from the environment, the "pam_pattern" text
 * domain in UTF-8. Returns 0, or -1 when the process could not be made
 * non-dumpable (the caller refuses to run). */
int pattern_pad_prepare(void);

/* The one buffer that ever holds a drawn or typed secret: fixed, page
 * aligned, mlock'ed and excluded from core dumps by pattern_pad_prepare. */
#define PATTERN_PAD_SECRET_CAPACITY 4096
unsigned char *pattern_pad_secret(void);
/* 1 when mlock succeeded on the secret's page. */
int pattern_pad_secret_locked(void);
/* Zeroes `length` bytes of the secret (explicit_bzero: never optimised away). */
void pattern_pad_wipe(unsigned char *bytes, size_t length);

/* Monotonic milliseconds. */
int64_t pattern_pad_now_ms(void);
/* Seconds since the epoch. */
int64_t pattern_pad_wall_seconds(void);
/* The local time and date as the locale writes them ("14:05   Sunday 12/06/26"), into out (not NUL-terminated);
 * returns the length, 0 when it did not fit. */
size_t pattern_pad_clock(unsigned char *out, size_t capacity);

/* An environment variable's value (NULL when unset). */
const char *pattern_pad_getenv(const char *name);
/* The real user's full name (GECOS up to its first comma) or, without one,
 * the login name (NUL-terminated, static); "" when unknown. */
const char *pattern_pad_user_name(void);

/* One line to stderr, prefixed with the program's name ("auth_pattern: "). Never given a secret. */
void pattern_pad_log(const char *message);

/* ---- authproto (the PAM child) ----------------------------------------- */

/* Starts `path` (absolute) with XSECURELOCK_NO_PAM_RHOST=1 added to a copy
 * of the environment: its stdin is *to_child, its stdout *from_child (both
 * non-blocking, close-on-exec on our side). Returns the pid, or -1. */
pid_t pattern_pad_spawn(const char *path, int *to_child, int *from_child);
/* Writes "<type> <length>\n<bytes>\n" completely (blocking, bounded by a
 * 2 s deadline). Returns 0, or -1. */
int pattern_pad_write_packet(int fd, char type, const unsigned char *bytes, size_t length);
/* read(2) that returns -2 for "nothing yet" (EAGAIN), 0 at end of file. */
long pattern_pad_read(int fd, unsigned char *buffer, size_t capacity);
/* A descriptor that becomes readable when the child ends (a pidfd,
 * close-on-exec), or -1 where the kernel has none. Its output's end of file
 * can come just before the child can be reaped: without this, the exit would
 * wait for the loop's next timeout. */
int pattern_pad_exit_watch(pid_t pid);
/* waitpid without blocking: 1 and *status (exit code, or 128+signal) when
 * the child has ended, 0 while it runs, -1 on error. */
int pattern_pad_reap(pid_t pid, int *status);
/* Sends SIGKILL to the child and reaps it. */
void pattern_pad_kill(pid_t pid);
/* Sends SIGKILL to the child without waiting (pattern_pad_reap reaps it later). */
void pattern_pad_signal_kill(pid_t pid);
void pattern_pad_close(int fd);
/* Makes fd 0 non-blocking. */
void pattern_pad_stdin_nonblocking(void);

/* Waits up to timeout_ms for input on fds (up to 4; -1 entries ignored) and
 * on the X connection. Returns a bit mask: bit i for fds[i], bit 4 for X. */
int pattern_pad_wait(const int *fds, int count, int timeout_ms);

/* ---- X11 ---------------------------------------------------------------- */

/* Opens $DISPLAY, finds $XSCREENSAVER_WINDOW (else the root window), maps
 * it, and makes one child window per monitor (XRandR; the whole window
 * when there is none). Returns 0, or -1 with a reason logged. */
int pattern_pad_x11_open(void);
void pattern_pad_x11_close(void);
/* Closes the display but leaves the monitor windows with the last frame on
 * screen (RetainTemporary) until their parent, the locker's window, is
 * destroyed: the success frame stays until the screen opens. */
void pattern_pad_x11_close_keeping_frame(void);
/* Handles pending X events; returns 1 when the monitors or the parent's
 * size changed (windows were remade: redraw everything), else 0. */
int pattern_pad_x11_events(void);

/* The LightDM greeter's screen is the root window and nobody else reads its keys: pressed keys are kept (in
 * xsecurelock's bytes: Return '\r', BackSpace 0x08, Escape 0x1B, Ctrl-U 0x15, text as UTF-8) by
 * pattern_pad_x11_events until read_keys copies them out (and wipes its own copy). */
void pattern_pad_x11_take_keyboard(void);
size_t pattern_pad_x11_read_keys(unsigned char *bytes, size_t capacity);
/* The X connection's fd to poll, or -1 when Xlib already holds events (handle them first: a poll would wait). */
int pattern_pad_x11_fd(void);

int pattern_pad_monitor_count(void);
/* Monitor i's rectangle in root coordinates. */
void pattern_pad_monitor(int i, int32_t *x, int32_t *y, int32_t *width, int32_t *height);

/* The pointer in root coordinates and whether button 1 is down. 0, or -1. */
int pattern_pad_pointer(int32_t *x, int32_t *y, int32_t *pressed);

/* Names every monitor window (_NET_WM_NAME, UTF-8) with the words on
 * screen, one line each: what a screen reader (or a test) can read. */
void pattern_pad_set_caption(const unsigned char *utf8, size_t length);

/* Drawing on monitor i's back buffer, in the monitor's own coordinates;
 * colours are 0xRRGGBB. end() shows the frame and flushes. */
void pattern_pad_frame_begin(int monitor, uint32_t background);
void pattern_pad_fill_circle(int32_t cx, int32_t cy, int32_t radius, uint32_t colour);
void pattern_pad_ring(int32_t cx, int32_t cy, int32_t radius, int32_t width, uint32_t colour);
void pattern_pad_line(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t width, uint32_t colour);
void pattern_pad_rect(int32_t x, int32_t y, int32_t width, int32_t height, int32_t line_width, uint32_t colour);
/* UTF-8 text centred on cx with its baseline at y, in a font of about
 * pixel_size pixels for the locale's language. Returns the text's width. */
int32_t pattern_pad_text(const unsigned char *utf8, size_t length, int32_t cx, int32_t y, int32_t pixel_size,
                         uint32_t colour);
/* The width pattern_pad_text would draw, without drawing. */
int32_t pattern_pad_text_width(const unsigned char *utf8, size_t length, int32_t pixel_size);
void pattern_pad_frame_end(void);
/* Waits until the X server has drawn every request sent (XSync). */
void pattern_pad_x11_sync(void);

/* The drawing calls above, drawn by another surface instead of X11: pattern-lock
 * (Wayland) sets its cairo painter once, and the renderer's calls go there. */
struct pattern_pad_painter {
    void (*frame_begin)(int monitor, uint32_t background);
    void (*fill_circle)(int32_t cx, int32_t cy, int32_t radius, uint32_t colour);
    void (*ring)(int32_t cx, int32_t cy, int32_t radius, int32_t width, uint32_t colour);
    void (*line)(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t width, uint32_t colour);
    void (*rect)(int32_t x, int32_t y, int32_t width, int32_t height, int32_t line_width, uint32_t colour);
    int32_t (*text)(const unsigned char *utf8, size_t length, int32_t cx, int32_t y, int32_t pixel_size,
                    uint32_t colour);
    int32_t (*text_width)(const unsigned char *utf8, size_t length, int32_t pixel_size);
    void (*frame_end)(void);
    void (*set_caption)(const unsigned char *utf8, size_t length);
};
void pattern_pad_set_painter(const struct pattern_pad_painter *painter);

/* ---- the drawing window (pattern-draw) ---------------------------------- */

/* Opens $DISPLAY with a top-level window of its own (width x height, `title`
 * in UTF-8 for the window manager) instead of the locker's: one monitor, the
 * whole window, at (0, 0). Its pointer and keys come as events
 * (pattern_pad_window_input), not by polling. Returns 0, or -1 logged. */
int pattern_pad_x11_open_window(const unsigned char *title, size_t length, int32_t width, int32_t height);

enum {
    PATTERN_PAD_INPUT_NONE = 0,
    PATTERN_PAD_INPUT_PRESS,     /* button 1 down at x, y (window pixels) */
    PATTERN_PAD_INPUT_MOTION,    /* the pointer moved to x, y with a button down */
    PATTERN_PAD_INPUT_RELEASE,   /* button 1 up at x, y */
    PATTERN_PAD_INPUT_TEXT,      /* typed characters, UTF-8, in bytes (a secret: the caller wipes them) */
    PATTERN_PAD_INPUT_ESCAPE,
    PATTERN_PAD_INPUT_ENTER,
    PATTERN_PAD_INPUT_BACKSPACE,
    PATTERN_PAD_INPUT_CLEAR,     /* Ctrl-U */
    PATTERN_PAD_INPUT_CLOSE,     /* the window manager's close button */
    PATTERN_PAD_INPUT_RESIZED,   /* the window changed size (the monitor was remade) */
    PATTERN_PAD_INPUT_EXPOSED,   /* the window needs its frame again */
    PATTERN_PAD_INPUT_TAB,       /* Tab: the other way in (the account password instead of the pattern) */
};
/* The drawing window's next event (the kinds above); NONE when none waits.
 * Never blocks. */
int pattern_pad_window_input(int32_t *x, int32_t *y, unsigned char *bytes, size_t capacity, size_t *length);

#endif
