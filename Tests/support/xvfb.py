"""Xvfb for the shell sessions of the locker tests (support.i3lock, HelperTests' xsecurelock session): a fragment
that starts it on a free display, waits until it has named that display, and exports DISPLAY; or ends the
session with a clear failure. Under load Xvfb once took over 10 s to name its display, which the old 10 s wait
let through: the locker then ran with DISPLAY=":" and ended "Could not connect to X11"."""

# Needs $W (the session's directory); sets $xpid. ARGS: further Xvfb arguments (a screen size).
START = r"""
Xvfb -displayfd 3 -nolisten tcp -ac %(xvfb_args)s 3>$W/display >$W/xvfb.log 2>&1 &
xpid=$!
for i in $(seq 1200); do [ -s $W/display ] && break; sleep 0.05; done
if [ ! -s $W/display ]; then
  echo "Xvfb named no display within 60 s" >&2; sed 's/^/xvfb-log: /' $W/xvfb.log >&2; kill $xpid; exit 1
fi
export DISPLAY=:$(cat $W/display)
"""

# Seconds START may wait, for the caller's own timeout.
START_SECONDS = 60


def start(xvfb_args=""):
    """START for these Xvfb arguments, ready to be put into a session script."""
    return START % {"xvfb_args": xvfb_args}
