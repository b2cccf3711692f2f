/*
 * pam-pattern-greeter's entry point (man/pam-pattern-greeter.8): a LightDM greeter that draws. LightDM starts
 * it as user lightdm on the login screen's X server (and on a lock's); the daemon runs PAM and starts the
 * session, the greeter only relays. This file is the only code that links liblightdm-gobject and GLib: it
 * connects to the daemon, turns the daemon's signals into events queued for the Swift loop
 * (PatternPad, GreeterMain.swift), and fills the table of calls that loop makes (pattern_greeter.h). The
 * process is made non-dumpable and its secret page locked before anything is read.
 */
#include <poll.h>
#include <string.h>

#include <glib.h>
#include <lightdm.h>
#include "pattern_greeter.h"
#include "pattern_pad.h"

int pattern_greeter_loop(const struct pattern_greeter_daemon *daemon);

static LightDMGreeter *greeter;

/* ---- the daemon's signals, queued ------------------------------------------ */

#define QUEUE_LENGTH 32
static struct {
    int kind;
    char *text;
} queue[QUEUE_LENGTH];
static int queue_head, queue_count;

static void push(int kind, const char *text) {
    if (queue_count == QUEUE_LENGTH) {
        /* Never expected (the loop drains it at every turn); the oldest goes, the newest (a prompt) stays. */
        g_free(queue[queue_head].text);
        queue_head = (queue_head + 1) % QUEUE_LENGTH;
        queue_count--;
    }
    int at = (queue_head + queue_count) % QUEUE_LENGTH;
    queue[at].kind = kind;
    queue[at].text = g_strdup(text ? text : "");
    queue_count++;
}

static void on_prompt(LightDMGreeter *g, const gchar *text, LightDMPromptType type, gpointer data) {
    (void)g, (void)data;
    push(type == LIGHTDM_PROMPT_TYPE_SECRET ? PATTERN_GREETER_EVENT_PROMPT_SECRET : PATTERN_GREETER_EVENT_PROMPT_TEXT,
         text);
}

static void on_message(LightDMGreeter *g, const gchar *text, LightDMMessageType type, gpointer data) {
    (void)g, (void)data;
    push(type == LIGHTDM_MESSAGE_TYPE_ERROR ? PATTERN_GREETER_EVENT_MESSAGE_ERROR : PATTERN_GREETER_EVENT_MESSAGE_INFO,
         text);
}

static void on_complete(LightDMGreeter *g, gpointer data) {
    (void)data;
    push(lightdm_greeter_get_is_authenticated(g) ? PATTERN_GREETER_EVENT_AUTHENTICATED : PATTERN_GREETER_EVENT_REFUSED,
         "");
}

static int next_event(unsigned char *bytes, size_t capacity, size_t *length) {
    *length = 0;
    if (queue_count == 0) return PATTERN_GREETER_EVENT_NONE;
    int kind = queue[queue_head].kind;
    char *text = queue[queue_head].text;
    size_t n = strlen(text);
    if (n > capacity) n = capacity;
    memcpy(bytes, text, n);
    *length = n;
    g_free(text);
    queue_head = (queue_head + 1) % QUEUE_LENGTH;
    queue_count--;
    return kind;
}

/* ---- one turn of the main loop, the X connection polled with GLib's own fds ---- */

static void wait_once(int x_fd, int timeout_ms) {
    GMainContext *context = g_main_context_default();
    gint priority = 0;
    g_main_context_prepare(context, &priority);
    GPollFD fds[64];
    gint glib_timeout = -1;
    gint n = g_main_context_query(context, priority, &glib_timeout, fds, 63);
    if (n > 63) n = 63; /* more sources than that would be polled at the next turn */
    gint count = n;
    if (x_fd >= 0) fds[count++] = (GPollFD){.fd = x_fd, .events = G_IO_IN};
    int timeout = timeout_ms;
    if (glib_timeout >= 0 && glib_timeout < timeout) timeout = glib_timeout;
    g_poll(fds, (guint)count, timeout);
    g_main_context_check(context, priority, fds, n);
    g_main_context_dispatch(context);
}

/* ---- the table ---------------------------------------------------------- */

static int authenticate(const char *user) { return lightdm_greeter_authenticate(greeter, user, NULL) ? 0 : -1; }
static int respond(const char *answer) { return lightdm_greeter_respond(greeter, answer, NULL) ? 0 : -1; }
static int cancel_authentication(void) { return lightdm_greeter_cancel_authentication(greeter, NULL) ? 0 : -1; }

static int start_session(const char *key) {
    GError *error = NULL;
    if (lightdm_greeter_start_session_sync(greeter, key, &error)) return 0;
    if (error) {
        pattern_pad_log(error->message);
        g_error_free(error);
    }
    return -1;
}

static int lock_hint(void) { return lightdm_greeter_get_lock_hint(greeter) ? 1 : 0; }
static const char *select_user_hint(void) { return lightdm_greeter_get_select_user_hint(greeter); }
static int hide_users_hint(void) { return lightdm_greeter_get_hide_users_hint(greeter) ? 1 : 0; }

static LightDMUser *user_at(int index) {
    GList *users = lightdm_user_list_get_users(lightdm_user_list_get_instance());
    return index < 0 ? NULL : g_list_nth_data(users, (guint)index);
}

static int user_count(void) { return lightdm_user_list_get_length(lightdm_user_list_get_instance()); }

static const char *user_login(int index) {
    LightDMUser *user = user_at(index);
    return user ? lightdm_user_get_name(user) : NULL;
}

static const char *user_display_name(int index) {
    LightDMUser *user = user_at(index);
    return user ? lightdm_user_get_display_name(user) : NULL;
}

static int user_logged_in(int index) {
    LightDMUser *user = user_at(index);
    return user && lightdm_user_get_logged_in(user) ? 1 : 0;
}

static const char *user_session(int index) {
    LightDMUser *user = user_at(index);
    return user ? lightdm_user_get_session(user) : NULL;
}

static LightDMSession *session_at(int index) {
    return index < 0 ? NULL : g_list_nth_data(lightdm_get_sessions(), (guint)index);
}

static int session_count(void) { return (int)g_list_length(lightdm_get_sessions()); }

static const char *session_key(int index) {
    LightDMSession *session = session_at(index);
    return session ? lightdm_session_get_key(session) : NULL;
}

static const char *session_name(int index) {
    LightDMSession *session = session_at(index);
    return session ? lightdm_session_get_name(session) : NULL;
}

static const char *default_session(void) { return lightdm_greeter_get_default_session_hint(greeter); }
static const char *hostname(void) { return lightdm_get_hostname(); }

static const char *layout(void) {
    LightDMLayout *current = lightdm_get_layout();
    const char *name = current ? lightdm_layout_get_short_description(current) : NULL;
    if (name == NULL || name[0] == 0) name = current ? lightdm_layout_get_name(current) : NULL;
    return name ? name : "";
}

static int can_power(int which) {
    switch (which) {
    case PATTERN_GREETER_SHUT_DOWN: return lightdm_get_can_shutdown();
    case PATTERN_GREETER_RESTART: return lightdm_get_can_restart();
    case PATTERN_GREETER_SUSPEND: return lightdm_get_can_suspend();
    default: return 0;
    }
}

static int power(int which) {
    GError *error = NULL;
    gboolean done = FALSE;
    switch (which) {
    case PATTERN_GREETER_SHUT_DOWN: done = lightdm_shutdown(&error); break;
    case PATTERN_GREETER_RESTART: done = lightdm_restart(&error); break;
    case PATTERN_GREETER_SUSPEND: done = lightdm_suspend(&error); break;
    default: break;
    }
    if (error) {
        pattern_pad_log(error->message);
        g_error_free(error);
    }
    return done ? 0 : -1;
}

int main(void) {
    if (pattern_pad_prepare() != 0) {
        pattern_pad_log("cannot make the process non-dumpable; refusing to take a secret");
        return 1;
    }
    greeter = lightdm_greeter_new();
    g_signal_connect(greeter, "show-prompt", G_CALLBACK(on_prompt), NULL);
    g_signal_connect(greeter, "show-message", G_CALLBACK(on_message), NULL);
    g_signal_connect(greeter, "authentication-complete", G_CALLBACK(on_complete), NULL);
    GError *error = NULL;
    if (!lightdm_greeter_connect_to_daemon_sync(greeter, &error)) {
        pattern_pad_log(error ? error->message : "cannot connect to the LightDM daemon");
        if (error) g_error_free(error);
        return 1;
    }
    static const struct pattern_greeter_daemon daemon = {
        .wait = wait_once,
        .next_event = next_event,
        .authenticate = authenticate,
        .respond = respond,
        .cancel_authentication = cancel_authentication,
        .start_session = start_session,
        .lock_hint = lock_hint,
        .select_user_hint = select_user_hint,
        .hide_users_hint = hide_users_hint,
        .user_count = user_count,
        .user_login = user_login,
        .user_display_name = user_display_name,
        .user_logged_in = user_logged_in,
        .user_session = user_session,
        .session_count = session_count,
        .session_key = session_key,
        .session_name = session_name,
        .default_session = default_session,
        .hostname = hostname,
        .layout = layout,
        .can_power = can_power,
        .power = power,
    };
    return pattern_greeter_loop(&daemon);
}
