import CPatternPad
import PatternCoreEmbedded

/// The greeter's C main (Sources/Surfaces/lightdm/main) calls this once it is connected to the daemon, the process
/// non-dumpable and the secret page locked. Returns the exit status: 0 once the daemon started the session (or
/// returned to the locked one).
@_cdecl("pattern_greeter_loop")
func patternGreeterLoop(_ calls: UnsafePointer<pattern_greeter_daemon>?) -> Int32 {
    guard let calls, PadSecret.setUp() else { return 1 }
    if pattern_pad_secret_locked() == 0 {
        pattern_pad_log("could not lock the secret's page in memory (mlock); going on")
    }
    // The login screen's X server: the greeter is its only client, the root window its screen.
    guard pattern_pad_x11_open() == 0 else { return 1 }
    pattern_pad_x11_take_keyboard()
    var loop = GreeterLoop(calls: calls, now: pattern_pad_now_ms())
    let status = loop.run()
    pattern_pad_x11_close()
    return status
}

/// The lock screen's loop (PadLoop: the pointer polled, every segment between two samples hit-tested, a frame when
/// something changed) at the LightDM daemon: its events go to the session, the keys come from the X server, and
/// GLib's main loop waits with the X connection. A tap on the name shows the next user, on the session's name the
/// next session. When PAM says yes the daemon starts the session (or returns to the locked one).
struct GreeterLoop {
    var pad: PadLoop
    let daemon: GreeterDaemon
    var users: [(login: [UInt8], name: [UInt8], loggedIn: Bool, session: [UInt8]?)]
    var userIndex = 0
    var sessions: [(key: [UInt8], name: [UInt8])]
    var sessionIndex = 0
    var wasPressed = true
    /// A lock (light-locker, dm-tool lock): the pattern returns to the running session, so no session is offered.
    let lock: Bool
    /// The corner's buttons: what each calls (PATTERN_GREETER_SHUT_DOWN ...), as shown right to left.
    var powers: [Int32] = []
    var clockMinute: Int64 = -1
    /// Read once: the greeter's keyboard is the X server's.
    var keyboardLayout: [UInt8] = []

    init(calls: UnsafePointer<pattern_greeter_daemon>, now: Int64) {
        var settings = PadSettings.load()
        // The login screen never gives up (the lock screen's pad ends after XSECURELOCK_AUTH_TIMEOUT).
        settings.timeoutSeconds = Int64(1) << 40
        pad = PadLoop(settings: settings, now: now)
        daemon = GreeterDaemon(calls: calls, user: nil)
        lock = daemon.lockHint
        // greeter-hide-users (Debian's default): nobody listed, PAM asks the name (an echo-on prompt, answered from
        // the field); at a lock only those logged in, so the locked session's user is offered.
        let listed = daemon.users()
        users = !daemon.hideUsersHint ? listed : (lock ? listed.filter { $0.loggedIn } : [])
        sessions = daemon.sessions()
        userIndex = Self.firstUser(users, hint: daemon.selectUserHint, lock: lock)
        choose(user: userIndex)
        keyboardLayout = daemon.layout
        let labels: [(Int32, [UInt8])] = [
            (Int32(PATTERN_GREETER_SHUT_DOWN), localized("Shut Down")),
            (Int32(PATTERN_GREETER_RESTART), localized("Restart")),
            (Int32(PATTERN_GREETER_SUSPEND), localized("Sleep")),
        ]
        for (which, label) in labels where daemon.canPower(which) {
            powers.append(which)
            pad.renderer.corner.append(label)
        }
    }

    /// The machine's name, the time and the date, and the keyboard layout at the top, anew each minute.
    mutating func showClock() {
        let minute = pattern_pad_wall_seconds() / 60
        guard minute != clockMinute else { return }
        clockMinute = minute
        var clock = [UInt8](repeating: 0, count: 128)
        let n = clock.withUnsafeMutableBufferPointer { pattern_pad_clock($0.baseAddress, $0.count) }
        let gap: [UInt8] = [0x20, 0x20, 0x20]
        var header = daemon.hostname + gap + Array(clock[0..<min(n, clock.count)])
        if !keyboardLayout.isEmpty { header += gap + keyboardLayout }
        pad.renderer.header = header
        pad.dirty = true
    }

    /// The hinted user; at a lock without a hint, the first one logged in (the locked session's); else the first.
    static func firstUser(
        _ users: [(login: [UInt8], name: [UInt8], loggedIn: Bool, session: [UInt8]?)], hint: [UInt8]?, lock: Bool
    ) -> Int {
        if let hint, let i = users.firstIndex(where: { $0.login == hint }) { return i }
        if lock, let i = users.firstIndex(where: { $0.loggedIn }) { return i }
        return 0
    }

    /// Asks PAM about user `index` (an authentication under way is cancelled), with the session they last chose.
    mutating func choose(user index: Int) {
        userIndex = index
        var link = daemon
        if index < users.count {
            link.user = users[index].login
            pad.renderer.userName = users[index].name
            let last = users[index].session ?? daemon.defaultSession
            sessionIndex = sessions.firstIndex(where: { $0.key == last }) ?? 0
        } else {
            pad.renderer.userName = []
        }
        var session = pad.session
        if session.conversing { daemon.cancel() }
        session.conversing = false
        session.daemon = link
        session.wipeAll()
        session.prompt = nil
        session.awaiting = .nothing
        session.pattern = .unknown
        session.message = nil
        session.quietRuns = 0
        session.nextStartAt = 0
        pad.session = session
        pad.renderer.footer = !lock && sessionIndex < sessions.count ? sessions[sessionIndex].name : []
        pad.dirty = true
    }

    mutating func run() -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let now = pattern_pad_now_ms()
            readDaemon(now: now, &buffer)
            readKeys(now: now)
            showClock()
            if let status = pad.step(now: now) {
                if status == 0 && startSession() { return 0 }
                // Esc, or a session that did not start: begin again.
                pad.session.finished = nil
                pad.session.succeeded = false
                pad.session.nextStartAt = now
                pad.dirty = true
            }
            tapped(now: now)
            let fd = pattern_pad_x11_fd()
            daemon.calls.pointee.wait?(fd, fd < 0 ? 0 : pad.interval(now: now))
        }
    }

    mutating func startSession() -> Bool {
        pad.renderer.draw(
            pad.session, layouts: pad.layouts, origins: pad.origins, pointer: pad.pointer, now: pattern_pad_now_ms())
        pattern_pad_x11_sync()
        let key = sessionIndex < sessions.count ? sessions[sessionIndex].key : nil
        if daemon.startSession(key) { return true }
        pad.session.message = .other(localized("The session could not be started."))
        pad.session.messageRoute = false
        pad.session.messageAt = pattern_pad_now_ms()
        return false
    }

    /// The daemon's events: PAM's prompts and messages as authproto's packets (P U i e), its end as authproto's exit.
    mutating func readDaemon(now: Int64, _ buffer: inout [UInt8]) {
        guard let next = daemon.calls.pointee.next_event else { return }
        while true {
            var length = 0
            let kind = buffer.withUnsafeMutableBufferPointer { next($0.baseAddress, $0.count, &length) }
            let bytes = Array(buffer[0..<min(length, buffer.count)])
            switch Int(kind) {
            case Int(PATTERN_GREETER_EVENT_NONE): return
            case Int(PATTERN_GREETER_EVENT_PROMPT_SECRET):
                pad.session.handle(AuthprotoPacket(type: UInt8(ascii: "P"), bytes: bytes), now: now)
            case Int(PATTERN_GREETER_EVENT_PROMPT_TEXT):
                pad.session.handle(AuthprotoPacket(type: UInt8(ascii: "U"), bytes: bytes), now: now)
            case Int(PATTERN_GREETER_EVENT_MESSAGE_INFO):
                pad.session.handle(AuthprotoPacket(type: UInt8(ascii: "i"), bytes: bytes), now: now)
            case Int(PATTERN_GREETER_EVENT_MESSAGE_ERROR):
                pad.session.handle(AuthprotoPacket(type: UInt8(ascii: "e"), bytes: bytes), now: now)
            case Int(PATTERN_GREETER_EVENT_AUTHENTICATED):
                pad.session.ended(status: 0, now: now)
            default:
                pad.session.ended(status: 1, now: now)
            }
            pad.dirty = true
        }
    }

    /// Keys typed on the screen, as xsecurelock would have written them to the pad.
    mutating func readKeys(now: Int64) {
        var chunk: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while true {
            let n = withUnsafeMutableBytes(of: &chunk) { raw in
                pattern_pad_x11_read_keys(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
            }
            if n == 0 { return }
            withUnsafeMutableBytes(of: &chunk) { raw in
                for i in 0..<min(Int(n), raw.count) { pad.session.key(raw[i], now: now) }
                // Typed keys may be a password: not left on the stack.
                pattern_pad_wipe(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
            }
            pad.dirty = true
        }
    }

    /// A fresh press on a corner button, on the name (the next user) or on the session's name (the next session),
    /// not on the grid. Where the pattern is offered a press starts a drawing anywhere: one that has taken no dot
    /// yet is a tap on what it pressed, and its empty drawing is dropped.
    mutating func tapped(now: Int64) {
        let pressed = pad.pressed
        defer { wasPressed = pressed }
        guard pressed && !wasPressed else { return }
        if pad.session.drawing && PadSecret.trace.pointee.count != 0 { return }
        let monitor = pad.monitorIndex(of: pad.pointer)
        guard monitor >= 0 && monitor < pad.layouts.count else { return }
        let layout = pad.layouts[monitor]
        let x = pad.pointer.x &- pad.origins[monitor].x
        let y = pad.pointer.y &- pad.origins[monitor].y
        let places = PadRenderer.cornerPlaces(pad.renderer.corner, layout: layout)
        for (which, place) in zip(powers, places)
        where abs(x &- place.x) <= place.halfWidth && abs(y &- place.y) <= layout.textSize * 3 / 2 {
            pad.session.release(now: now)
            if !daemon.power(which) { pattern_pad_log("the daemon refused to power off, restart or sleep") }
            return
        }
        if y > layout.nameY - layout.nameSize * 2 && y < layout.nameY + layout.nameSize && users.count > 1 {
            pad.session.release(now: now)
            choose(user: (userIndex + 1) % users.count)
        } else if y > layout.height - layout.textSize * 3 && sessions.count > 1 && !lock {
            pad.session.release(now: now)
            sessionIndex = (sessionIndex + 1) % sessions.count
            pad.renderer.footer = sessions[sessionIndex].name
            pad.dirty = true
        }
    }
}
