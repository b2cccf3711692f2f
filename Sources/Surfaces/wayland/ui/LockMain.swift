import CPatternLock
import CPatternPad
import PatternCoreEmbedded
import PatternPad

/// main.c calls this once the process is non-dumpable, the secret page locked and the cairo painter in place.
/// Returns the exit status: 0 only after the PAM child exited 0 and the session was unlocked.
@_cdecl("pattern_lock_run")
func patternLockRun() -> Int32 {
    guard PadSecret.setUp() else { return 1 }
    if pattern_pad_secret_locked() == 0 {
        pattern_pad_log("could not lock the secret's page in memory (mlock); going on")
    }
    guard pattern_lock_open() > 0 else { return 1 }
    var loop = LockLoop(settings: LockLoop.settings(), now: pattern_pad_now_ms())
    let status = loop.run()
    pattern_lock_close()
    return status
}

/// The Wayland lock screen's loop: the pad's conversation (PadSession, one PAM child at a time) and drawing
/// (PadRenderer), fed by the compositor's events instead of xsecurelock's polled pointer and stdin. Every event is
/// taken in order (a drag's every motion is hit-tested), and nothing here waits on PAM: the child's answers are
/// read when they come, between events.
///
/// A locker, unlike the pad, never ends locked: Esc, the timeout or a PAM child that gives up start the screen
/// again (a new session, the drawing wiped), and only PAM's yes unlocks.
struct LockLoop {
    static let idleIntervalMs: Int32 = 1000
    static let busyIntervalMs: Int32 = 20
    static let countdownIntervalMs: Int32 = 100
    /// Monitors are apart by this much in the loop's one coordinate space (Wayland gives surface coordinates only).
    static let monitorStride: Int32 = 1 << 15

    let settings: PadSettings
    var session: PadSession
    var renderer: PadRenderer
    var layouts: [PadLayout] = []
    var origins: [(x: Int32, y: Int32)] = []
    var pointer: (x: Int32, y: Int32) = (-1, -1)
    var pressed = false

    /// The pad's settings, with this locker's own PAM child (service pattern-lock) unless PATTERN_LOCK_PAM names
    /// another by its absolute path.
    static func settings() -> PadSettings {
        var settings = PadSettings.load()
        settings.authproto = Array("/usr/libexec/pam-pattern/pattern-lock-pam".utf8)
        if let value = PadSettings.variable("PATTERN_LOCK_PAM"), value.first == UInt8(ascii: "/") {
            settings.authproto = value
        }
        return settings
    }

    init(settings: PadSettings, now: Int64) {
        self.settings = settings
        session = PadSession(settings: settings, now: now)
        renderer = PadRenderer(userName: PadText.bytes(pattern_pad_user_name(), limit: 255) ?? [])
        measureMonitors()
    }

    mutating func measureMonitors() {
        layouts = []
        origins = []
        for i in 0..<pattern_lock_monitor_count() {
            var width: Int32 = 0
            var height: Int32 = 0
            var scale: Int32 = 1
            pattern_lock_monitor(i, &width, &height, &scale)
            // A configured spacing is in the output's logical pixels: the same size on a HiDPI screen.
            layouts.append(
                PadLayout(width: max(width, 1), height: max(height, 1), spacing: settings.spacing &* scale))
            origins.append((Int32(i) &* Self.monitorStride, 0))
        }
    }

    mutating func run() -> Int32 {
        var dirty = true
        var frameClock = PadFrameClock()
        while true {
            let now = pattern_pad_now_ms()
            let beforeMessageAt = session.messageAt
            let beforePrompt = session.prompt
            session.tick(now: now)
            if session.messageAt != beforeMessageAt || session.prompt != beforePrompt { dirty = true }
            if let status = session.finished {
                if status == 0 { return unlock(now: now) }
                startAgain(now: now)
                dirty = true
            }
            if pattern_lock_layout_changed() != 0 {
                measureMonitors()
                dirty = true
            }
            if pattern_lock_needs_frame() != 0 { dirty = true }
            if takeInput(now: now) { dirty = true }
            if session.finished != nil { continue }
            if frameClock.changed(session, now: now) { dirty = true }
            if dirty {
                renderer.draw(session, layouts: layouts, origins: origins, pointer: pointer, now: now)
                dirty = false
            }
            var fds: [Int32] = [session.run?.fromChild ?? -1, session.run?.exitWatch ?? -1]
            if pattern_lock_wait(&fds, 2, interval(now: now)) < 0 {
                // The compositor went away: nothing is left to unlock or to draw on.
                pattern_pad_log("lost the connection to the compositor")
                session.cancel()
                session.killRetiring()
                return 1
            }
        }
    }

    /// A new screen after Esc, the timeout or a run that gave up: the session stays locked.
    mutating func startAgain(now: Int64) {
        session.killRetiring()
        session.wipeAll()
        session = PadSession(settings: settings, now: now)
        pressed = false
    }

    /// PAM said yes: the success frame, then the session unlocked.
    mutating func unlock(now: Int64) -> Int32 {
        session.killRetiring()
        renderer.draw(session, layouts: layouts, origins: origins, pointer: pointer, now: now)
        pattern_lock_unlock()
        return 0
    }

    func interval(now: Int64) -> Int32 {
        if pressed || session.shakeUntil > now || session.errorUntil > now || session.run == nil
            || !session.retiring.isEmpty
        {
            return Self.busyIntervalMs
        }
        // The countdown's seconds turn on time.
        if case .wait = session.message { return Self.countdownIntervalMs }
        return Self.idleIntervalMs
    }

    /// Takes every queued event; returns whether the frame must be redrawn.
    mutating func takeInput(now: Int64) -> Bool {
        var any = false
        var monitor: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var length = 0
        var text: (UInt64, UInt64) = (0, 0)
        while session.finished == nil {
            let kind = withUnsafeMutableBytes(of: &text) { raw in
                pattern_lock_input(
                    &monitor, &x, &y, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &length)
            }
            if kind == Int32(PATTERN_PAD_INPUT_NONE) { break }
            any = true
            session.lastActivity = now
            switch kind {
            case Int32(PATTERN_PAD_INPUT_MOTION): motion(monitor: Int(monitor), x: x, y: y)
            case Int32(PATTERN_PAD_INPUT_PRESS): press(monitor: Int(monitor), x: x, y: y, now: now)
            case Int32(PATTERN_PAD_INPUT_RELEASE):
                pressed = false
                session.release(now: now)
            case Int32(PATTERN_PAD_INPUT_TEXT):
                withUnsafeMutableBytes(of: &text) { raw in
                    for i in 0..<min(length, raw.count) { session.key(raw[i], now: now) }
                    // Typed keys may be a password: not left on the stack.
                    pattern_pad_wipe(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
                }
            case Int32(PATTERN_PAD_INPUT_ENTER): session.key(0x0D, now: now)
            case Int32(PATTERN_PAD_INPUT_ESCAPE): session.key(0x1B, now: now)
            case Int32(PATTERN_PAD_INPUT_BACKSPACE): session.key(0x08, now: now)
            case Int32(PATTERN_PAD_INPUT_CLEAR): session.key(0x15, now: now)
            default: break
            }
        }
        return any
    }

    mutating func motion(monitor: Int, x: Int32, y: Int32) {
        guard monitor >= 0 && monitor < layouts.count else { return }
        if x >= 0 { pointer = (origins[monitor].x &+ x, origins[monitor].y &+ y) }
        // A drawing stays on the monitor it began on (as the pad's): motions on another surface do not extend it.
        if pressed && session.drawing && session.traceMonitor == monitor {
            session.drag(grid: layouts[monitor].grid, to: (x, y))
        }
    }

    mutating func press(monitor: Int, x: Int32, y: Int32, now: Int64) {
        guard monitor >= 0 && monitor < layouts.count, !pressed else { return }
        pressed = true
        session.press(monitor: monitor, grid: layouts[monitor].grid, from: (x, y), to: (x, y), now: now)
    }
}
