/*
 * auth_pattern's X11 side (pattern_pad.h): one child window per monitor
 * inside $XSCREENSAVER_WINDOW, each with a back-buffer pixmap so a frame
 * appears whole, core X primitives for dots and lines, Xft for text.
 * The pointer is polled with XQueryPointer: xsecurelock holds the grab, so
 * no pointer event ever reaches this client.
 *
 * pattern-draw (the drawing window) uses the same drawing on a top-level
 * window of its own instead (pattern_pad_x11_open_window): one "monitor",
 * the whole window, and its pointer and keys as ordinary X events.
 */
#define _GNU_SOURCE
#include "pattern_pad.h"

#include <X11/Xft/Xft.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/extensions/Xrandr.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MONITORS 16
#define MAX_FONTS 4

struct monitor {
    int32_t x, y, width, height; /* root coordinates */
    Window window;
    Pixmap buffer;
    XftDraw *text;
};

static Display *display;
static Window parent, root;
static int screen;
static Visual *visual;
static Colormap colormap;
static int depth;
static GC gc;
static int randr_event_base = -1;
static struct monitor monitors[MAX_MONITORS];
static int monitor_count;
static int current = -1;
static unsigned char caption[2048];
static size_t caption_length;
static void name_windows(void);
static struct {
    int size;
    XftFont *font;
} fonts[MAX_FONTS];
static char language[16];
/* pattern-draw's own top-level window instead of the locker's (pattern_pad_x11_open_window). */
static int windowed;
static Atom delete_window;
/* Another surface's drawing (pattern-lock's cairo on Wayland) instead of X11's, when set. */
static const struct pattern_pad_painter *painter;

void pattern_pad_set_painter(const struct pattern_pad_painter *other) { painter = other; }

/* "zh_CN.UTF-8" -> "zh-cn", for fontconfig's lang= (so CJK text gets a CJK font). */
static void read_language(void) {
    const char *locale = setlocale(LC_MESSAGES, NULL);
    size_t n = 0;
    if (locale != NULL && strcmp(locale, "C") != 0 && strcmp(locale, "POSIX") != 0) {
        for (; locale[n] && locale[n] != '.' && locale[n] != '@' && n + 1 < sizeof language; n++) {
            char c = locale[n];
            language[n] = c == '_' ? '-' : (c >= 'A' && c <= 'Z' ? (char)(c + 32) : c);
        }
    }
    language[n] = 0;
}

static void drop_monitors(void) {
    for (int i = 0; i < monitor_count; i++) {
        if (monitors[i].text) XftDrawDestroy(monitors[i].text);
        if (monitors[i].buffer) XFreePixmap(display, monitors[i].buffer);
        if (monitors[i].window) XDestroyWindow(display, monitors[i].window);
    }
    memset(monitors, 0, sizeof monitors);
    monitor_count = 0;
}

static void make_monitors(void) {
    drop_monitors();
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(display, parent, &attributes)) return;
    int px = 0, py = 0;
    Window child;
    if (!windowed) XTranslateCoordinates(display, parent, root, 0, 0, &px, &py, &child);
    int found = 0;
    if (randr_event_base >= 0 && !windowed) {
        XRRMonitorInfo *info = XRRGetMonitors(display, root, True, &found);
        for (int i = 0; info != NULL && i < found && monitor_count < MAX_MONITORS; i++) {
            /* Only the part inside the parent window is ours to draw on. */
            int x0 = info[i].x > px ? info[i].x : px, y0 = info[i].y > py ? info[i].y : py;
            int x1 = info[i].x + info[i].width, y1 = info[i].y + info[i].height;
            if (x1 > px + attributes.width) x1 = px + attributes.width;
            if (y1 > py + attributes.height) y1 = py + attributes.height;
            if (x1 - x0 < 16 || y1 - y0 < 16) continue;
            monitors[monitor_count++] = (struct monitor){x0, y0, x1 - x0, y1 - y0, 0, 0, NULL};
        }
        if (info) XRRFreeMonitors(info);
    }
    if (monitor_count == 0) monitors[monitor_count++] = (struct monitor){px, py, attributes.width, attributes.height, 0, 0, NULL};
    for (int i = 0; i < monitor_count; i++) {
        struct monitor *m = &monitors[i];
        m->window = XCreateSimpleWindow(display, parent, m->x - px, m->y - py, (unsigned)m->width,
                                        (unsigned)m->height, 0, 0, 0);
        m->buffer = XCreatePixmap(display, m->window, (unsigned)m->width, (unsigned)m->height, (unsigned)depth);
        m->text = XftDrawCreate(display, m->buffer, visual, colormap);
        XClassHint class_hint = {.res_name = windowed ? "pattern-draw-screen" : "auth_pattern",
                                 .res_class = windowed ? "pattern-draw" : "auth_pattern"};
        XSetClassHint(display, m->window, &class_hint);
        XMapRaised(display, m->window);
    }
    if (caption_length > 0) name_windows();
}

int pattern_pad_x11_open(void) {
    display = XOpenDisplay(NULL);
    if (display == NULL) {
        pattern_pad_log("cannot open the display");
        return -1;
    }
    screen = DefaultScreen(display);
    root = RootWindow(display, screen);
    visual = DefaultVisual(display, screen);
    colormap = DefaultColormap(display, screen);
    depth = DefaultDepth(display, screen);
    parent = root;
    const char *id = getenv("XSCREENSAVER_WINDOW");
    if (id != NULL && *id) {
        char *end = NULL;
        unsigned long value = strtoul(id, &end, 0);
        if (end != NULL && *end == 0 && value != 0) parent = (Window)value;
    }
    /* xsecurelock hands the window over unmapped. */
    XMapRaised(display, parent);
    XSelectInput(display, parent, StructureNotifyMask);
    int error_base;
    if (XRRQueryExtension(display, &randr_event_base, &error_base)) {
        XRRSelectInput(display, root, RRScreenChangeNotifyMask);
    } else {
        randr_event_base = -1;
    }
    gc = XCreateGC(display, root, 0, NULL);
    read_language();
    make_monitors();
    XFlush(display);
    return 0;
}

void pattern_pad_x11_close(void) {
    if (display == NULL) return;
    drop_monitors();
    for (int i = 0; i < MAX_FONTS; i++)
        if (fonts[i].font) XftFontClose(display, fonts[i].font);
    XFreeGC(display, gc);
    XCloseDisplay(display);
    display = NULL;
}

/* Keys typed on the screen (pattern_pad_x11_take_keyboard), in xsecurelock's bytes, until read. A secret:
 * wiped when read. */
static int keys_taken;
static unsigned char keys[512];
static size_t keys_length;

static void keep_key(XKeyEvent *key) {
    char text[8];
    KeySym keysym = NoSymbol;
    int n = XLookupString(key, text, sizeof text, &keysym, NULL);
    unsigned char one = 0;
    if (keysym == XK_Return || keysym == XK_KP_Enter) one = '\r';
    else if (keysym == XK_BackSpace) one = 0x08;
    else if (keysym == XK_Escape) one = 0x1B;
    else if (n == 1 && text[0] == 0x15) one = 0x15; /* Ctrl-U */
    if (one != 0) {
        if (keys_length < sizeof keys) keys[keys_length++] = one;
    } else {
        /* XLookupString gives Latin-1: as UTF-8, two bytes for each one above 0x7F. */
        for (int i = 0; i < n; i++) {
            unsigned char c = (unsigned char)text[i];
            if (c < 0x20 || c == 0x7F) continue;
            if (c < 0x80 && keys_length < sizeof keys) keys[keys_length++] = c;
            else if (c >= 0x80 && keys_length + 1 < sizeof keys) {
                keys[keys_length++] = (unsigned char)(0xC0 | (c >> 6));
                keys[keys_length++] = (unsigned char)(0x80 | (c & 0x3F));
            }
        }
    }
    explicit_bzero(text, sizeof text);
}

void pattern_pad_x11_take_keyboard(void) {
    if (display == NULL) return;
    keys_taken = 1;
    XSelectInput(display, parent, StructureNotifyMask | KeyPressMask);
    XSetInputFocus(display, PointerRoot, RevertToPointerRoot, CurrentTime);
    XFlush(display);
}

size_t pattern_pad_x11_read_keys(unsigned char *bytes, size_t capacity) {
    size_t n = keys_length < capacity ? keys_length : capacity;
    memcpy(bytes, keys, n);
    memmove(keys, keys + n, keys_length - n);
    keys_length -= n;
    explicit_bzero(keys + keys_length, sizeof keys - keys_length);
    return n;
}

int pattern_pad_x11_fd(void) {
    if (display == NULL || XPending(display) > 0) return -1;
    return ConnectionNumber(display);
}

int pattern_pad_x11_events(void) {
    int changed = 0;
    while (display && XPending(display) > 0) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type == KeyPress && keys_taken) keep_key(&event.xkey);
        if (event.type == ConfigureNotify && event.xconfigure.window == parent) changed = 1;
        if (randr_event_base >= 0 && event.type == randr_event_base + RRScreenChangeNotify) {
            XRRUpdateConfiguration(&event);
            changed = 1;
        }
    }
    if (changed) make_monitors();
    return changed;
}

int pattern_pad_monitor_count(void) { return monitor_count; }

void pattern_pad_monitor(int i, int32_t *x, int32_t *y, int32_t *width, int32_t *height) {
    if (i < 0 || i >= monitor_count) {
        *x = *y = *width = *height = 0;
        return;
    }
    *x = monitors[i].x;
    *y = monitors[i].y;
    *width = monitors[i].width;
    *height = monitors[i].height;
}

int pattern_pad_pointer(int32_t *x, int32_t *y, int32_t *pressed) {
    Window r, c;
    int rx, ry, wx, wy;
    unsigned int mask;
    if (!XQueryPointer(display, root, &r, &c, &rx, &ry, &wx, &wy, &mask)) return -1;
    *x = rx;
    *y = ry;
    *pressed = (mask & Button1Mask) != 0;
    return 0;
}

static void name_windows(void) {
    Atom name = XInternAtom(display, "_NET_WM_NAME", False);
    Atom utf8 = XInternAtom(display, "UTF8_STRING", False);
    for (int i = 0; i < monitor_count; i++)
        XChangeProperty(display, monitors[i].window, name, utf8, 8, PropModeReplace, caption, (int)caption_length);
}

void pattern_pad_set_caption(const unsigned char *utf8, size_t length) {
    if (painter != NULL) { painter->set_caption(utf8, length); return; }
    if (display == NULL) return;
    if (length > sizeof caption) length = sizeof caption;
    memcpy(caption, utf8, length);
    caption_length = length;
    name_windows();
}

int pattern_pad_wait(const int *fds, int count, int timeout_ms) {
    struct pollfd p[5];
    int n = 0, map[5];
    for (int i = 0; i < count && i < 4; i++) {
        if (fds[i] < 0) continue;
        p[n] = (struct pollfd){.fd = fds[i], .events = POLLIN};
        map[n++] = i;
    }
    if (display) {
        /* Events already read into Xlib's queue would not wake poll. */
        if (XPending(display) > 0) timeout_ms = 0;
        p[n] = (struct pollfd){.fd = ConnectionNumber(display), .events = POLLIN};
        map[n++] = 4;
    }
    int ready = poll(p, (nfds_t)n, timeout_ms);
    int mask = 0;
    for (int i = 0; ready > 0 && i < n; i++)
        if (p[i].revents) mask |= 1 << map[i];
    return mask;
}

void pattern_pad_frame_begin(int monitor, uint32_t background) {
    if (painter != NULL) { painter->frame_begin(monitor, background); return; }
    current = monitor >= 0 && monitor < monitor_count ? monitor : -1;
    if (current < 0) return;
    XSetForeground(display, gc, background);
    XFillRectangle(display, monitors[current].buffer, gc, 0, 0, (unsigned)monitors[current].width,
                   (unsigned)monitors[current].height);
}

void pattern_pad_fill_circle(int32_t cx, int32_t cy, int32_t radius, uint32_t colour) {
    if (painter != NULL) { painter->fill_circle(cx, cy, radius, colour); return; }
    if (current < 0 || radius <= 0) return;
    XSetForeground(display, gc, colour);
    XFillArc(display, monitors[current].buffer, gc, cx - radius, cy - radius, (unsigned)(2 * radius),
             (unsigned)(2 * radius), 0, 360 * 64);
}

void pattern_pad_ring(int32_t cx, int32_t cy, int32_t radius, int32_t width, uint32_t colour) {
    if (painter != NULL) { painter->ring(cx, cy, radius, width, colour); return; }
    if (current < 0 || radius <= 0) return;
    XSetForeground(display, gc, colour);
    XSetLineAttributes(display, gc, (unsigned)width, LineSolid, CapRound, JoinRound);
    XDrawArc(display, monitors[current].buffer, gc, cx - radius, cy - radius, (unsigned)(2 * radius),
             (unsigned)(2 * radius), 0, 360 * 64);
}

void pattern_pad_line(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t width, uint32_t colour) {
    if (painter != NULL) { painter->line(x0, y0, x1, y1, width, colour); return; }
    if (current < 0) return;
    XSetForeground(display, gc, colour);
    XSetLineAttributes(display, gc, (unsigned)width, LineSolid, CapRound, JoinRound);
    XDrawLine(display, monitors[current].buffer, gc, x0, y0, x1, y1);
}

void pattern_pad_rect(int32_t x, int32_t y, int32_t width, int32_t height, int32_t line_width, uint32_t colour) {
    if (painter != NULL) { painter->rect(x, y, width, height, line_width, colour); return; }
    if (current < 0) return;
    XSetForeground(display, gc, colour);
    XSetLineAttributes(display, gc, (unsigned)line_width, LineSolid, CapButt, JoinMiter);
    XDrawRectangle(display, monitors[current].buffer, gc, x, y, (unsigned)width, (unsigned)height);
}

static XftFont *font_of_size(int size) {
    int free_slot = -1;
    for (int i = 0; i < MAX_FONTS; i++) {
        if (fonts[i].font && fonts[i].size == size) return fonts[i].font;
        if (!fonts[i].font && free_slot < 0) free_slot = i;
    }
    if (free_slot < 0) {
        free_slot = MAX_FONTS - 1;
        XftFontClose(display, fonts[free_slot].font);
        fonts[free_slot].font = NULL;
    }
    char name[96];
    if (language[0])
        snprintf(name, sizeof name, "sans-serif:pixelsize=%d:lang=%s", size, language);
    else
        snprintf(name, sizeof name, "sans-serif:pixelsize=%d", size);
    XftFont *font = XftFontOpenName(display, screen, name);
    if (font == NULL) return NULL;
    fonts[free_slot].size = size;
    fonts[free_slot].font = font;
    return font;
}

int32_t pattern_pad_text(const unsigned char *utf8, size_t length, int32_t cx, int32_t y, int32_t pixel_size,
                         uint32_t colour) {
    if (painter != NULL) return painter->text(utf8, length, cx, y, pixel_size, colour);
    if (current < 0 || length == 0) return 0;
    XftFont *font = font_of_size(pixel_size);
    if (font == NULL) return 0;
    XGlyphInfo extents;
    XftTextExtentsUtf8(display, font, utf8, (int)length, &extents);
    XRenderColor value = {.red = (unsigned short)(((colour >> 16) & 0xff) * 257),
                          .green = (unsigned short)(((colour >> 8) & 0xff) * 257),
                          .blue = (unsigned short)((colour & 0xff) * 257),
                          .alpha = 0xffff};
    XftColor xft;
    if (!XftColorAllocValue(display, visual, colormap, &value, &xft)) return 0;
    XftDrawStringUtf8(monitors[current].text, &xft, font, cx - extents.xOff / 2, y, utf8, (int)length);
    XftColorFree(display, visual, colormap, &xft);
    return extents.xOff;
}

int32_t pattern_pad_text_width(const unsigned char *utf8, size_t length, int32_t pixel_size) {
    if (painter != NULL) return painter->text_width(utf8, length, pixel_size);
    if (display == NULL || length == 0) return 0;
    XftFont *font = font_of_size(pixel_size);
    if (font == NULL) return 0;
    XGlyphInfo extents;
    XftTextExtentsUtf8(display, font, utf8, (int)length, &extents);
    return extents.xOff;
}

void pattern_pad_frame_end(void) {
    if (painter != NULL) { painter->frame_end(); return; }
    if (current < 0) return;
    struct monitor *m = &monitors[current];
    XCopyArea(display, m->buffer, m->window, gc, 0, 0, (unsigned)m->width, (unsigned)m->height, 0, 0);
    XFlush(display);
    current = -1;
}

void pattern_pad_x11_sync(void) {
    if (display) XSync(display, False);
}

void pattern_pad_x11_close_keeping_frame(void) {
    if (display == NULL) return;
    /* Everything but the windows is freed (nothing else may outlive us in the server); the windows, children of
     * the locker's own, go when the locker takes its window down, which is the moment the screen opens. */
    for (int i = 0; i < monitor_count; i++) {
        if (monitors[i].text) XftDrawDestroy(monitors[i].text);
        if (monitors[i].buffer) XFreePixmap(display, monitors[i].buffer);
    }
    memset(monitors, 0, sizeof monitors);
    monitor_count = 0;
    for (int i = 0; i < MAX_FONTS; i++)
        if (fonts[i].font) XftFontClose(display, fonts[i].font);
    memset(fonts, 0, sizeof fonts);
    XFreeGC(display, gc);
    XSetCloseDownMode(display, RetainTemporary);
    XCloseDisplay(display);
    display = NULL;
}

int pattern_pad_x11_open_window(const unsigned char *title, size_t length, int32_t width, int32_t height) {
    display = XOpenDisplay(NULL);
    /* A busy X server can refuse a connection for a moment (seen under load: the window then never opened and
     * patternctl said "no password given"): with DISPLAY set, tried again for up to 2 s. */
    const char *named = getenv("DISPLAY");
    for (int tries = 0; display == NULL && named != NULL && named[0] != '\0' && tries < 10; tries++) {
        poll(NULL, 0, 200);
        display = XOpenDisplay(NULL);
    }
    if (display == NULL) {
        pattern_pad_log("cannot open the display (is DISPLAY set? run it from a desktop session)");
        return -1;
    }
    windowed = 1;
    randr_event_base = -1;
    screen = DefaultScreen(display);
    root = RootWindow(display, screen);
    visual = DefaultVisual(display, screen);
    colormap = DefaultColormap(display, screen);
    depth = DefaultDepth(display, screen);
    parent = XCreateSimpleWindow(display, root, 0, 0, (unsigned)width, (unsigned)height, 0, 0, 0);
    XSizeHints *size = XAllocSizeHints();
    if (size) {
        size->flags = PMinSize | PSize;
        size->min_width = 320;
        size->min_height = 420;
        size->width = width;
        size->height = height;
        XSetWMNormalHints(display, parent, size);
        XFree(size);
    }
    XClassHint class_hint = {.res_name = "pattern-draw", .res_class = "pattern-draw"};
    XSetClassHint(display, parent, &class_hint);
    Atom name = XInternAtom(display, "_NET_WM_NAME", False);
    Atom utf8 = XInternAtom(display, "UTF8_STRING", False);
    XChangeProperty(display, parent, name, utf8, 8, PropModeReplace, title, (int)length);
    XStoreName(display, parent, "pattern-draw");
    delete_window = XInternAtom(display, "WM_DELETE_WINDOW", False);
    XSetWMProtocols(display, parent, &delete_window, 1);
    XSelectInput(display, parent,
                 StructureNotifyMask | ExposureMask | KeyPressMask | ButtonPressMask | ButtonReleaseMask |
                     ButtonMotionMask | FocusChangeMask);
    gc = XCreateGC(display, root, 0, NULL);
    read_language();
    make_monitors();
    XMapRaised(display, parent);
    XFlush(display);
    return 0;
}

int pattern_pad_window_input(int32_t *x, int32_t *y, unsigned char *bytes, size_t capacity, size_t *length) {
    *length = 0;
    while (display && XPending(display) > 0) {
        XEvent event;
        XNextEvent(display, &event);
        switch (event.type) {
        case ConfigureNotify:
            if (event.xconfigure.window != parent) break;
            if (monitor_count == 1 && monitors[0].width == event.xconfigure.width &&
                monitors[0].height == event.xconfigure.height)
                break;
            make_monitors();
            return PATTERN_PAD_INPUT_RESIZED;
        case MapNotify:
            /* Without a window manager nobody else gives the new window the keyboard. */
            if (event.xmap.window == parent) XSetInputFocus(display, parent, RevertToParent, CurrentTime);
            return PATTERN_PAD_INPUT_EXPOSED;
        case Expose:
            if (event.xexpose.count == 0) return PATTERN_PAD_INPUT_EXPOSED;
            break;
        case ButtonPress:
        case ButtonRelease:
            if (event.xbutton.button != Button1) break;
            *x = event.xbutton.x;
            *y = event.xbutton.y;
            return event.type == ButtonPress ? PATTERN_PAD_INPUT_PRESS : PATTERN_PAD_INPUT_RELEASE;
        case MotionNotify:
            *x = event.xmotion.x;
            *y = event.xmotion.y;
            return PATTERN_PAD_INPUT_MOTION;
        case ClientMessage:
            if ((Atom)event.xclient.data.l[0] == delete_window) return PATTERN_PAD_INPUT_CLOSE;
            break;
        case KeyPress: {
            char text[8];
            KeySym keysym = NoSymbol;
            int n = XLookupString(&event.xkey, text, sizeof text, &keysym, NULL);
            int kind = PATTERN_PAD_INPUT_NONE;
            if (keysym == XK_Escape) kind = PATTERN_PAD_INPUT_ESCAPE;
            else if (keysym == XK_Return || keysym == XK_KP_Enter) kind = PATTERN_PAD_INPUT_ENTER;
            else if (keysym == XK_BackSpace) kind = PATTERN_PAD_INPUT_BACKSPACE;
            else if (keysym == XK_Tab || keysym == XK_ISO_Left_Tab) kind = PATTERN_PAD_INPUT_TAB;
            else if (n == 1 && text[0] == 0x15) kind = PATTERN_PAD_INPUT_CLEAR; /* Ctrl-U */
            else if (n > 0) {
                /* XLookupString gives Latin-1: as UTF-8, two bytes for each one above 0x7F. */
                size_t out = 0;
                for (int i = 0; i < n; i++) {
                    unsigned char c = (unsigned char)text[i];
                    if (c < 0x20 || c == 0x7F) continue;
                    if (c < 0x80 && out < capacity) bytes[out++] = c;
                    else if (c >= 0x80 && out + 1 < capacity) {
                        bytes[out++] = (unsigned char)(0xC0 | (c >> 6));
                        bytes[out++] = (unsigned char)(0x80 | (c & 0x3F));
                    }
                }
                *length = out;
                if (out > 0) kind = PATTERN_PAD_INPUT_TEXT;
            }
            explicit_bzero(text, sizeof text);
            if (kind != PATTERN_PAD_INPUT_NONE) return kind;
            break;
        }
        default:
            break;
        }
    }
    return PATTERN_PAD_INPUT_NONE;
}
