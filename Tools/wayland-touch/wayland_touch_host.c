/* The Wayland tests' touch screen. wlroots has no virtual-touch protocol and this machine's kernel no uinput, so
 * a touch reaches a real compositor another way: this is a minimal Wayland compositor that a nested sway
 * (WLR_BACKENDS=wayland) runs in as its window, and whose seat has a touch screen. wlroots' wayland backend makes
 * that a touch device of sway's seat, so a finger put down here reaches the locker's wl_touch through sway's
 * own touch handling.
 *
 *   wayland-touch-host NAME     serves $XDG_RUNTIME_DIR/NAME; then reads lines on stdin:
 *   down X Y | move X Y | up    a finger at X Y of the nested output's pixels (one finger, id 0)
 *   sleep MS                    a pause between lines
 *   sync                        prints "ok" once every line before it was sent, sway's window is up and its
 *                               touch device made
 *
 * Only what the wayland backend asks for: wl_compositor, wl_shm, xdg_wm_base and a touch-only wl_seat. Its
 * requests are taken by one dispatcher per interface, most ignored (nothing is drawn: a buffer is released
 * when attached). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server.h>

extern const struct wl_interface xdg_wm_base_interface, xdg_positioner_interface, xdg_surface_interface,
    xdg_toplevel_interface, xdg_popup_interface;

static struct wl_display *display;
static struct wl_resource *toplevel_surface;  /* the wl_surface of sway's window: where a touch lands */
static struct wl_list touches;                /* the wl_touch resources */
static struct wl_list seats;                  /* the wl_seat resources */
static int offered_again;
static int configured;
static int pending_sync;

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void unlink_resource(struct wl_resource *resource) { wl_list_remove(wl_resource_get_link(resource)); }

static int ignore(const void *impl, void *target, uint32_t opcode, const struct wl_message *m,
                  union wl_argument *args) {
    (void)impl, (void)args, (void)opcode;
    /* Every interface's destructor is called "destroy" or "release". */
    if (strcmp(m->name, "destroy") == 0 || strcmp(m->name, "release") == 0) wl_resource_destroy(target);
    return 0;
}

static struct wl_resource *made(struct wl_resource *parent, const struct wl_interface *interface, uint32_t id,
                                wl_dispatcher_func_t dispatcher) {
    struct wl_resource *r = wl_resource_create(wl_resource_get_client(parent), interface,
                                               wl_resource_get_version(parent), id);
    if (r == NULL) {
        wl_client_post_no_memory(wl_resource_get_client(parent));
        return NULL;
    }
    wl_resource_set_dispatcher(r, dispatcher, NULL, NULL, NULL);
    return r;
}

/* wl_surface: attach (released at once), frame (done at the next commit), commit. */
static struct wl_resource *frames[64];
static int frame_count;

static int surface_request(const void *impl, void *target, uint32_t opcode, const struct wl_message *m,
                           union wl_argument *args) {
    struct wl_resource *surface = target;
    if (opcode == 0) {
        if (surface == toplevel_surface) toplevel_surface = NULL;
        wl_resource_destroy(surface);
    } else if (opcode == 1 && args[0].o != NULL) {
        wl_buffer_send_release((struct wl_resource *)args[0].o);
    } else if (opcode == 3) {
        struct wl_resource *cb = wl_resource_create(wl_resource_get_client(surface), &wl_callback_interface, 1,
                                                    args[0].n);
        if (cb != NULL && frame_count < 64) frames[frame_count++] = cb;
        else if (cb != NULL) wl_resource_destroy(cb);
    } else if (opcode == 6) {
        for (int i = 0; i < frame_count; i++) {
            wl_callback_send_done(frames[i], now_ms());
            wl_resource_destroy(frames[i]);
        }
        frame_count = 0;
    }
    (void)impl, (void)m;
    return 0;
}

static int compositor_request(const void *impl, void *target, uint32_t opcode, const struct wl_message *m,
                              union wl_argument *args) {
    (void)impl, (void)m;
    if (opcode == 0) made(target, &wl_surface_interface, args[0].n, surface_request);
    else if (opcode == 1) made(target, &wl_region_interface, args[0].n, ignore);
    return 0;
}

/* xdg_surface: get_toplevel configures it at once (0x0: sway's own output size) */
static int xdg_surface_request(const void *impl, void *target, uint32_t opcode, const struct wl_message *m,
                               union wl_argument *args) {
    struct wl_resource *xdg_surface = target;
    if (opcode == 1) {
        struct wl_resource *toplevel = made(xdg_surface, &xdg_toplevel_interface, args[0].n, ignore);
        if (toplevel == NULL) return 0;
        toplevel_surface = wl_resource_get_user_data(xdg_surface);
        struct wl_array states;
        wl_array_init(&states);
        wl_resource_post_event(toplevel, 0, 0, 0, &states); /* xdg_toplevel.configure */
        wl_array_release(&states);
        wl_resource_post_event(xdg_surface, 0, wl_display_next_serial(display)); /* xdg_surface.configure */
        configured = 1;
    } else if (opcode == 2) {
        made(xdg_surface, &xdg_popup_interface, args[0].n, ignore); /* never shown */
    } else {
        ignore(impl, target, opcode, m, args);
    }
    return 0;
}

static int wm_base_request(const void *impl, void *target, uint32_t opcode, const struct wl_message *m,
                           union wl_argument *args) {
    if (opcode == 1) made(target, &xdg_positioner_interface, args[0].n, ignore);
    else if (opcode == 2) {
        struct wl_resource *r = made(target, &xdg_surface_interface, args[0].n, xdg_surface_request);
        if (r != NULL) wl_resource_set_user_data(r, args[1].o);
    } else ignore(impl, target, opcode, m, args);
    return 0;
}

static int seat_request(const void *impl, void *target, uint32_t opcode, const struct wl_message *m,
                        union wl_argument *args) {
    if (opcode == 2) {
        struct wl_resource *touch = wl_resource_create(wl_resource_get_client(target), &wl_touch_interface,
                                                       wl_resource_get_version(target), args[0].n);
        if (touch == NULL) return 0;
        wl_resource_set_dispatcher(touch, ignore, NULL, NULL, unlink_resource);
        wl_list_insert(&touches, wl_resource_get_link(touch));
    } else if (opcode == 0) {
        made(target, &wl_pointer_interface, args[0].n, ignore);
    } else if (opcode == 1) {
        made(target, &wl_keyboard_interface, args[0].n, ignore);
    } else {
        ignore(impl, target, opcode, m, args);
    }
    return 0;
}

static void bind_any(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    const struct wl_interface *interface = data;
    struct wl_resource *r = wl_resource_create(client, interface, (int)version, id);
    if (r == NULL) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_dispatcher_func_t dispatcher = interface == &wl_compositor_interface ? compositor_request
                                      : interface == &wl_seat_interface    ? seat_request
                                                                           : wm_base_request;
    wl_resource_set_dispatcher(r, dispatcher, NULL, NULL, interface == &wl_seat_interface ? unlink_resource : NULL);
    if (interface == &wl_seat_interface) {
        wl_list_insert(&seats, wl_resource_get_link(r));
        wl_seat_send_capabilities(r, WL_SEAT_CAPABILITY_TOUCH);
        if (version >= 2) wl_seat_send_name(r, "touch");
    }
}

/* ---- the finger, from stdin ---------------------------------------------------- */

static char line[256];
static size_t line_length;

static void touch_event(const char *what, int x, int y) {
    struct wl_resource *touch;
    uint32_t serial = wl_display_next_serial(display), time = now_ms();
    wl_resource_for_each(touch, &touches) {
        if (toplevel_surface == NULL || wl_resource_get_client(touch) != wl_resource_get_client(toplevel_surface))
            continue;
        if (strcmp(what, "down") == 0)
            wl_touch_send_down(touch, serial, time, toplevel_surface, 0, wl_fixed_from_int(x), wl_fixed_from_int(y));
        else if (strcmp(what, "move") == 0)
            wl_touch_send_motion(touch, time, 0, wl_fixed_from_int(x), wl_fixed_from_int(y));
        else
            wl_touch_send_up(touch, serial, time, 0);
        wl_touch_send_frame(touch);
    }
    wl_display_flush_clients(display);
}

static void take_line(const char *text) {
    char what[16];
    int x = 0, y = 0;
    if (sscanf(text, "%15s %d %d", what, &x, &y) < 1) return;
    if (strcmp(what, "sync") == 0) {
        pending_sync = 1;
    } else if (strcmp(what, "sleep") == 0) {
        wl_display_flush_clients(display);
        usleep((useconds_t)x * 1000);
    } else if (strcmp(what, "down") == 0 || strcmp(what, "move") == 0 || strcmp(what, "up") == 0) {
        touch_event(what, x, y);
    }
}

static int stdin_readable(int fd, uint32_t mask, void *data) {
    (void)data;
    if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
        wl_display_terminate(display);
        return 0;
    }
    char c;
    ssize_t n;
    while ((n = read(fd, &c, 1)) == 1) {
        if (c == '\n') {
            line[line_length] = 0;
            take_line(line);
            line_length = 0;
        } else if (line_length + 1 < sizeof line) {
            line[line_length++] = c;
        }
    }
    if (n == 0) wl_display_terminate(display);
    return 0;
}

static struct wl_event_source *timer;

static int tick(void *data) {
    (void)data;
    if (pending_sync && configured && !offered_again) {
        /* wlroots' wayland backend makes its touch device only when the seat offers touch after the backend
         * started: the touch screen is taken away and offered again once sway's window is up. */
        struct wl_resource *seat;
        wl_resource_for_each(seat, &seats) {
            wl_seat_send_capabilities(seat, 0);
            wl_seat_send_capabilities(seat, WL_SEAT_CAPABILITY_TOUCH);
        }
        offered_again = 1;
    } else if (pending_sync && offered_again && !wl_list_empty(&touches)) {
        pending_sync = 0;
        printf("ok\n");
        fflush(stdout);
    }
    wl_event_source_timer_update(timer, 20);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: wayland-touch-host SOCKET_NAME\n");
        return 2;
    }
    wl_list_init(&touches);
    wl_list_init(&seats);
    display = wl_display_create();
    if (display == NULL || wl_display_add_socket(display, argv[1]) != 0) {
        fprintf(stderr, "wayland-touch-host: cannot serve %s\n", argv[1]);
        return 1;
    }
    wl_display_init_shm(display);
    wl_global_create(display, &wl_compositor_interface, 4, (void *)&wl_compositor_interface, bind_any);
    wl_global_create(display, &xdg_wm_base_interface, 1, (void *)&xdg_wm_base_interface, bind_any);
    wl_global_create(display, &wl_seat_interface, 5, (void *)&wl_seat_interface, bind_any);
    struct wl_event_loop *loop = wl_display_get_event_loop(display);
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    wl_event_loop_add_fd(loop, 0, WL_EVENT_READABLE, stdin_readable, NULL);
    timer = wl_event_loop_add_timer(loop, tick, NULL);
    wl_event_source_timer_update(timer, 20);
    wl_display_run(display);
    wl_display_destroy(display);
    return 0;
}
