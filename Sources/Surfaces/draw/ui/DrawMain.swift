import CPatternPad
import PatternCoreEmbedded

/// pattern-draw's main.c calls this once the process is non-dumpable and the secret page locked, with
/// patternctl's pipe on stdin and its own on stdout. Returns the exit status: 0 once the new pattern is stored.
@_cdecl("pattern_draw_run")
func patternDrawRun() -> Int32 {
    guard PadSecret.setUp() else { return 1 }
    let title = localized("Set your unlock pattern")
    guard pattern_pad_x11_open_window(title, title.count, DrawLoop.width, DrawLoop.height) == 0 else { return 1 }
    var loop = DrawLoop(settings: PadSettings.load())
    let status = loop.run()
    pattern_pad_x11_close()
    return status
}

/// Reads patternctl's packets (stdin) and the window's events, draws a frame when something visible changed.
/// Never waits longer than a frame while something moves, nor on patternctl: its words arrive when they arrive.
struct DrawLoop {
    static let width: Int32 = 520
    static let height: Int32 = 740
    /// Dots a finger takes: 100 px apart, each taken within 30 px of its centre (a 60 px hit area, Android's
    /// 0.6 of a cell; at least 48 px at 96 dpi), drawn 20 px wide. A configured spacing narrower than
    /// `minimumSpacing` (the lock screen's XSECURELOCK_PATTERN_SIZE) is not used here.
    static let spacing: Int32 = 100
    static let minimumSpacing: Int32 = 80
    static let dotRadius: Int32 = 10

    var session: DrawSession
    var renderer = DrawRenderer()
    var reader = AuthprotoReader()
    var layout: PadLayout
    var pointer: (x: Int32, y: Int32) = (-1, -1)
    var stdinOpen = true
    var lastWaitShown: Int64 = 0

    init(settings: PadSettings) {
        session = DrawSession(settings: settings)
        layout = Self.layout(width: Self.width, height: Self.height, settings: settings)
        pattern_pad_stdin_nonblocking()
        measure()
    }

    mutating func measure() {
        var x: Int32 = 0
        var y: Int32 = 0
        var w: Int32 = Self.width
        var h: Int32 = Self.height
        if pattern_pad_monitor_count() > 0 { pattern_pad_monitor(0, &x, &y, &w, &h) }
        layout = Self.layout(width: w, height: h, settings: session.settings)
    }

    static func layout(width: Int32, height: Int32, settings: PadSettings) -> PadLayout {
        PadLayout(
            width: width, height: height, spacing: settings.spacing >= minimumSpacing ? settings.spacing : 0,
            fitted: spacing, minimumDotRadius: dotRadius)
    }

    mutating func run() -> Int32 {
        var dirty = true
        var wasShaking = false
        while true {
            let now = pattern_pad_now_ms()
            if readPatternctl(now: now) { dirty = true }
            if readWindow(now: now) { dirty = true }
            if let status = session.finished { return status }
            let shaking = session.shakeUntil > now || session.tooShortUntil > now
            if shaking || wasShaking { dirty = true }
            wasShaking = shaking
            // A wait is counted down a second at a time, and ends by itself.
            let waitShown = session.secondsToWait(now: now)
            if waitShown != lastWaitShown { dirty = true }
            lastWaitShown = waitShown
            if dirty {
                renderer.draw(session, layout: layout, pointer: pointer, now: now)
                dirty = false
            }
            var fds: [Int32] = [stdinOpen ? 0 : -1]
            _ = pattern_pad_wait(&fds, 1, session.drawing || shaking ? 10 : 200)
        }
    }

    /// patternctl's packets; returns whether any came (or it closed its side).
    mutating func readPatternctl(now: Int64) -> Bool {
        guard stdinOpen else { return false }
        var any = false
        var ended = false
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBufferPointer { pattern_pad_read(0, $0.baseAddress, $0.count) }
            if n == -2 { break }
            if n <= 0 {
                ended = true
                break
            }
            chunk.withUnsafeBufferPointer { reader.feed(UnsafeBufferPointer(rebasing: $0[0..<Int(n)])) }
            any = true
        }
        // Its last words (the done packet) may come in the same read as the end: they are handled first.
        while let packet = reader.next() { session.handle(packet, now: now) }
        if reader.broken {
            pattern_pad_log("patternctl sent a malformed packet")
            ended = true
        }
        if ended {
            stdinOpen = false
            session.conversationEnded()
            return true
        }
        return any
    }

    /// The window's events; returns whether the frame must be redrawn.
    mutating func readWindow(now: Int64) -> Bool {
        var any = false
        var x: Int32 = 0
        var y: Int32 = 0
        var typed: (UInt64, UInt64) = (0, 0)
        var length = 0
        while session.finished == nil {
            let kind = withUnsafeMutableBytes(of: &typed) { raw in
                pattern_pad_window_input(
                    &x, &y, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &length)
            }
            if kind == Int32(PATTERN_PAD_INPUT_NONE) { break }
            any = true
            switch kind {
            case Int32(PATTERN_PAD_INPUT_PRESS):
                pointer = (x, y)
                if session.offersPassword && DrawRenderer.passwordButton(layout).contains(pointer) {
                    session.usePassword()
                } else {
                    session.press(grid: layout.grid, at: pointer, now: now)
                }
            case Int32(PATTERN_PAD_INPUT_MOTION):
                pointer = (x, y)
                session.drag(grid: layout.grid, to: pointer)
            case Int32(PATTERN_PAD_INPUT_RELEASE):
                pointer = (x, y)
                session.release(grid: layout.grid, at: pointer, now: now)
            case Int32(PATTERN_PAD_INPUT_TEXT):
                withUnsafeMutableBytes(of: &typed) { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    session.typed(UnsafeBufferPointer(rebasing: bytes[0..<min(length, bytes.count)]))
                    // Typed keys may be a password: not left on the stack.
                    pattern_pad_wipe(bytes.baseAddress, bytes.count)
                }
            case Int32(PATTERN_PAD_INPUT_ESCAPE), Int32(PATTERN_PAD_INPUT_CLOSE):
                session.close()
            case Int32(PATTERN_PAD_INPUT_ENTER):
                session.enter()
            case Int32(PATTERN_PAD_INPUT_TAB):
                session.usePassword()
            case Int32(PATTERN_PAD_INPUT_BACKSPACE):
                session.backspace()
            case Int32(PATTERN_PAD_INPUT_CLEAR):
                session.clearTyped()
            case Int32(PATTERN_PAD_INPUT_RESIZED):
                measure()
            default:
                break
            }
        }
        return any
    }
}
