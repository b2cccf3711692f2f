/*
 * pattern-lock's Wayland side (pattern_lock.h): the lock, one surface per
 * output drawn with cairo into wl_shm buffers, and the seat's pointer,
 * touch and keyboard turned into one queue of input events.
 *
 * Two ways to lock, the best one offered:
 * - ext-session-lock-v1 (sway 1.8+, Debian 13): the compositor shows only
 *   our lock surfaces and keeps the session locked until we unlock it; a
 *   locker that dies leaves it locked.
 * - wlr-layer-shell + wlr-input-inhibitor (sway 1.7, Debian 12), as
 *   swaylock 1.7 did: overlay surfaces over every output and all input to
 *   this client. The compositor ends the lock when this client goes.
 */
#define _GNU_SOURCE
#include "pattern_lock.h"
#include "pattern_pad.h"

#include "protocol/ext-session-lock-v1-client-protocol.h"
#include "protocol/wlr-input-inhibitor-unstable-v1-client-protocol.h"
#include "protocol/wlr-layer-shell-unstable-v1-client-protocol.h"

#include <cairo.h>
#include <errno.h>
#include <linux/input-event-codes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

#define MAX_OUTPUTS 16
#define BUFFERS 3

struct buffer {
    struct wl_buffer *wl;
    void *data;
    size_t size;
    int32_t width, height;
    int busy;
};

struct output {
    int used;
    uint32_t name; /* the registry's */
    struct wl_output *wl;
    int32_t scale;
    struct wl_surface *surface;
    struct zwlr_layer_surface_v1 *layer;
    struct ext_session_lock_surface_v1 *lock_surface;
    int32_t width, height; /* logical, from configure; 0 until then */
    struct buffer buffers[BUFFERS];
    int missed; /* a frame was skipped: no buffer was free */
};

static struct wl_display *display;
static struct wl_registry *registry;
static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct wl_seat *seat;
static struct wl_pointer *pointer;
static struct wl_keyboard *keyboard;
static struct wl_touch *touch;
static struct zwlr_layer_shell_v1 *layer_shell;
static struct zwlr_input_inhibit_manager_v1 *inhibit_manager;
static struct zwlr_input_inhibitor_v1 *inhibitor;
static struct ext_session_lock_manager_v1 *lock_manager;
static struct ext_session_lock_v1 *session_lock;
static int lock_kind;
static int session_locked, session_finished;
static struct output outputs[MAX_OUTPUTS];
static int layout_changed, needs_frame;

static struct xkb_context *xkb;
static struct xkb_keymap *keymap;
static struct xkb_state *xkb_state;

/* ---- the input queue ------------------------------------------------------ */

struct event {
    int kind;
    int32_t monitor, x, y;
    unsigned char bytes[16];
    size_t length;
};
#define QUEUE 512
static struct event queue[QUEUE];
static size_t queue_head, queue_count;

static void push(int kind, int32_t monitor, int32_t x, int32_t y, const char *text, size_t length) {
    if (queue_count == QUEUE) {
        /* Full (the loop is far behind): a motion may go, never a press, a release or a key. */
        if (kind == PATTERN_PAD_INPUT_MOTION) return;
        struct event *oldest = &queue[queue_head];
        explicit_bzero(oldest, sizeof *oldest);
        queue_head = (queue_head + 1) % QUEUE;
        queue_count--;
    }
    struct event *e = &queue[(queue_head + queue_count) % QUEUE];
    e->kind = kind;
    e->monitor = monitor;
    e->x = x;
    e->y = y;
    e->length = 0;
    if (text != NULL && length <= sizeof e->bytes) {
        memcpy(e->bytes, text, length);
        e->length = length;
    }
    queue_count++;
}

int pattern_lock_input(int32_t *monitor, int32_t *x, int32_t *y, unsigned char *bytes, size_t capacity,
                       size_t *length) {
    *length = 0;
    if (queue_count == 0) return PATTERN_PAD_INPUT_NONE;
    struct event *e = &queue[queue_head];
    int kind = e->kind;
    *monitor = e->monitor;
    *x = e->x;
    *y = e->y;
    if (e->length <= capacity) {
        memcpy(bytes, e->bytes, e->length);
        *length = e->length;
    }
    explicit_bzero(e, sizeof *e);
    queue_head = (queue_head + 1) % QUEUE;
    queue_count--;
    return kind;
}

static int output_of_surface(struct wl_surface *surface) {
    if (surface == NULL) return -1;
    for (int i = 0; i < MAX_OUTPUTS; i++)
        if (outputs[i].used && outputs[i].surface == surface) return i;
    return -1;
}

static int32_t scaled(int i, wl_fixed_t v) { return (int32_t)(wl_fixed_to_double(v) * outputs[i].scale); }

/* ---- pointer and touch ----------------------------------------------------- */

static int pointer_output = -1;
static int32_t pointer_x, pointer_y;

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface,
                          wl_fixed_t x, wl_fixed_t y) {
    (void)data;
    /* The screen draws its own pointer (where a press would start), as the pad at xsecurelock does. */
    wl_pointer_set_cursor(p, serial, NULL, 0, 0);
    pointer_output = output_of_surface(surface);
    if (pointer_output < 0) return;
    pointer_x = scaled(pointer_output, x);
    pointer_y = scaled(pointer_output, y);
    push(PATTERN_PAD_INPUT_MOTION, pointer_output, pointer_x, pointer_y, NULL, 0);
}

static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface) {
    (void)data, (void)p, (void)serial, (void)surface;
}

static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    (void)data, (void)p, (void)time;
    if (pointer_output < 0) return;
    pointer_x = scaled(pointer_output, x);
    pointer_y = scaled(pointer_output, y);
    push(PATTERN_PAD_INPUT_MOTION, pointer_output, pointer_x, pointer_y, NULL, 0);
}

static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    (void)data, (void)p, (void)serial, (void)time;
    if (button != BTN_LEFT || pointer_output < 0) return;
    push(state == WL_POINTER_BUTTON_STATE_PRESSED ? PATTERN_PAD_INPUT_PRESS : PATTERN_PAD_INPUT_RELEASE,
         pointer_output, pointer_x, pointer_y, NULL, 0);
}

static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {
    (void)data, (void)p, (void)time, (void)axis, (void)value;
}

static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter, .leave = pointer_leave, .motion = pointer_motion,
    .button = pointer_button, .axis = pointer_axis,
};

/* One finger draws: the first one down, until it is lifted. */
static int touch_active;
static int32_t touch_id, touch_output;

static void touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, struct wl_surface *surface,
                       int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data, (void)t, (void)serial, (void)time;
    if (touch_active) return;
    int i = output_of_surface(surface);
    if (i < 0) return;
    touch_active = 1;
    touch_id = id;
    touch_output = i;
    push(PATTERN_PAD_INPUT_MOTION, i, scaled(i, x), scaled(i, y), NULL, 0);
    push(PATTERN_PAD_INPUT_PRESS, i, scaled(i, x), scaled(i, y), NULL, 0);
}

static void touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id) {
    (void)data, (void)t, (void)serial, (void)time;
    if (!touch_active || id != touch_id) return;
    touch_active = 0;
    push(PATTERN_PAD_INPUT_RELEASE, touch_output, -1, -1, NULL, 0);
}

static void touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data, (void)t, (void)time;
    if (!touch_active || id != touch_id) return;
    push(PATTERN_PAD_INPUT_MOTION, touch_output, scaled(touch_output, x), scaled(touch_output, y), NULL, 0);
}

static void touch_frame(void *data, struct wl_touch *t) { (void)data, (void)t; }

/* The compositor took the touch (a gesture): the drawing ends there, as a lifted finger. */
static void touch_cancel(void *data, struct wl_touch *t) {
    (void)data, (void)t;
    if (!touch_active) return;
    touch_active = 0;
    push(PATTERN_PAD_INPUT_RELEASE, touch_output, -1, -1, NULL, 0);
}

static const struct wl_touch_listener touch_listener = {
    .down = touch_down, .up = touch_up, .motion = touch_motion, .frame = touch_frame, .cancel = touch_cancel,
};

/* ---- keyboard ---------------------------------------------------------------- */

static void keyboard_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size) {
    (void)data, (void)k;
    if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1) {
        close(fd);
        return;
    }
    char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return;
    struct xkb_keymap *next = xkb_keymap_new_from_string(xkb, map, XKB_KEYMAP_FORMAT_TEXT_V1,
                                                          XKB_KEYMAP_COMPILE_NO_FLAGS);
    munmap(map, size);
    if (next == NULL) return;
    xkb_state_unref(xkb_state);
    xkb_keymap_unref(keymap);
    keymap = next;
    xkb_state = xkb_state_new(keymap);
}

static void keyboard_enter(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *surface,
                           struct wl_array *keys) {
    (void)data, (void)k, (void)serial, (void)surface, (void)keys;
}

static void keyboard_leave(void *data, struct wl_keyboard *k, uint32_t serial, struct wl_surface *surface) {
    (void)data, (void)k, (void)serial, (void)surface;
}

static void keyboard_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key,
                         uint32_t state) {
    (void)data, (void)k, (void)serial, (void)time;
    if (xkb_state == NULL || state != WL_KEYBOARD_KEY_STATE_PRESSED) return;
    xkb_keycode_t code = key + 8;
    xkb_keysym_t sym = xkb_state_key_get_one_sym(xkb_state, code);
    int control = xkb_state_mod_name_is_active(xkb_state, XKB_MOD_NAME_CTRL, XKB_STATE_MODS_EFFECTIVE) > 0;
    switch (sym) {
    case XKB_KEY_Escape: push(PATTERN_PAD_INPUT_ESCAPE, -1, 0, 0, NULL, 0); return;
    case XKB_KEY_Return:
    case XKB_KEY_KP_Enter: push(PATTERN_PAD_INPUT_ENTER, -1, 0, 0, NULL, 0); return;
    case XKB_KEY_BackSpace: push(PATTERN_PAD_INPUT_BACKSPACE, -1, 0, 0, NULL, 0); return;
    default: break;
    }
    if (control && (sym == XKB_KEY_u || sym == XKB_KEY_U)) {
        push(PATTERN_PAD_INPUT_CLEAR, -1, 0, 0, NULL, 0);
        return;
    }
    char text[16];
    int n = xkb_state_key_get_utf8(xkb_state, code, text, sizeof text);
    if (n > 0 && (size_t)n < sizeof text && (unsigned char)text[0] >= 0x20 && text[0] != 0x7f)
        push(PATTERN_PAD_INPUT_TEXT, -1, 0, 0, text, (size_t)n);
    explicit_bzero(text, sizeof text);
}

static void keyboard_modifiers(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t depressed,
                               uint32_t latched, uint32_t locked, uint32_t group) {
    (void)data, (void)k, (void)serial;
    if (xkb_state != NULL) xkb_state_update_mask(xkb_state, depressed, latched, locked, 0, 0, group);
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay) {
    (void)data, (void)k, (void)rate, (void)delay;
}

static const struct wl_keyboard_listener keyboard_listener = {
    .keymap = keyboard_keymap, .enter = keyboard_enter, .leave = keyboard_leave,
    .key = keyboard_key, .modifiers = keyboard_modifiers, .repeat_info = keyboard_repeat_info,
};

/* ---- the seat: devices come and go (a virtual pointer's end drops the capability) ---- */

static void seat_capabilities(void *data, struct wl_seat *s, uint32_t caps) {
    (void)data;
    if ((caps & WL_SEAT_CAPABILITY_POINTER) && pointer == NULL) {
        pointer = wl_seat_get_pointer(s);
        wl_pointer_add_listener(pointer, &pointer_listener, NULL);
    } else if (!(caps & WL_SEAT_CAPABILITY_POINTER) && pointer != NULL) {
        wl_pointer_release(pointer);
        pointer = NULL;
        pointer_output = -1;
    }
    if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && keyboard == NULL) {
        keyboard = wl_seat_get_keyboard(s);
        wl_keyboard_add_listener(keyboard, &keyboard_listener, NULL);
    } else if (!(caps & WL_SEAT_CAPABILITY_KEYBOARD) && keyboard != NULL) {
        wl_keyboard_release(keyboard);
        keyboard = NULL;
    }
    if ((caps & WL_SEAT_CAPABILITY_TOUCH) && touch == NULL) {
        touch = wl_seat_get_touch(s);
        wl_touch_add_listener(touch, &touch_listener, NULL);
    } else if (!(caps & WL_SEAT_CAPABILITY_TOUCH) && touch != NULL) {
        wl_touch_release(touch);
        touch = NULL;
        touch_cancel(NULL, NULL);
    }
}

static void seat_name(void *data, struct wl_seat *s, const char *name) { (void)data, (void)s, (void)name; }

static const struct wl_seat_listener seat_listener = {.capabilities = seat_capabilities, .name = seat_name};

/* ---- outputs and their lock surfaces ------------------------------------------ */

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t pw, int32_t ph,
                            int32_t subpixel, const char *make, const char *model, int32_t transform) {
    (void)data, (void)o, (void)x, (void)y, (void)pw, (void)ph, (void)subpixel, (void)make, (void)model,
        (void)transform;
}

static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t refresh) {
    (void)data, (void)o, (void)flags, (void)w, (void)h, (void)refresh;
}

static void output_done(void *data, struct wl_output *o) { (void)data, (void)o; }

static void output_scale(void *data, struct wl_output *o, int32_t factor) {
    (void)o;
    struct output *out = data;
    if (factor < 1 || factor > 8 || factor == out->scale) return;
    out->scale = factor;
    layout_changed = 1;
    needs_frame = 1;
}

static const struct wl_output_listener output_listener = {
    .geometry = output_geometry, .mode = output_mode, .done = output_done, .scale = output_scale,
};

static void configured(struct output *out, int32_t width, int32_t height) {
    if (width != out->width || height != out->height) layout_changed = 1;
    out->width = width;
    out->height = height;
    needs_frame = 1;
}

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *layer, uint32_t serial, uint32_t w,
                            uint32_t h) {
    zwlr_layer_surface_v1_ack_configure(layer, serial);
    configured(data, (int32_t)w, (int32_t)h);
}

static void layer_closed(void *data, struct zwlr_layer_surface_v1 *layer) {
    (void)layer;
    struct output *out = data;
    out->width = 0;
    layout_changed = 1;
}

static const struct zwlr_layer_surface_v1_listener layer_listener = {
    .configure = layer_configure, .closed = layer_closed,
};

static void lock_surface_configure(void *data, struct ext_session_lock_surface_v1 *s, uint32_t serial,
                                   uint32_t w, uint32_t h) {
    ext_session_lock_surface_v1_ack_configure(s, serial);
    configured(data, (int32_t)w, (int32_t)h);
}

static const struct ext_session_lock_surface_v1_listener lock_surface_listener = {
    .configure = lock_surface_configure,
};

/* A lock surface for output `out` (once locking began; outputs added later get theirs at once). */
static void cover(struct output *out) {
    if (out->surface != NULL || lock_kind == PATTERN_LOCK_NONE) return;
    out->surface = wl_compositor_create_surface(compositor);
    if (lock_kind == PATTERN_LOCK_SESSION_LOCK) {
        out->lock_surface = ext_session_lock_v1_get_lock_surface(session_lock, out->surface, out->wl);
        ext_session_lock_surface_v1_add_listener(out->lock_surface, &lock_surface_listener, out);
    } else {
        out->layer = zwlr_layer_shell_v1_get_layer_surface(layer_shell, out->surface, out->wl,
                                                           ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY, "lockscreen");
        zwlr_layer_surface_v1_set_size(out->layer, 0, 0);
        zwlr_layer_surface_v1_set_anchor(out->layer, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP |
                                                         ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM |
                                                         ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
                                                         ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
        zwlr_layer_surface_v1_set_exclusive_zone(out->layer, -1);
        zwlr_layer_surface_v1_set_keyboard_interactivity(out->layer, 1);
        zwlr_layer_surface_v1_add_listener(out->layer, &layer_listener, out);
        wl_surface_commit(out->surface);
    }
}

static void release_buffers(struct output *out) {
    for (int b = 0; b < BUFFERS; b++) {
        struct buffer *buf = &out->buffers[b];
        if (buf->wl != NULL) wl_buffer_destroy(buf->wl);
        if (buf->data != NULL) munmap(buf->data, buf->size);
        memset(buf, 0, sizeof *buf);
    }
}

static void uncover(struct output *out) {
    if (out->lock_surface != NULL) ext_session_lock_surface_v1_destroy(out->lock_surface);
    if (out->layer != NULL) zwlr_layer_surface_v1_destroy(out->layer);
    if (out->surface != NULL) wl_surface_destroy(out->surface);
    release_buffers(out);
    out->lock_surface = NULL;
    out->layer = NULL;
    out->surface = NULL;
}

static void add_output(uint32_t name, uint32_t version) {
    for (int i = 0; i < MAX_OUTPUTS; i++) {
        struct output *out = &outputs[i];
        if (out->used) continue;
        memset(out, 0, sizeof *out);
        out->used = 1;
        out->name = name;
        out->scale = 1;
        out->wl = wl_registry_bind(registry, name, &wl_output_interface, version < 2 ? version : 2);
        wl_output_add_listener(out->wl, &output_listener, out);
        cover(out);
        layout_changed = 1;
        return;
    }
}

/* ---- the registry ----------------------------------------------------------- */

static void global(void *data, struct wl_registry *r, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, wl_compositor_interface.name) == 0) {
        compositor = wl_registry_bind(r, name, &wl_compositor_interface, version < 4 ? version : 4);
    } else if (strcmp(interface, wl_shm_interface.name) == 0) {
        shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, wl_seat_interface.name) == 0 && seat == NULL) {
        /* Version 3: release requests, no pointer frames (their listeners are not needed). */
        seat = wl_registry_bind(r, name, &wl_seat_interface, version < 3 ? version : 3);
        wl_seat_add_listener(seat, &seat_listener, NULL);
    } else if (strcmp(interface, wl_output_interface.name) == 0) {
        add_output(name, version);
    } else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0) {
        layer_shell = wl_registry_bind(r, name, &zwlr_layer_shell_v1_interface, 1);
    } else if (strcmp(interface, zwlr_input_inhibit_manager_v1_interface.name) == 0) {
        inhibit_manager = wl_registry_bind(r, name, &zwlr_input_inhibit_manager_v1_interface, 1);
    } else if (strcmp(interface, ext_session_lock_manager_v1_interface.name) == 0) {
        lock_manager = wl_registry_bind(r, name, &ext_session_lock_manager_v1_interface, 1);
    }
}

static void global_remove(void *data, struct wl_registry *r, uint32_t name) {
    (void)data, (void)r;
    for (int i = 0; i < MAX_OUTPUTS; i++) {
        struct output *out = &outputs[i];
        if (!out->used || out->name != name) continue;
        uncover(out);
        wl_output_destroy(out->wl);
        out->used = 0;
        if (pointer_output == i) pointer_output = -1;
        layout_changed = 1;
    }
}

static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

static void lock_locked(void *data, struct ext_session_lock_v1 *l) {
    (void)data, (void)l;
    session_locked = 1;
}

static void lock_finished(void *data, struct ext_session_lock_v1 *l) {
    (void)data, (void)l;
    session_finished = 1;
}

static const struct ext_session_lock_v1_listener lock_listener = {.locked = lock_locked, .finished = lock_finished};

static void say(const char *message) { fprintf(stderr, "pattern-lock: %s\n", message); }

int pattern_lock_open(void) {
    display = wl_display_connect(NULL);
    if (display == NULL) {
        say("cannot connect to the Wayland compositor ($WAYLAND_DISPLAY)");
        return -1;
    }
    xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    if (wl_display_roundtrip(display) < 0 || compositor == NULL || shm == NULL || xkb == NULL) {
        say("the compositor offers no wl_compositor or wl_shm");
        return -1;
    }
    if (lock_manager != NULL) {
        lock_kind = PATTERN_LOCK_SESSION_LOCK;
        session_lock = ext_session_lock_manager_v1_lock(lock_manager);
        ext_session_lock_v1_add_listener(session_lock, &lock_listener, NULL);
        say("locking with ext-session-lock-v1");
    } else if (layer_shell != NULL && inhibit_manager != NULL) {
        lock_kind = PATTERN_LOCK_LAYER_SHELL;
        /* Refused (a protocol error) while another client holds an inhibitor: another locker runs. */
        inhibitor = zwlr_input_inhibit_manager_v1_get_inhibitor(inhibit_manager);
        if (wl_display_roundtrip(display) < 0) {
            say("another lock screen holds the input (wlr-input-inhibitor refused)");
            return -1;
        }
        say("locking with wlr-layer-shell + wlr-input-inhibitor");
    } else {
        say("the compositor offers neither ext-session-lock-v1 nor wlr-layer-shell + wlr-input-inhibitor");
        return -1;
    }
    for (int i = 0; i < MAX_OUTPUTS; i++)
        if (outputs[i].used) cover(&outputs[i]);
    /* Sizes (configure) for every surface, and for ext-session-lock the compositor's "locked". */
    for (int round = 0; round < 50; round++) {
        if (wl_display_roundtrip(display) < 0) {
            say("the compositor closed the connection while locking");
            return -1;
        }
        if (session_finished) {
            say("the compositor refused the lock (another lock screen runs?)");
            return -1;
        }
        int sized = 1;
        for (int i = 0; i < MAX_OUTPUTS; i++)
            if (outputs[i].used && outputs[i].width == 0) sized = 0;
        if (sized) break;
    }
    layout_changed = 1;
    needs_frame = 1;
    return lock_kind;
}

void pattern_lock_unlock(void) {
    if (display == NULL) return;
    if (lock_kind == PATTERN_LOCK_SESSION_LOCK && session_lock != NULL) {
        for (int i = 0; i < MAX_OUTPUTS; i++)
            if (outputs[i].used) uncover(&outputs[i]);
        ext_session_lock_v1_unlock_and_destroy(session_lock);
        session_lock = NULL;
    } else {
        for (int i = 0; i < MAX_OUTPUTS; i++)
            if (outputs[i].used) uncover(&outputs[i]);
        if (inhibitor != NULL) zwlr_input_inhibitor_v1_destroy(inhibitor);
        inhibitor = NULL;
    }
    wl_display_roundtrip(display);
}

void pattern_lock_close(void) {
    if (display == NULL) return;
    wl_display_flush(display);
    wl_display_disconnect(display);
    display = NULL;
}

int pattern_lock_monitor_count(void) {
    int last = -1;
    for (int i = 0; i < MAX_OUTPUTS; i++)
        if (outputs[i].used) last = i;
    return last + 1;
}

void pattern_lock_monitor(int i, int32_t *width, int32_t *height, int32_t *scale) {
    *width = 0;
    *height = 0;
    *scale = 1;
    if (i < 0 || i >= MAX_OUTPUTS || !outputs[i].used || outputs[i].surface == NULL) return;
    *scale = outputs[i].scale;
    *width = outputs[i].width * outputs[i].scale;
    *height = outputs[i].height * outputs[i].scale;
}

int pattern_lock_layout_changed(void) {
    int changed = layout_changed;
    layout_changed = 0;
    return changed;
}

int pattern_lock_needs_frame(void) {
    int needed = needs_frame;
    needs_frame = 0;
    return needed;
}

int pattern_lock_wait(const int *fds, int count, int timeout_ms) {
    if (display == NULL) return -1;
    while (wl_display_prepare_read(display) != 0) {
        if (wl_display_dispatch_pending(display) < 0) return -1;
    }
    if (wl_display_flush(display) < 0 && errno != EAGAIN) {
        wl_display_cancel_read(display);
        return -1;
    }
    struct pollfd p[5];
    int n = 0, map[5];
    for (int i = 0; i < count && i < 4; i++) {
        if (fds[i] < 0) continue;
        p[n].fd = fds[i];
        p[n].events = POLLIN;
        map[n++] = i;
    }
    p[n].fd = wl_display_get_fd(display);
    p[n].events = POLLIN;
    int shown = queue_count > 0 ? 0 : timeout_ms;
    int ready = poll(p, (nfds_t)n + 1, shown);
    if (ready > 0 && (p[n].revents & POLLIN)) {
        if (wl_display_read_events(display) < 0) return -1;
    } else {
        wl_display_cancel_read(display);
    }
    if (ready > 0 && (p[n].revents & (POLLERR | POLLHUP))) return -1;
    if (wl_display_dispatch_pending(display) < 0) return -1;
    int mask = 0;
    for (int i = 0; i < n && ready > 0; i++)
        if (p[i].revents) mask |= 1 << map[i];
    return mask;
}

/* ---- drawing: the painter the renderer's pattern_pad_* calls reach ------------- */

static void buffer_release(void *data, struct wl_buffer *b) {
    (void)b;
    struct buffer *buf = data;
    buf->busy = 0;
    for (int i = 0; i < MAX_OUTPUTS; i++)
        if (outputs[i].used && outputs[i].missed) {
            outputs[i].missed = 0;
            needs_frame = 1;
        }
}

static const struct wl_buffer_listener buffer_listener = {.release = buffer_release};

static int make_buffer(struct buffer *buf, int32_t width, int32_t height) {
    int32_t stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width);
    size_t size = (size_t)stride * (size_t)height;
    int fd = memfd_create("pattern-lock", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return -1;
    }
    void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) {
        close(fd);
        return -1;
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
    buf->wl = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    wl_buffer_add_listener(buf->wl, &buffer_listener, buf);
    buf->data = data;
    buf->size = size;
    buf->width = width;
    buf->height = height;
    buf->busy = 0;
    return 0;
}

static int drawing_output = -1;
static struct buffer *drawing_buffer;
static cairo_surface_t *drawing_surface;
static cairo_t *cr;

static void colour_of(uint32_t c) {
    cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

static void lock_frame_begin(int monitor, uint32_t background) {
    cr = NULL;
    drawing_output = -1;
    if (monitor < 0 || monitor >= MAX_OUTPUTS || !outputs[monitor].used) return;
    struct output *out = &outputs[monitor];
    if (out->surface == NULL || out->width <= 0 || out->height <= 0) return;
    int32_t width = out->width * out->scale, height = out->height * out->scale;
    struct buffer *free_one = NULL;
    for (int b = 0; b < BUFFERS && free_one == NULL; b++) {
        struct buffer *buf = &out->buffers[b];
        if (buf->wl != NULL && buf->busy) continue;
        if (buf->wl != NULL && (buf->width != width || buf->height != height)) {
            wl_buffer_destroy(buf->wl);
            munmap(buf->data, buf->size);
            memset(buf, 0, sizeof *buf);
        }
        if (buf->wl == NULL && make_buffer(buf, width, height) != 0) continue;
        free_one = buf;
    }
    if (free_one == NULL) {
        /* Every buffer is still the compositor's: this frame waits for one to come back. */
        out->missed = 1;
        return;
    }
    drawing_output = monitor;
    drawing_buffer = free_one;
    drawing_surface = cairo_image_surface_create_for_data(free_one->data, CAIRO_FORMAT_ARGB32, width, height,
                                                          cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width));
    cr = cairo_create(drawing_surface);
    colour_of(background);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

static void lock_fill_circle(int32_t cx, int32_t cy, int32_t radius, uint32_t colour) {
    if (cr == NULL || radius <= 0) return;
    colour_of(colour);
    cairo_new_path(cr);
    cairo_arc(cr, cx, cy, radius, 0, 2 * 3.14159265358979);
    cairo_fill(cr);
}

static void lock_ring(int32_t cx, int32_t cy, int32_t radius, int32_t width, uint32_t colour) {
    if (cr == NULL || radius <= 0) return;
    colour_of(colour);
    cairo_set_line_width(cr, width);
    cairo_new_path(cr);
    cairo_arc(cr, cx, cy, radius, 0, 2 * 3.14159265358979);
    cairo_stroke(cr);
}

static void lock_line(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t width, uint32_t colour) {
    if (cr == NULL) return;
    colour_of(colour);
    cairo_set_line_width(cr, width);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_new_path(cr);
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
    cairo_stroke(cr);
}

static void lock_rect(int32_t x, int32_t y, int32_t width, int32_t height, int32_t line_width, uint32_t colour) {
    if (cr == NULL) return;
    colour_of(colour);
    cairo_new_path(cr);
    if (line_width <= 0) {
        cairo_rectangle(cr, x, y, width, height);
        cairo_fill(cr);
    } else {
        cairo_set_line_width(cr, line_width);
        cairo_rectangle(cr, x + line_width / 2.0, y + line_width / 2.0, width - line_width, height - line_width);
        cairo_stroke(cr);
    }
}

/* cairo's text calls want a NUL-terminated string. */
static const char *terminated(const unsigned char *utf8, size_t length, char *room, size_t capacity) {
    if (length >= capacity) length = capacity - 1;
    memcpy(room, utf8, length);
    room[length] = 0;
    return room;
}

static int32_t measure(cairo_t *c, const unsigned char *utf8, size_t length, int32_t pixel_size) {
    char room[1024];
    cairo_set_font_size(c, pixel_size);
    cairo_text_extents_t extents;
    cairo_text_extents(c, terminated(utf8, length, room, sizeof room), &extents);
    return (int32_t)(extents.x_advance + 0.5);
}

static int32_t lock_text(const unsigned char *utf8, size_t length, int32_t cx, int32_t y, int32_t pixel_size,
                         uint32_t colour) {
    if (cr == NULL || length == 0) return 0;
    char room[1024];
    int32_t width = measure(cr, utf8, length, pixel_size);
    colour_of(colour);
    cairo_move_to(cr, cx - width / 2, y);
    cairo_show_text(cr, terminated(utf8, length, room, sizeof room));
    return width;
}

/* Measured on a scratch surface: the renderer wraps text before any frame begins. */
static int32_t lock_text_width(const unsigned char *utf8, size_t length, int32_t pixel_size) {
    if (length == 0) return 0;
    static cairo_surface_t *scratch;
    static cairo_t *measuring;
    if (measuring == NULL) {
        scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
        measuring = cairo_create(scratch);
        cairo_select_font_face(measuring, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    }
    return measure(measuring, utf8, length, pixel_size);
}

/* make bench's pointer-to-frame figure: each frame's commit time (CLOCK_MONOTONIC, us) when PATTERN_LOCK_TRACE_FRAMES=1. */
static void trace_frame(void) {
    static int tracing = -1;
    if (tracing < 0) {
        const char *value = getenv("PATTERN_LOCK_TRACE_FRAMES");
        tracing = value != NULL && strcmp(value, "1") == 0;
    }
    if (!tracing) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(stderr, "pattern-lock: frame %lld\n", (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000);
}

static void lock_frame_end(void) {
    if (cr == NULL || drawing_output < 0) return;
    cairo_destroy(cr);
    cr = NULL;
    cairo_surface_flush(drawing_surface);
    cairo_surface_destroy(drawing_surface);
    drawing_surface = NULL;
    struct output *out = &outputs[drawing_output];
    wl_surface_set_buffer_scale(out->surface, out->scale);
    wl_surface_attach(out->surface, drawing_buffer->wl, 0, 0);
    wl_surface_damage(out->surface, 0, 0, out->width, out->height);
    wl_surface_commit(out->surface);
    drawing_buffer->busy = 1;
    drawing_output = -1;
    wl_display_flush(display);
    trace_frame();
}

static int say_screen = -1;

static void lock_set_caption(const unsigned char *utf8, size_t length) {
    if (say_screen < 0) {
        const char *value = getenv("PATTERN_LOCK_SAY_SCREEN");
        say_screen = value != NULL && strcmp(value, "1") == 0;
    }
    if (!say_screen) return;
    fputs("pattern-lock: screen:", stderr);
    for (size_t i = 0; i < length; i++) fputc(utf8[i] == '\n' ? '|' : utf8[i], stderr);
    fputc('\n', stderr);
}

static const struct pattern_pad_painter cairo_painter = {
    .frame_begin = lock_frame_begin, .fill_circle = lock_fill_circle, .ring = lock_ring, .line = lock_line,
    .rect = lock_rect, .text = lock_text, .text_width = lock_text_width, .frame_end = lock_frame_end,
    .set_caption = lock_set_caption,
};

/* Before any Swift code draws (pattern_lock_main.c). */
void pattern_lock_use_cairo(void) { pattern_pad_set_painter(&cairo_painter); }
