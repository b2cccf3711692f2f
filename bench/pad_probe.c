/*
 * make bench's probe for the lock-screen pad (bench/run-bench.sh), on an
 * Xvfb display where auth_pattern runs:
 *   pad_probe latency N X Y   N times: warp the pointer to one of two points
 *                             near (X, Y) and time until the pad's own drawn
 *                             pointer shows there (XGetImage of the root);
 *                             prints the median, the 95th percentile, the
 *                             samples seen and the longest, in us.
 *   pad_probe move SECONDS X Y
 *                             moves the pointer around (X, Y) every 10 ms.
 *   pad_probe window SECONDS 0 0
 *                             makes a screen-sized window (what xsecurelock
 *                             hands its auth module), prints its id, waits.
 * The button is held (xdotool mousedown) by the caller where drawing counts.
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe_time.h"

/* Pixels of the pad's pointer ring (light grey-white) in a 21x21 box around (x, y). */
static int ring_pixels(Display *d, Window root, int x, int y) {
    XImage *image = XGetImage(d, root, x - 10, y - 10, 21, 21, AllPlanes, ZPixmap);
    if (image == NULL) return 0;
    int n = 0;
    for (int j = 0; j < 21; j++)
        for (int i = 0; i < 21; i++) {
            unsigned long p = XGetPixel(image, i, j);
            if (((p >> 16) & 0xff) > 0xd0 && ((p >> 8) & 0xff) > 0xd0 && (p & 0xff) > 0xd0) n++;
        }
    XDestroyImage(image);
    return n;
}

static int compare(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: pad_probe latency N X Y | move SECONDS X Y\n");
        return 2;
    }
    Display *d = XOpenDisplay(NULL);
    if (d == NULL) return 1;
    Window root = DefaultRootWindow(d);
    int x = atoi(argv[3]), y = atoi(argv[4]);
    if (strcmp(argv[1], "window") == 0) {
        Window w = XCreateSimpleWindow(d, root, 0, 0, (unsigned)DisplayWidth(d, 0), (unsigned)DisplayHeight(d, 0), 0,
                                       0, 0);
        XMapRaised(d, w);
        XSync(d, False);
        printf("%lu\n", (unsigned long)w);
        fflush(stdout);
        sleep((unsigned)atoi(argv[2]));
        return 0;
    }
    if (strcmp(argv[1], "move") == 0) {
        long long end = now_us() + (long long)(atof(argv[2]) * 1e6);
        for (int i = 0; now_us() < end; i++) {
            XWarpPointer(d, None, root, 0, 0, 0, 0, x + (i % 40), y + (i % 17));
            XFlush(d);
            usleep(10000);
        }
        return 0;
    }
    int n = atoi(argv[2]);
    long long *samples = calloc((size_t)n, sizeof *samples);
    int got = 0;
    for (int i = 0; i < n; i++) {
        int px = x + (i % 2) * 60;
        XWarpPointer(d, None, root, 0, 0, 0, 0, px, y);
        XSync(d, False);
        long long start = now_us();
        while (now_us() - start < 1000000) {
            if (ring_pixels(d, root, px, y) >= 8) {
                samples[got++] = now_us() - start;
                break;
            }
        }
        /* Out of phase with the pad's polling, so the samples cover it. */
        usleep(20000 + (useconds_t)(rand() % 10000));
    }
    if (got == 0) {
        fprintf(stderr, "pad_probe: the pad's pointer never showed\n");
        return 1;
    }
    qsort(samples, (size_t)got, sizeof *samples, compare);
    /* A sample that never showed within the second counts as that second (a stall at least that long). */
    long long longest = got < n ? 1000000 : samples[got - 1];
    printf("%lld %lld %d %lld\n", samples[got / 2], samples[(got * 95) / 100 < got ? (got * 95) / 100 : got - 1], got,
           longest);
    return 0;
}
