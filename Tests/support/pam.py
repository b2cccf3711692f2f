"""Drive the built pam_pattern.so through the REAL libpam (libpam.so.0) with ctypes.

Why: the module's promises (return codes, no prompt when locked, surviving a
broken conversation) only mean something through the library that sudo, su and
login use. pam_start_confdir (libpam >= 1.4) reads a private service directory,
so nothing under /etc/pam.d is touched; the service file names the module by
absolute path.

Pieces:
- Conversation: a scripted conversation function (answers, recorded messages,
  and the broken behaviours of the failure matrix).
- service_dir()/write_service(): a private pam.d.
- authenticate(): one pam_start_confdir/pam_authenticate/pam_end round.
- summary(): a Result as plain data, for support.system.in_child (a crash in
  the module must fail one test, not the run).

The private trees these run in are support.sandbox's (Fixture, FixtureCase).
"""

import ctypes
import os

from support.paths import MODULE

# --- PAM constants (security/_pam_types.h) ----------------------------------

PAM_SUCCESS = 0
PAM_SYSTEM_ERR = 4
PAM_BUF_ERR = 5
PAM_PERM_DENIED = 6
PAM_AUTH_ERR = 7
PAM_AUTHINFO_UNAVAIL = 9
PAM_USER_UNKNOWN = 10
PAM_MAXTRIES = 11
PAM_CONV_ERR = 19
PAM_IGNORE = 25
PAM_ABORT = 26
PAM_INCOMPLETE = 31

PAM_SILENT = 0x8000
PAM_DISALLOW_NULL_AUTHTOK = 0x0001

PAM_SERVICE = 1
PAM_USER = 2
PAM_TTY = 3
PAM_RHOST = 4
PAM_CONV = 5
PAM_AUTHTOK = 6
PAM_FAIL_DELAY = 10

PAM_PROMPT_ECHO_OFF = 1
PAM_PROMPT_ECHO_ON = 2
PAM_ERROR_MSG = 3
PAM_TEXT_INFO = 4

CODE_NAMES = {
    0: "PAM_SUCCESS",
    4: "PAM_SYSTEM_ERR",
    5: "PAM_BUF_ERR",
    6: "PAM_PERM_DENIED",
    7: "PAM_AUTH_ERR",
    9: "PAM_AUTHINFO_UNAVAIL",
    10: "PAM_USER_UNKNOWN",
    11: "PAM_MAXTRIES",
    19: "PAM_CONV_ERR",
    25: "PAM_IGNORE",
    26: "PAM_ABORT",
    31: "PAM_INCOMPLETE",
}


def code_name(code):
    return CODE_NAMES.get(code, "PAM code %d" % code)


# --- libraries --------------------------------------------------------------

libc = ctypes.CDLL("libc.so.6", use_errno=True)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.calloc.restype = ctypes.c_void_p
libc.calloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
libc.free.restype = None

libpam = ctypes.CDLL("libpam.so.0", use_errno=True)


class PamMessage(ctypes.Structure):
    _fields_ = [("msg_style", ctypes.c_int), ("msg", ctypes.c_char_p)]


class PamResponse(ctypes.Structure):
    _fields_ = [("resp", ctypes.c_void_p), ("resp_retcode", ctypes.c_int)]


CONV_FUNC = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.c_int,
    ctypes.POINTER(ctypes.POINTER(PamMessage)),
    ctypes.POINTER(ctypes.POINTER(PamResponse)),
    ctypes.c_void_p,
)

FAIL_DELAY_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p)


class PamConv(ctypes.Structure):
    _fields_ = [("conv", CONV_FUNC), ("appdata_ptr", ctypes.c_void_p)]


libpam.pam_start_confdir.argtypes = [
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.POINTER(PamConv),
    ctypes.c_char_p,
    ctypes.POINTER(ctypes.c_void_p),
]
libpam.pam_start_confdir.restype = ctypes.c_int
libpam.pam_authenticate.argtypes = [ctypes.c_void_p, ctypes.c_int]
libpam.pam_authenticate.restype = ctypes.c_int
libpam.pam_setcred.argtypes = [ctypes.c_void_p, ctypes.c_int]
libpam.pam_setcred.restype = ctypes.c_int
libpam.pam_end.argtypes = [ctypes.c_void_p, ctypes.c_int]
libpam.pam_end.restype = ctypes.c_int
libpam.pam_set_item.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
libpam.pam_set_item.restype = ctypes.c_int
libpam.pam_get_item.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]
libpam.pam_get_item.restype = ctypes.c_int


def _malloc_string(data):
    """A NUL-terminated malloc'd copy of bytes (the module frees it)."""
    buffer = libc.malloc(len(data) + 1)
    if not buffer:
        raise MemoryError
    ctypes.memmove(buffer, data, len(data))
    ctypes.memset(buffer + len(data), 0, 1)
    return buffer


# --- the conversation -------------------------------------------------------

# Scripted behaviours for one prompt, besides a bytes answer.
CONV_ERR = "conv-err"  # return PAM_CONV_ERR, no responses
NULL_RESPONSES = "null-responses"  # return PAM_SUCCESS with *resp == NULL
NULL_ANSWER = "null-answer"  # return PAM_SUCCESS, resp[0].resp == NULL


class Conversation:
    """A conversation function driven by a script of answers.

    Every message is recorded as (style, bytes) in `messages`. Each prompt
    (echo on or off) takes the next item of `answers`: bytes are answered,
    the constants above misbehave on purpose. With no answers left a prompt
    gets PAM_CONV_ERR (and `unexpected_prompts` counts it), so a test that
    expected no prompt sees it.
    """

    def __init__(self, answers=(), null_function=False):
        self.answers = list(answers)
        self.messages = []
        self.unexpected_prompts = 0
        self.null_function = null_function
        self._callback = CONV_FUNC(self._converse)
        self.struct = PamConv()
        if not null_function:
            self.struct.conv = self._callback
        self.struct.appdata_ptr = None
        self.fail_delays = []
        self._delay_callback = FAIL_DELAY_FUNC(self._fail_delay)

    def _fail_delay(self, status, usec, appdata):
        # Replaces libpam's sleep: records what the module asked for.
        self.fail_delays.append(usec)

    @property
    def prompts(self):
        return [m for s, m in self.messages if s in (PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON)]

    @property
    def echo_on_prompts(self):
        return [m for s, m in self.messages if s == PAM_PROMPT_ECHO_ON]

    @property
    def errors(self):
        return [m for s, m in self.messages if s == PAM_ERROR_MSG]

    @property
    def infos(self):
        return [m for s, m in self.messages if s == PAM_TEXT_INFO]

    @property
    def text(self):
        """All error and info messages joined, for assertIn."""
        return b"\n".join(m for s, m in self.messages if s in (PAM_ERROR_MSG, PAM_TEXT_INFO))

    def _converse(self, count, messages, responses, appdata):
        try:
            behaviour = None
            for i in range(count):
                message = messages[i].contents
                text = message.msg if message.msg is not None else b""
                self.messages.append((message.msg_style, text))
                if message.msg_style in (PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON):
                    if not self.answers:
                        self.unexpected_prompts += 1
                        return PAM_CONV_ERR
                    behaviour = self.answers.pop(0)
            if behaviour == CONV_ERR:
                return PAM_CONV_ERR
            if behaviour == NULL_RESPONSES:
                responses[0] = ctypes.POINTER(PamResponse)()
                return PAM_SUCCESS
            array = libc.calloc(count, ctypes.sizeof(PamResponse))
            if not array:
                return PAM_BUF_ERR
            typed = ctypes.cast(array, ctypes.POINTER(PamResponse))
            if isinstance(behaviour, (bytes, bytearray)):
                for i in range(count):
                    if messages[i].contents.msg_style in (PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON):
                        typed[i].resp = _malloc_string(bytes(behaviour))
            responses[0] = typed
            return PAM_SUCCESS
        except Exception:  # never let a Python error unwind through C
            return PAM_CONV_ERR


# --- service directories ----------------------------------------------------


def module_line(options="", control="required", path=None):
    return "auth %s %s %s" % (control, path or MODULE, options)


def write_service(confdir, name, auth_lines, extra=""):
    """Writes confdir/name: the auth lines plus permissive account/session."""
    lines = list(auth_lines) + [
        "account required pam_permit.so",
        "session required pam_permit.so",
        "password required pam_deny.so",
    ]
    with open(os.path.join(confdir, name), "w") as f:
        f.write("\n".join(lines) + "\n" + extra)


# A lone module returning PAM_IGNORE makes libpam answer PAM_PERM_DENIED (no
# module gave a verdict), which hides the module's code. The observing stack
# makes every code visible: success ends the stack, any failure ends it with
# the module's own code, and only PAM_IGNORE reaches pam_echo, whose message
# authenticate() turns back into PAM_IGNORE.
IGNORE_MARKER = b"pam_pattern:IGNORE"


def observing_stack(options):
    return [
        module_line(options, "[success=done ignore=ignore default=die]"),
        "auth optional pam_echo.so %s" % IGNORE_MARKER.decode(),
        "auth required pam_permit.so",
    ]


# --- one round --------------------------------------------------------------


class Result:
    def __init__(self, code, conversation, authtok=None):
        self.code = code
        self.conversation = conversation
        self.authtok = authtok

    def __repr__(self):
        return "<%s messages=%r>" % (code_name(self.code), self.conversation.messages)


def authenticate(
    confdir, service, user, conversation=None, items=None, flags=0, read_authtok=False, install_fail_delay=True
):
    """pam_start_confdir + pam_authenticate + pam_end; returns a Result.

    items: {PAM_RHOST: b"host", ...} set before authenticating.
    A fail-delay callback is installed so failures do not sleep; the requested
    delays are in conversation.fail_delays.
    """
    conversation = conversation or Conversation()
    handle = ctypes.c_void_p()
    rc = libpam.pam_start_confdir(
        service.encode(),
        user.encode() if isinstance(user, str) else user,
        ctypes.byref(conversation.struct),
        confdir.encode(),
        ctypes.byref(handle),
    )
    if rc != PAM_SUCCESS:
        raise RuntimeError("pam_start_confdir: %s" % code_name(rc))
    authtok = None
    try:
        if install_fail_delay:
            libpam.pam_set_item(handle, PAM_FAIL_DELAY, ctypes.cast(conversation._delay_callback, ctypes.c_void_p))
        for item, value in (items or {}).items():
            libpam.pam_set_item(handle, item, ctypes.c_char_p(value))
        rc = libpam.pam_authenticate(handle, flags)
        if read_authtok:
            value = ctypes.c_void_p()
            if libpam.pam_get_item(handle, PAM_AUTHTOK, ctypes.byref(value)) == PAM_SUCCESS and value.value:
                authtok = ctypes.string_at(value.value)
    finally:
        libpam.pam_end(handle, rc)
    marker = (PAM_TEXT_INFO, IGNORE_MARKER)
    if marker in conversation.messages:
        conversation.messages = [m for m in conversation.messages if m != marker]
        if rc == PAM_SUCCESS:
            rc = PAM_IGNORE
    return Result(rc, conversation, authtok)


def authenticate_calls(confdir, service, user, conversation, calls, items=None):
    """pam_start_confdir, then `calls` pam_authenticate calls on that one handle (as i3lock and xsecurelock's
    authproto_pam do, one per answer), then pam_end; returns the codes."""
    handle = ctypes.c_void_p()
    rc = libpam.pam_start_confdir(
        service.encode(), user.encode(), ctypes.byref(conversation.struct), confdir.encode(), ctypes.byref(handle)
    )
    if rc != PAM_SUCCESS:
        raise RuntimeError("pam_start_confdir: %s" % code_name(rc))
    codes = []
    try:
        libpam.pam_set_item(handle, PAM_FAIL_DELAY, ctypes.cast(conversation._delay_callback, ctypes.c_void_p))
        for item, value in (items or {}).items():
            libpam.pam_set_item(handle, item, ctypes.c_char_p(value))
        for _ in range(calls):
            rc = libpam.pam_authenticate(handle, 0)
            codes.append(rc)
    finally:
        libpam.pam_end(handle, rc)
    return codes


# --- processes ---------------------------------------------------------------


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def summary(result):
    """A picklable view of a Result (for support.system.in_child)."""
    return {
        "code": result.code,
        "messages": result.conversation.messages,
        "prompts": result.conversation.prompts,
        "fail_delays": result.conversation.fail_delays,
        "unexpected_prompts": result.conversation.unexpected_prompts,
    }
