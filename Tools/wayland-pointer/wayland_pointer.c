/*
 * wayland-pointer: the Wayland tests' pointer (Tests/WaylandTests), never
 * installed. A zwlr_virtual_pointer_v1 on the compositor's seat, driven by
 * lines on stdin, so a test drags a pattern on a headless sway:
 *   move X Y     absolute position in the layout (WIDTH x HEIGHT, argv)
 *   down / up    the left button
 *   sleep MS
 *   sync         waits until the compositor has read everything, prints "ok"
 *   mark         prints "mark US" (CLOCK_MONOTONIC, us) at once: make bench times a move from just before
 *                it is sent (taken after the flush, the locker's frame may come before the mark)
 * Each line is sent at once (one pointer frame per move or button).
 */
#include "wlr-virtual-pointer-client-protocol.h"

#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

static struct wl_seat *seat;
static struct zwlr_virtual_pointer_manager_v1 *manager;

static void global(void *data, struct wl_registry *r, uint32_t name, const char *interface, uint32_t version) {
    (void)data, (void)version;
    if (strcmp(interface, wl_seat_interface.name) == 0 && seat == NULL)
        seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
    else if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
        manager = wl_registry_bind(r, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
}

static void global_remove(void *data, struct wl_registry *r, uint32_t name) { (void)data, (void)r, (void)name; }

static const struct wl_registry_listener listener = {.global = global, .global_remove = global_remove};

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: wayland-pointer WIDTH HEIGHT < commands\n");
        return 2;
    }
    uint32_t width = (uint32_t)atoi(argv[1]), height = (uint32_t)atoi(argv[2]);
    struct wl_display *display = wl_display_connect(NULL);
    if (display == NULL) {
        fprintf(stderr, "wayland-pointer: cannot connect\n");
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &listener, NULL);
    wl_display_roundtrip(display);
    if (manager == NULL || seat == NULL) {
        fprintf(stderr, "wayland-pointer: no zwlr_virtual_pointer_manager_v1\n");
        return 1;
    }
    struct zwlr_virtual_pointer_v1 *pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, seat);
    wl_display_roundtrip(display);
    setvbuf(stdout, NULL, _IOLBF, 0);
    char line[128];
    while (fgets(line, sizeof line, stdin) != NULL) {
        int x, y, ms;
        if (sscanf(line, "move %d %d", &x, &y) == 2) {
            zwlr_virtual_pointer_v1_motion_absolute(pointer, now_ms(), (uint32_t)x, (uint32_t)y, width, height);
            zwlr_virtual_pointer_v1_frame(pointer);
        } else if (strncmp(line, "down", 4) == 0 || strncmp(line, "up", 2) == 0) {
            zwlr_virtual_pointer_v1_button(pointer, now_ms(), BTN_LEFT,
                                           line[0] == 'd' ? WL_POINTER_BUTTON_STATE_PRESSED
                                                          : WL_POINTER_BUTTON_STATE_RELEASED);
            zwlr_virtual_pointer_v1_frame(pointer);
        } else if (sscanf(line, "sleep %d", &ms) == 1) {
            wl_display_flush(display);
            struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        } else if (strncmp(line, "mark", 4) == 0) {
            wl_display_flush(display);
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            printf("mark %lld\n", (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
        } else if (strncmp(line, "sync", 4) == 0) {
            wl_display_roundtrip(display);
            puts("ok");
        }
        if (wl_display_flush(display) < 0) return 1;
    }
    zwlr_virtual_pointer_v1_destroy(pointer);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
