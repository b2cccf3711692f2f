/*
 * pattern_greeter.h - what the LightDM greeter's Swift (Sources/Surfaces/lightdm/ui) asks of the daemon: a table
 * of calls that its C main (lightdm/main/main.c, the only code that links liblightdm-gobject and GLib) fills.
 * Through a table, so that the pad's Swift module, which auth_pattern and pattern-draw link too, names no
 * liblightdm symbol. Strings are UTF-8, NUL-terminated, owned by the C side (valid until the next call).
 */
#ifndef PATTERN_GREETER_H
#define PATTERN_GREETER_H

#include <stddef.h>

/* What the daemon said (next_event). */
enum {
    PATTERN_GREETER_EVENT_NONE = 0,
    PATTERN_GREETER_EVENT_PROMPT_SECRET, /* PAM's echo-off prompt, its text in bytes */
    PATTERN_GREETER_EVENT_PROMPT_TEXT,   /* an echo-on prompt (a user name) */
    PATTERN_GREETER_EVENT_MESSAGE_INFO,
    PATTERN_GREETER_EVENT_MESSAGE_ERROR,
    PATTERN_GREETER_EVENT_AUTHENTICATED, /* PAM said yes: the session may start */
    PATTERN_GREETER_EVENT_REFUSED,       /* the PAM stack ended without success */
};

enum { PATTERN_GREETER_SHUT_DOWN = 0, PATTERN_GREETER_RESTART, PATTERN_GREETER_SUSPEND };

struct pattern_greeter_daemon {
    /* One turn of GLib's main loop: waits up to timeout_ms for the daemon, any GLib source or the X connection
     * (x_fd; -1 for none, or when Xlib already holds events), then dispatches what came. */
    void (*wait)(int x_fd, int timeout_ms);
    /* The next event of the daemon (the kinds above), its text copied into bytes; NONE when none waits. */
    int (*next_event)(unsigned char *bytes, size_t capacity, size_t *length);
    /* Starts PAM for user (NULL: PAM asks the name). 0, or -1. */
    int (*authenticate)(const char *user);
    /* Answers the waiting prompt with a NUL-terminated secret (the caller's locked page). 0, or -1. */
    int (*respond)(const char *answer);
    int (*cancel_authentication)(void);
    /* Starts the session of the authenticated user (key NULL: the daemon's default). 0, or -1. */
    int (*start_session)(const char *key);
    int (*lock_hint)(void);
    const char *(*select_user_hint)(void);
    /* greeter-hide-users: list nobody, PAM asks the name. */
    int (*hide_users_hint)(void);
    int (*user_count)(void);
    const char *(*user_login)(int index);
    const char *(*user_display_name)(int index);
    int (*user_logged_in)(int index);
    /* The session the user last chose (NULL when none). */
    const char *(*user_session)(int index);
    int (*session_count)(void);
    const char *(*session_key)(int index);
    const char *(*session_name)(int index);
    const char *(*default_session)(void);
    const char *(*hostname)(void);
    /* The keyboard layout's short name ("us"), "" when unknown. */
    const char *(*layout)(void);
    int (*can_power)(int which);
    int (*power)(int which);
};

#endif
