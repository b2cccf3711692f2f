import CPatternPad
import PatternCoreEmbedded

/// main.c calls this once the process is non-dumpable and the secret page locked. Returns the exit status: 0
/// only when authproto exited 0.
@_cdecl("pattern_pad_run")
func patternPadRun() -> Int32 {
    guard PadSecret.setUp() else { return 1 }
    if pattern_pad_secret_locked() == 0 {
        // As authproto_pam does: an unlockable screen would be worse than a secret that may reach swap.
        pattern_pad_log("could not lock the secret's page in memory (mlock); going on")
    }
    guard pattern_pad_x11_open() == 0 else { return 1 }
    var loop = PadLoop(settings: PadSettings.load(), now: pattern_pad_now_ms())
    let status = loop.run()
    pattern_pad_x11_close()
    return status
}

/// Polls the pointer (xsecurelock's grab keeps every pointer event from us), reads keys and authproto, and draws
/// a frame when something visible changed. Polling rates: 100 Hz while the button is down (a drag) and for
/// half a second after the pointer moved (the drawn pointer follows), 10 Hz when nothing moves.
struct PadLoop {
    static let drawingIntervalMs: Int32 = 10
    static let movingIntervalMs: Int32 = 10
    static let idleIntervalMs: Int32 = 100

    var session: PadSession
    var renderer: PadRenderer
    var layouts: [PadLayout] = []
    var origins: [(x: Int32, y: Int32)] = []
    var pointer: (x: Int32, y: Int32) = (-1, -1)
    var pressed = false
    /// A press counts only after the button was seen up (it may be down when the pad starts).
    var armed = false
    var lastMove: Int64 = 0
    var stdinOpen = true

    init(settings: PadSettings, now: Int64) {
        session = PadSession(settings: settings, now: now)
        renderer = PadRenderer(userName: PadText.bytes(pattern_pad_user_name(), limit: 255) ?? [])
        pattern_pad_stdin_nonblocking()
        measureMonitors()
    }

    mutating func measureMonitors() {
        layouts = []
        origins = []
        let count = pattern_pad_monitor_count()
        for i in 0..<count {
            var x: Int32 = 0
            var y: Int32 = 0
            var w: Int32 = 0
            var h: Int32 = 0
            pattern_pad_monitor(i, &x, &y, &w, &h)
            layouts.append(PadLayout(width: w, height: h, spacing: session.settings.spacing))
            origins.append((x, y))
        }
    }

    var dirty = true
    var frameClock = PadFrameClock()

    mutating func run() -> Int32 {
        while true {
            let now = pattern_pad_now_ms()
            if let status = step(now: now) { return end(status, now: now) }
            var fds: [Int32] = [stdinOpen ? 0 : -1, session.run?.fromChild ?? -1, session.run?.exitWatch ?? -1]
            _ = pattern_pad_wait(&fds, 3, interval(now: now))
        }
    }

    /// One turn: PAM's words, the screen's events, the pointer and the keys, and a frame when something visible
    /// changed. Returns the exit status once the session has finished (`end` then closes). The LightDM greeter takes
    /// the same turns.
    mutating func step(now: Int64) -> Int32? {
        let beforeMessageAt = session.messageAt
        let beforePrompt = session.prompt
        session.tick(now: now)
        if let status = session.finished { return status }
        if session.messageAt != beforeMessageAt || session.prompt != beforePrompt { dirty = true }
        if pattern_pad_x11_events() != 0 {
            measureMonitors()
            dirty = true
        }
        if samplePointer(now: now) { dirty = true }
        if readKeys(now: now) { dirty = true }
        if let status = session.finished { return status }
        if frameClock.changed(session, now: now) { dirty = true }
        if dirty {
            renderer.draw(session, layouts: layouts, origins: origins, pointer: pointer, now: now)
            dirty = false
        }
        return nil
    }

    /// The pad's last moment: the cancelled runs still ending killed, and the success frame when authproto said yes
    /// (drawn before the exit that opens the screen).
    mutating func end(_ status: Int32, now: Int64) -> Int32 {
        session.killRetiring()
        if session.succeeded {
            renderer.draw(session, layouts: layouts, origins: origins, pointer: pointer, now: now)
            pattern_pad_x11_sync()
            // No wait added (make bench: a 40 ms hold took the unlock from 1.43 to 1.99 yescrypt verifications):
            // the frame stays on screen until the locker takes its window down, which is when the screen opens.
            pattern_pad_x11_close_keeping_frame()
        }
        return status
    }

    func interval(now: Int64) -> Int32 {
        if pressed || session.shakeUntil > now { return Self.drawingIntervalMs }
        if now - lastMove < 500 { return Self.movingIntervalMs }
        return Self.idleIntervalMs
    }

    /// Returns whether the frame must be redrawn.
    mutating func samplePointer(now: Int64) -> Bool {
        var x: Int32 = 0
        var y: Int32 = 0
        var down: Int32 = 0
        guard pattern_pad_pointer(&x, &y, &down) == 0 else { return false }
        let moved = x != pointer.x || y != pointer.y
        let previous = pointer
        pointer = (x, y)
        if moved {
            lastMove = now
            session.lastActivity = now
        }
        let isDown = down != 0
        defer { pressed = isDown }
        if !isDown {
            armed = true
            if session.drawing {
                session.release(now: now)
                return true
            }
            return moved
        }
        guard armed else { return moved }
        let monitor = session.drawing ? session.traceMonitor : monitorIndex(of: previous.x >= 0 ? previous : pointer)
        guard monitor >= 0 && monitor < layouts.count else { return moved }
        let local = (x: x &- origins[monitor].x, y: y &- origins[monitor].y)
        if !pressed {
            session.lastActivity = now
            let start = previous.x >= 0 ? previous : pointer
            session.press(
                monitor: monitor, grid: layouts[monitor].grid,
                from: (start.x &- origins[monitor].x, start.y &- origins[monitor].y), to: local, now: now)
            return true
        }
        if moved { session.drag(grid: layouts[monitor].grid, to: local) }
        return moved
    }

    func monitorIndex(of point: (x: Int32, y: Int32)) -> Int {
        for i in 0..<layouts.count {
            let o = origins[i]
            if point.x >= o.x && point.y >= o.y && point.x < o.x &+ layouts[i].width
                && point.y < o.y &+ layouts[i].height
            {
                return i
            }
        }
        return layouts.isEmpty ? -1 : 0
    }

    /// Keys from xsecurelock (stdin); returns whether any came.
    mutating func readKeys(now: Int64) -> Bool {
        guard stdinOpen else { return false }
        var any = false
        var chunk: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while session.finished == nil {
            let n = withUnsafeMutableBytes(of: &chunk) { raw in
                pattern_pad_read(0, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
            }
            if n == -2 { break }
            if n <= 0 {
                stdinOpen = false
                break
            }
            any = true
            withUnsafeMutableBytes(of: &chunk) { raw in
                for i in 0..<Int(n) { session.key(raw[i], now: now) }
                // Typed keys may be a password: not left on the stack.
                pattern_pad_wipe(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
            }
        }
        return any
    }
}
