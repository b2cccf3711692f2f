#!/usr/bin/python3
"""A stand-in for GDM's daemon and for logind on a private bus, for GNOME Shell under test: what the shell's
lock screen and GDM's greeter ask of them, and no more. Run as root (as GDM's worker runs PAM) in a test's
namespace: `gdm_standin.py JOB` (JSON: "bus" the private system bus's address, "user", "session", "log",
"service_dir" a private directory for the verifier's sockets, "greeter" true for GDM's login screen, where there
is no session to reauthenticate).

- org.gnome.DisplayManager: the Manager's Version (the shell locks only when GDM answers) and
  OpenReauthenticationChannel / OpenSession, each an address of a private D-Bus server on which GDM's
  UserVerifier (libgdm's own skeleton, Gdm.UserVerifierSkeleton) runs the REAL PAM stack of the service the shell
  names (`gdm-password`) through libpam, as GDM's worker does: its prompts as SecretInfoQuery / InfoQuery, its
  messages as Problem / Info, a failure as Problem then ConversationStopped, a success as VerificationComplete
  (and, for a lock screen, logind's Unlock).
- org.freedesktop.login1: the Manager's GetSession, the user's Display, the session's Lock/Unlock signals,
  Active and SetLockedHint.

Each PAM run's outcome goes to the log ("pam SERVICE USER STATUS"), with each prompt ("asked TEXT").
"""

import ctypes
import json
import os
import queue
import sys
import threading

import gi

gi.require_version("Gdm", "1.0")
from gi.repository import Gdm, Gio, GLib  # noqa: E402

job = json.loads(sys.argv[1])
LOG = open(job["log"], "a", buffering=1)


def note(text):
    LOG.write(text + "\n")


# libpam through ctypes, as GDM's worker calls it: pam_start, pam_authenticate, pam_acct_mgmt, pam_end (the structs
# and the libraries are support.pam's, which the suites' own conversations use).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from support.pam import (  # noqa: E402
    CONV_FUNC as CONV,
    PAM_CONV_ERR,
    PAM_ERROR_MSG,
    PAM_PROMPT_ECHO_OFF,
    PAM_PROMPT_ECHO_ON,
    PAM_SUCCESS,
    PAM_TEXT_INFO,
    PamConv,
    PamResponse,
    libc,
    libpam,
)

libc.strdup.restype = ctypes.c_void_p
libc.strdup.argtypes = [ctypes.c_char_p]
libpam.pam_start.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(PamConv), ctypes.POINTER(ctypes.c_void_p)]
libpam.pam_acct_mgmt.argtypes = [ctypes.c_void_p, ctypes.c_int]


def emit(verifier, signal, *args):
    """A signal of the verifier, from the main loop (PAM runs on its own thread)."""
    GLib.idle_add(lambda: (getattr(verifier, "emit_" + signal)(*args), False)[1])


class Conversation:
    """One run of the PAM stack `service` for `user`, on its own thread; answers come from AnswerQuery."""

    def __init__(self, verifier, service, user, reauthentication):
        self.verifier, self.service, self.user = verifier, service, user
        self.reauthentication = reauthentication
        self.answers = queue.Queue()
        self.cancelled = False
        self.conv = CONV(self.converse)
        threading.Thread(target=self.run, daemon=True).start()

    def converse(self, count, messages, responses, _appdata):
        replies = libc.calloc(count, ctypes.sizeof(PamResponse))
        if not replies:
            return PAM_CONV_ERR
        array = ctypes.cast(replies, ctypes.POINTER(PamResponse))
        for i in range(count):
            style = messages[i].contents.msg_style
            text = (messages[i].contents.msg or b"").decode("utf-8", "replace")
            if style in (PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_ON):
                note("asked %s" % text)
                emit(
                    self.verifier,
                    "secret_info_query" if style == PAM_PROMPT_ECHO_OFF else "info_query",
                    self.service,
                    text,
                )
                answer = self.answers.get()
                if answer is None or self.cancelled:
                    return PAM_CONV_ERR  # the caller frees nothing of ours on an error; the few bytes leak
                array[i].resp = libc.strdup(answer.encode())
            elif style == PAM_ERROR_MSG:
                note("problem %s" % text)
                emit(self.verifier, "problem", self.service, text)
            elif style == PAM_TEXT_INFO:
                note("info %s" % text)
                emit(self.verifier, "info", self.service, text)
        responses[0] = array
        return PAM_SUCCESS

    def run(self):
        handle = ctypes.c_void_p()
        conv = PamConv(self.conv, None)
        status = libpam.pam_start(self.service.encode(), self.user.encode(), ctypes.byref(conv), ctypes.byref(handle))
        if status == PAM_SUCCESS:
            status = libpam.pam_authenticate(handle, 0)
            if status == PAM_SUCCESS:
                status = libpam.pam_acct_mgmt(handle, 0)
            libpam.pam_end(handle, status)
        note("pam %s %s %d%s" % (self.service, self.user, status, " cancelled" if self.cancelled else ""))
        if self.cancelled:
            return
        if status == PAM_SUCCESS:
            emit(self.verifier, "verification_complete", self.service)
            if self.reauthentication:
                GLib.idle_add(lambda: (login1.unlock(), False)[1])
        else:
            # GDM's words for a failed run, then the end of the conversation.
            emit(self.verifier, "problem", self.service, "Sorry, that didn't work. Please try again.")
            emit(self.verifier, "conversation_stopped", self.service)

    def answer(self, text):
        self.answers.put(text)

    def cancel(self):
        self.cancelled = True
        self.answers.put(None)


class Channel:
    """A private D-Bus server with one UserVerifier: what OpenReauthenticationChannel / OpenSession hand out."""

    count = 0

    def __init__(self, user, reauthentication):
        Channel.count += 1
        self.user, self.reauthentication = user, reauthentication
        self.conversations = {}
        self.connections = []
        path = os.path.join(job["service_dir"], "verifier-%d" % Channel.count)
        observer = Gio.DBusAuthObserver()
        observer.connect("authorize-authenticated-peer", lambda *_: True)
        self.server = Gio.DBusServer.new_sync(
            "unix:path=" + path, Gio.DBusServerFlags.NONE, Gio.dbus_generate_guid(), observer, None
        )
        self.server.connect("new-connection", self.connected)
        self.server.start()
        os.chmod(path, 0o666)  # the shell, the user's, connects to root's socket (GDM's are the same)
        self.address = self.server.get_client_address()

    def connected(self, _server, connection):
        verifier = Gdm.UserVerifierSkeleton()
        verifier.connect("handle-enable-extensions", lambda v, call, _e: (v.complete_enable_extensions(call), True)[1])
        verifier.connect("handle-begin-verification", self.begin)
        verifier.connect("handle-begin-verification-for-user", self.begin_for_user)
        verifier.connect("handle-answer-query", self.answer)
        verifier.connect("handle-cancel", self.cancel)
        verifier.export(connection, "/org/gnome/DisplayManager/Session")
        # GDM's greeter also talks to its Greeter interface here; none of its methods is needed (each refused).
        greeter = Gdm.GreeterSkeleton()
        greeter.export(connection, "/org/gnome/DisplayManager/Session")
        self.connections.append((connection, greeter))
        self.connections.append((connection, verifier))
        return True

    def start(self, verifier, service, user):
        old = self.conversations.pop(service, None)
        if old:
            old.cancel()
        note("begin %s %s" % (service, user))
        self.conversations[service] = Conversation(verifier, service, user, self.reauthentication)
        verifier.emit_conversation_started(service)

    def begin(self, verifier, call, service):
        verifier.complete_begin_verification(call)
        self.start(verifier, service, self.user)
        return True

    def begin_for_user(self, verifier, call, service, user):
        verifier.complete_begin_verification_for_user(call)
        self.start(verifier, service, user)
        return True

    def answer(self, verifier, call, service, text):
        verifier.complete_answer_query(call)
        conversation = self.conversations.get(service)
        if conversation:
            conversation.answer(text)
        return True

    def cancel(self, verifier, call):
        verifier.complete_cancel(call)
        note("cancel")
        for conversation in self.conversations.values():
            conversation.cancel()
        self.conversations.clear()
        return True


channels = []


def open_reauthentication_channel(manager, call, user):
    if job.get("greeter"):
        # At the login screen no one has a session to reauthenticate: GDM refuses, and the greeter opens one.
        call.return_dbus_error("org.freedesktop.DBus.Error.AccessDenied", "no session for %s" % user)
        return True
    channel = Channel(user, True)
    channels.append(channel)
    note("reauthentication %s" % user)
    manager.complete_open_reauthentication_channel(call, channel.address)
    return True


def open_session(manager, call):
    channel = Channel(job["user"], False)
    channels.append(channel)
    note("session")
    manager.complete_open_session(call, channel.address)
    return True


LOGIN1 = """
<node>
  <interface name="org.freedesktop.login1.Manager">
    <method name="GetSession"><arg type="s" direction="in"/><arg type="o" direction="out"/></method>
    <method name="GetSessionByPID"><arg type="u" direction="in"/><arg type="o" direction="out"/></method>
    <method name="CanSuspend"><arg type="s" direction="out"/></method>
    <signal name="PrepareForSleep"><arg type="b"/></signal>
  </interface>
  <interface name="org.freedesktop.login1.User">
    <property name="Display" type="(so)" access="read"/>
    <property name="Sessions" type="a(so)" access="read"/>
  </interface>
  <interface name="org.freedesktop.login1.Session">
    <signal name="Lock"/><signal name="Unlock"/>
    <property name="Active" type="b" access="read"/>
    <property name="Class" type="s" access="read"/>
    <property name="Id" type="s" access="read"/>
    <property name="Remote" type="b" access="read"/>
    <property name="Type" type="s" access="read"/>
    <property name="State" type="s" access="read"/>
    <property name="LockedHint" type="b" access="read"/>
    <method name="SetLockedHint"><arg type="b" direction="in"/></method>
  </interface>
</node>
"""


class Login1:
    def __init__(self, connection):
        self.connection = connection
        self.session_path = "/org/freedesktop/login1/session/" + job["session"]
        self.locked_hint = False
        info = Gio.DBusNodeInfo.new_for_xml(LOGIN1)
        for path, interface in (
            ("/org/freedesktop/login1", "org.freedesktop.login1.Manager"),
            ("/org/freedesktop/login1/user/self", "org.freedesktop.login1.User"),
            (self.session_path, "org.freedesktop.login1.Session"),
        ):
            connection.register_object(path, info.lookup_interface(interface), self.call, self.get, None)

    def call(self, _connection, _sender, _path, _interface, method, parameters, invocation):
        if method in ("GetSession", "GetSessionByPID"):
            invocation.return_value(GLib.Variant("(o)", (self.session_path,)))
        elif method == "CanSuspend":
            invocation.return_value(GLib.Variant("(s)", ("na",)))
        elif method == "SetLockedHint":
            self.locked_hint = parameters.unpack()[0]
            note("locked hint %s" % self.locked_hint)
            invocation.return_value(None)
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def get(self, _connection, _sender, _path, _interface, name):
        values = {
            "Display": GLib.Variant("(so)", (job["session"], self.session_path)),
            "Sessions": GLib.Variant("a(so)", [(job["session"], self.session_path)]),
            "Active": GLib.Variant("b", True),
            "Class": GLib.Variant("s", "user"),
            "Id": GLib.Variant("s", job["session"]),
            "Remote": GLib.Variant("b", False),
            "Type": GLib.Variant("s", "x11"),
            "State": GLib.Variant("s", "active"),
            "LockedHint": GLib.Variant("b", self.locked_hint),
        }
        return values.get(name)

    def unlock(self):
        note("unlock")
        self.connection.emit_signal(None, self.session_path, "org.freedesktop.login1.Session", "Unlock", None)


bus = Gio.DBusConnection.new_for_address_sync(
    job["bus"],
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
    None,
    None,
)
manager = Gdm.ManagerSkeleton()
manager.props.version = "43.0"
manager.connect("handle-open-reauthentication-channel", open_reauthentication_channel)
manager.connect("handle-open-session", open_session)
manager.connect("handle-register-session", lambda m, call, _d: (m.complete_register_session(call), True)[1])
manager.connect("handle-register-display", lambda m, call, _d: (m.complete_register_display(call), True)[1])
manager.export(bus, "/org/gnome/DisplayManager/Manager")
login1 = Login1(bus)
for name in ("org.gnome.DisplayManager", "org.freedesktop.login1"):
    bus.call_sync(
        "org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus",
        "RequestName",
        GLib.Variant("(su)", (name, 4)),
        None,
        Gio.DBusCallFlags.NONE,
        -1,
        None,
    )
note("ready")
GLib.MainLoop().run()
