"""The KDE Plasma lock screen with the pattern grid, at the real greeter: `kscreenlocker_greet --testing --theme`
(Plasma 5.27) under Xvfb, run by a throwaway user, with the lock screen's files as the package pam-pattern-kde
installs them (`make deb`, support.debs: its files at their installed place, an overlay), the profile enabled in common-auth and the setuid helper at its path (support.pad's namespace: the greeter's PAM
service is `kde`, which Debian 12 does not ship, so `other`, and so common-auth, applies). Driven by xdotool.

The lock screen logs what a test needs on the greeter's stderr, never a secret: "pam_pattern: grid X,Y ..."
(the nine dots' centres on the screen), "pattern sent", "wrong pattern", "shaken off N", "message TEXT",
"unlocked".
"""

import os
import subprocess
import tempfile
import time

from support import debs, pad, screen, surfaces
from support.paths import BUILD, ROOT, require_built, require_tools

GREETER = "/usr/lib/x86_64-linux-gnu/libexec/kscreenlocker_greet"
THEME = os.path.join(BUILD, "kde", "plasma5")
# The look-and-feel package's id (metadata.desktop) and where Plasma looks for it.
THEME_ID = "org.pam-pattern.lockscreen"
LOOK_AND_FEEL = "/usr/share/plasma/look-and-feel"
INSTALLED_THEME = LOOK_AND_FEEL + "/" + THEME_ID
# Plasma 6's lock screen: the shell package (its id, where the package installs it).
SHELL_ID = "org.pam-pattern.desktop"
INSTALLED_SHELL = "/usr/share/plasma/shells/" + SHELL_ID
# Plasma 6's on/off command for everyone (README, "KDE Plasma"): a copy of the stock desktop shell, whose lock
# screen the greeter loads, with ours in its place, first in $XDG_DATA_DIRS.
PLASMA6_COMMAND = "/usr/libexec/pam-pattern/plasma6-lock-screen"
STOCK_SHELL = "/usr/share/plasma/shells/org.kde.plasma.desktop"
PLASMA6_COPY = "/usr/local/share/plasma/shells/org.kde.plasma.desktop"
# The lock screen's debug lines, which the tests read (the grid's place, what it sent): off unless asked for so.
DEBUG_RULES = "pam_pattern.greeter.debug=true"
# Plasma 5.27's on/off command (README, "KDE Plasma"), installed, and the tree's copy the tests run: for one person
# (their kscreenlockerrc's [Greeter] Theme) and, with --everyone as root, for everyone: the system-wide defaults,
# /etc/xdg/kscreenlockerrc, which each person's own kscreenlockerrc overrides (KConfig cascades $XDG_CONFIG_DIRS).
PLASMA5_COMMAND = "/usr/libexec/pam-pattern/plasma5-lock-screen"
PLASMA5_COMMAND_SOURCE = os.path.join(ROOT, "Sources", "Surfaces", "kde", "ui", "plasma5-lock-screen")
ON = [PLASMA5_COMMAND_SOURCE, "on"]
OFF = [PLASMA5_COMMAND_SOURCE, "off"]
SYSTEM_CONFIG = "/etc/xdg/kscreenlockerrc"
ADMIN_ON = [PLASMA5_COMMAND_SOURCE, "on", "--everyone"]
ADMIN_OFF = [PLASMA5_COMMAND_SOURCE, "off", "--everyone"]


def require_greeter():
    require_built(os.path.join(THEME, "contents", "lockscreen", "LockScreen.qml"))
    require_tools("Xvfb", "xdotool", "xwd", "pam-auth-update")
    if not os.path.exists(GREETER):
        raise AssertionError("kscreenlocker_greet is missing (make deps: libkscreenlocker5, plasma-workspace)")


def set_up_module():
    require_greeter()
    pad.set_up_module()


# The surface's test driver (Sources/Surfaces/kde/driver.py), one script with the shared parts in place.
DRIVER = surfaces.driver("kde")


class KdeNamespace(pad.PadNamespace):
    """pad.PadNamespace plus the lock screen installed by its package: an overlay on
    /usr/share/plasma/look-and-feel holding what pam-pattern-kde's .deb has there, as dpkg unpacks it; and an
    overlay on /etc/xdg, where the administrator's commands write."""

    def __init__(self, test):
        pad.PadNamespace.__init__(self, test)
        self.overlays[LOOK_AND_FEEL] = "look_and_feel"
        self.overlays["/etc/xdg"] = "etc_xdg"
        for name in ("look_and_feel", "etc_xdg"):
            for layer in ("up", "work"):
                os.makedirs(os.path.join(self.root, "overlay", name, layer), exist_ok=True)
        self.etc_xdg = os.path.join(self.root, "overlay", "etc_xdg", "up")
        with tempfile.TemporaryDirectory(prefix="kde-deb.", dir=self.root) as unpacked:
            subprocess.run(["dpkg-deb", "-x", debs.built()[debs.KDE], unpacked], check=True)
            os.rename(unpacked + INSTALLED_THEME, os.path.join(self.root, "overlay", "look_and_feel", "up", THEME_ID))
        self.theme = INSTALLED_THEME


class KdeCase(pad.PadCase):
    """A throwaway USER with a password and helper.PATTERN, the profile enabled, the lock screen at the greeter."""

    def namespace(self):
        return KdeNamespace(self)

    def session(self, steps, env=None, timeout=240, configured=False, debug=True, ready_after=None):
        """The greeter with the theme named on its command line, or (configured=True) the one the user's
        kscreenlockerrc names, as a real lock does. debug=False: without its debug lines, which the steps are
        driven by: the report after `ready_timeout` s (in env's place: job fields), not ready. ready_after: taken
        as up that many seconds after it started (a lock screen that does not log the grid, the stock one)."""
        job = {
            "root": self.sandbox.root,
            "screen": [1024, 768],
            "user": self.user.name,
            "uid": self.user.uid,
            "home": "/home/" + self.user.name,
            "setpriv": pad.helper.setpriv_argv(self.user),
            "greeter": GREETER,
            "theme": None if configured else self.sandbox.theme,
            "env": dict(env or {}),
            "debug_rules": DEBUG_RULES if debug else "",
            "steps": steps,
            "ready_after": ready_after,
        }
        if not debug:
            job["ready_timeout"] = 20
        report = self.run_driver("kde", DRIVER, job, timeout)
        if debug:
            self.assertTrue(report["ready"], "the lock screen did not come up:\n%s" % report["log"])
        return report

    def logged(self, report, text):
        return logged(report["log"], text)


def logged(log, text):
    """The lock screen's lines in the greeter's log (what follows "pam_pattern: ") that start with `text`."""
    said = [line.split("pam_pattern: ", 1)[1] for line in log.splitlines() if "pam_pattern: " in line]
    return [line for line in said if line.startswith(text)]


def box(log, name, which=-1):
    """The last (or `which`) place the lock screen logged for its part `name` ("box NAME X,Y,W,H TEXTS"):
    ((x0, y0, x1, y1), its texts joined by " | "), or None."""
    found = [line[len("box %s " % name) :].split(" ", 1) for line in logged(log, "box %s " % name)]
    if not found:
        return None
    x, y, w, h = (int(v) for v in found[which][0].split(","))
    return (x, y, x + w, y + h), found[which][1] if len(found[which]) > 1 else ""


def brightness(pixel):
    return sum(pixel) // 3


def dot_stands_out(image, centre, spacing):
    """How much brighter a dot's centre is than the wallpaper a third of the spacing to its left and right."""
    x, y = centre
    around = [image.pixel(x - spacing // 3, y), image.pixel(x + spacing // 3, y)]
    return brightness(image.pixel(x, y)) - max(brightness(p) for p in around)


# A lock-screen wallpaper a test configures: red on the left half, blue on the right, the greeter's size.
WALLPAPER_SIZE = (1024, 768)
WALLPAPER_LEFT = (200, 40, 40)
WALLPAPER_RIGHT = (40, 40, 200)


def configure_lock_wallpaper(home, home_seen_by_greeter, uid):
    """kscreenlockerrc's lock-screen wallpaper, as System Settings writes it, on the two-colour image in the
    person's home (`home` here; `home_seen_by_greeter` where the greeter finds it, e.g. inside a chroot)."""
    width, height = WALLPAPER_SIZE
    half = width // 2
    row = bytearray(bytes(WALLPAPER_LEFT) * half + bytes(WALLPAPER_RIGHT) * (width - half))
    image = os.path.join(home, "lock-wallpaper.png")
    with open(image, "wb") as f:
        f.write(screen.Image(width, height, [row] * height).png())
    config = os.path.join(home, ".config")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "kscreenlockerrc"), "w") as f:
        f.write("[Greeter]\nWallpaperPlugin=org.kde.image\n\n")
        f.write("[Greeter][Wallpaper][org.kde.image][General]\n")
        f.write("Image=file://%s\n" % os.path.join(home_seen_by_greeter, "lock-wallpaper.png"))
    for path in (image, config, os.path.join(config, "kscreenlockerrc")):
        os.chown(path, uid, -1)


def wallpaper_share(image):
    """Of the screen's points (every 16 px, but for a band down the middle), the share showing the test
    wallpaper's colour of their half (darkened and blurred as Breeze does: which of red and blue leads)."""
    shown = total = 0
    for y in range(0, image.height, 16):
        for x in range(0, image.width, 16):
            if abs(x - image.width // 2) < 96:
                continue
            r, g, b = image.pixel(x, y)
            total += 1
            shown += (r > b + 20) if x < image.width // 2 else (b > r + 20)
    return shown / total


def assert_looks_like_breeze(test, log, one, two, started, user):
    """The lock screen's screenshots `one` and `two` (2 s apart) and its log: the test wallpaper
    (configure_lock_wallpaper) on most of the screen; Breeze's clock and date where the lock screen says they are,
    in the C locale's forms (hh:mm:ss; dddd, d MMMM yyyy) at the time the greeter started, drawn, the seconds
    moving; the avatar with the user's name."""
    share = wallpaper_share(one)
    test.assertGreater(share, 0.8, "the configured wallpaper is on %d %% of the screen" % (share * 100))
    found = box(log, "clock")
    test.assertIsNotNone(found, "no clock:\n%s" % log)
    place, texts = found
    clock, _, date = texts.partition(" | ")
    minutes = {time.strftime("%H:%M", time.localtime(t)) for t in (started - 60, started, started + 60)}
    test.assertIn(clock[:5], minutes, texts)
    test.assertEqual(date, time.strftime("%A, %-d %B %Y", time.localtime(started)).strip(), texts)
    light = lambda r, g, b: min(r, g, b) > 200  # noqa: E731  the clock's white text
    test.assertGreater(one.crop(*place).count(light), 300, "the clock and date are not drawn where logged")
    test.assertNotEqual(one.crop(*place).rows, two.crop(*place).rows, "the clock does not move")
    avatar = box(log, "avatar")
    test.assertIsNotNone(avatar, "no avatar")
    test.assertIn(user, avatar[1])
