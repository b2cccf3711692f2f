import CPatternPad
import PatternCoreEmbedded

/// The lock screen's state between frames: the PAM conversation (one authproto run at a time, restarted so the
/// person can always draw again), what was drawn or typed and where it goes, and what the screen shows.
///
/// Draw again: a wrong pattern moves the PAM stack on (to the password prompt, or to authproto_pam's next
/// try). A pattern drawn while the pattern prompt is waiting is sent to it; drawn while another prompt waits
/// (the password), the run is cancelled (`x`, nothing counted) and a new run's pattern prompt gets it. When
/// that new run does not ask for a pattern either (the pattern is locked), the drawing is dropped and the
/// module's message says why.
///
/// Nothing here waits: a cancelled run ends in the background (`retiring`, reaped at each tick) while the next run
/// asks for the pattern, so the loop reads the pointer at every frame and no drawing begun meanwhile is lost.
struct PadSession {
    let settings: PadSettings
    var run: AuthprotoRun? = nil
    /// Cancelled runs still ending (pam_unix sits out its fail delay after a cancel): reaped, or killed after
    /// `retireGraceMs`, never read.
    var retiring: [AuthprotoRun] = []
    var prompt: PadPrompt? = nil
    /// What waits in the secret page for the next prompt.
    var queued: Queued = .nothing
    /// A run was cancelled to bring the pattern prompt back for the queued drawing (once per drawing).
    var restartedForQueue = false
    /// A reply was sent; the next word from PAM says it was not accepted (success ends the run with 0).
    var awaiting: Awaiting = .nothing
    var runPrompted = false
    /// The pattern prompt was skipped once to bring the typed text to a password prompt.
    var skippedForTyped = false
    var quietRuns = 0
    var nextStartAt: Int64 = 0

    // What the screen shows.
    var drawing = false
    var traceMonitor = 0
    /// Red until then, after a wrong pattern.
    var errorUntil: Int64 = 0
    /// A drawing shorter than minlen shakes until then.
    var shakeUntil: Int64 = 0
    var shakeStart: Int64 = 0
    /// "Too short" stays under the grid until then (or the next press).
    var tooShortUntil: Int64 = 0
    var message: ModuleMessage? = nil
    var messageAt: Int64 = 0
    /// When the last reply was written.
    var sentAt: Int64 = 0
    var typedCount = 0
    var lastActivity: Int64
    /// Set when the pad must end: 0 only after authproto exited 0.
    var finished: Int32? = nil
    /// authproto exited 0: the last frame shows it before the screen opens.
    var succeeded = false

    enum Queued { case nothing, pattern, typed }
    enum Awaiting { case nothing, pattern, typed }

    static let errorMs: Int64 = 1000
    static let shakeMs: Int64 = 500
    static let tooShortMs: Int64 = 3000
    /// How long a cancelled run may take to end before it is killed (pam_unix's fail delay is 2 s).
    static let retireGraceMs: Int64 = 3000

    init(settings: PadSettings, now: Int64) {
        self.settings = settings
        self.lastActivity = now
    }

    // MARK: the conversation

    mutating func tick(now: Int64) {
        if finished != nil { return }
        settleRetiring(now: now)
        if run == nil && now >= nextStartAt { startRun() }
        if var current = run {
            current.readAvailable()
            while let packet = current.reader.next() {
                run = current
                handle(packet, now: now)
                guard let again = run else { return }
                current = again
            }
            if current.reader.broken {
                pattern_pad_log("authproto sent a malformed packet; restarting it")
                retire(current, now: now)
                run = nil
                // As a run that ended: a stand-in that keeps sending garbage is restarted with a growing pause.
                ended(status: 1, now: now)
                return
            }
            if current.ended() {
                current.close()
                run = nil
                ended(status: current.exitStatus ?? 1, now: now)
                return
            }
            run = current
        }
        if errorUntil != 0 && now >= errorUntil {
            errorUntil = 0
            if !drawing && queued != .pattern { PadSecret.trace.pointee.wipe() }
        }
        if shakeUntil != 0 && now >= shakeUntil {
            shakeUntil = 0
            if !drawing { PadSecret.trace.pointee.wipe() }
        }
        if now - lastActivity > settings.timeoutSeconds * 1000 {
            cancel()
        }
    }

    /// Cancels a run without waiting for it: the next tick may start another at once.
    private mutating func retire(_ cancelled: AuthprotoRun, now: Int64) {
        var ending = cancelled
        ending.cancel(graceMs: Self.retireGraceMs, now: now)
        retiring.append(ending)
    }

    private mutating func settleRetiring(now: Int64) {
        var index = 0
        while index < retiring.count {
            if retiring[index].settled(now: now) {
                retiring.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    private mutating func startRun() {
        guard let started = AuthprotoRun.start(path: settings.authproto) else {
            pattern_pad_log("cannot start authproto")
            finished = 1
            return
        }
        run = started
        prompt = nil
        runPrompted = false
    }

    private mutating func ended(status: Int32, now: Int64) {
        prompt = nil
        if status == 0 {
            succeeded = true
            finished = 0
            return
        }
        if awaiting != .nothing { notAccepted(now: now) }
        quietRuns = runPrompted ? 0 : quietRuns + 1
        // A run that never asked anything would otherwise be restarted in a tight loop.
        nextStartAt = now + (quietRuns == 0 ? 0 : min(5000, Int64(quietRuns) * 500))
    }

    private mutating func handle(_ packet: AuthprotoPacket, now: Int64) {
        if packet.isPrompt {
            runPrompted = true
            if awaiting != .nothing { notAccepted(now: now) }
            prompt = PadPrompt.classify(packet)
            if prompt?.isPattern == true { restartedForQueue = false }
            deliver(now: now)
            return
        }
        let read = ModuleMessage.read(packet.bytes)
        message = read
        messageAt = now
        if awaiting != .nothing {
            switch read {
            case .wrong, .wait(_, true), .disabled(true): notAccepted(now: now)
            default: break
            }
        }
    }

    /// The last reply was refused: red for a second (the drawing stays lit in red, then the grid is clean). A typed
    /// answer that PAM refused without a word (pam_unix says nothing) is told as a wrong password.
    private mutating func notAccepted(now: Int64) {
        // A verdict on a drawing that a newer one has replaced (being drawn, or waiting to be sent) paints nothing red.
        if awaiting == .pattern && !drawing && queued != .pattern { errorUntil = now + Self.errorMs }
        if awaiting == .typed && messageAt < sentAt {
            message = .other(localized("Wrong password."))
            messageAt = now
        }
        awaiting = .nothing
    }

    /// Sends what is queued if the waiting prompt takes it.
    mutating func deliver(now: Int64) {
        guard queued != .nothing, let waiting = prompt else { return }
        switch (waiting, queued) {
        case (.pattern, .pattern):
            let n = PadSecret.traceAsReply(layout: settings.layout)
            send(UInt8(ascii: "p"), n)
            queued = .nothing
            awaiting = .pattern
        case (.pattern(let takesPassword), .typed):
            if takesPassword || typedIsPattern() {
                sendTyped(UInt8(ascii: "p"))
            } else if typedCount == 0 || skippedForTyped {
                // Enter alone skips the pattern; a second pattern prompt for the same text means no password
                // prompt follows in this stack: the text is dropped, not sent as a pattern.
                if typedCount > 0 { wipeTypedText() }
                queued = .nothing
                send(UInt8(ascii: "p"), 0)
            } else {
                // A password typed at the pattern prompt: skip the pattern (an empty answer is not counted)
                // and keep the text for the password prompt that follows.
                skippedForTyped = true
                send(UInt8(ascii: "p"), 0)
            }
        case (.secret, .typed):
            sendTyped(UInt8(ascii: "p"))
        case (.text, .typed):
            sendTyped(UInt8(ascii: "u"))
        case (.secret, .pattern), (.text, .pattern):
            if !restartedForQueue, let current = run {
                restartedForQueue = true
                retire(current, now: now)
                run = nil
                prompt = nil
                nextStartAt = now
            } else {
                // The pattern cannot be used now (locked or disabled): the module's message says so.
                queued = .nothing
                PadSecret.trace.pointee.wipe()
            }
        default:
            break
        }
    }

    private func typedIsPattern() -> Bool {
        guard typedCount > 0 else { return false }
        for i in 0..<typedCount where !(PadSecret.typed[i] >= 0x31 && PadSecret.typed[i] <= 0x39) { return false }
        return true
    }

    private mutating func wipeTypedText() {
        PadSecret.wipeTyped()
        typedCount = 0
        skippedForTyped = false
    }

    private mutating func sendTyped(_ type: UInt8) {
        let n = PadSecret.typedAsReply(count: typedCount)
        wipeTypedText()
        queued = .nothing
        send(type, n)
        awaiting = .typed
    }

    /// Writes the reply area to authproto and wipes it, whatever happened.
    private mutating func send(_ type: UInt8, _ count: Int) {
        defer { PadSecret.wipeReply() }
        prompt = nil
        sentAt = pattern_pad_now_ms()
        guard var current = run else { return }
        if !current.reply(type, PadSecret.reply, count) { pattern_pad_log("cannot write to authproto") }
        run = current
    }

    /// Esc or the timeout: `x` to a waiting prompt, the run ended, the pad ends locked.
    mutating func cancel() {
        if var current = run {
            current.stop(graceMs: 1000)
            run = nil
        }
        wipeAll()
        finished = 1
    }

    /// When the pad ends: the cancelled runs still ending are killed (they can no longer be read or answered).
    mutating func killRetiring() {
        for ending in retiring where ending.exitStatus == nil { pattern_pad_signal_kill(ending.pid) }
        retiring = []
    }

    mutating func wipeAll() {
        PadSecret.trace.pointee.wipe()
        wipeTypedText()
        PadSecret.wipeReply()
        queued = .nothing
    }

    /// The seconds of the module's wait still to run (nil when no wait was said).
    func waitLeft(now: Int64) -> Int64? {
        guard case .wait(let seconds, _)? = message else { return nil }
        return seconds - (now - messageAt) / 1000
    }

    /// The pattern is held back (the module said so, and no pattern prompt waits): the grid is dimmed and takes no
    /// drawing; the password field stays.
    func patternLocked(now: Int64) -> Bool {
        if prompt?.isPattern == true { return false }
        if case .disabled? = message { return true }
        return (waitLeft(now: now) ?? 0) > 0
    }

    // MARK: drawing

    /// A fresh press at local (x, y) of monitor `monitor`'s grid; `from` is the last sample before it (the press
    /// happened somewhere between, so the segment is hit-tested too).
    mutating func press(
        monitor: Int, grid: PadGrid, from: (x: Int32, y: Int32), to: (x: Int32, y: Int32), now: Int64
    ) {
        // Refused while the pattern is held back: nothing is drawn, nothing will be sent.
        if patternLocked(now: now) { return }
        // The last drawing's words are old news once a new one begins.
        message = nil
        if queued == .pattern {
            // A drawing still waits for the pattern prompt: the new one replaces it.
            queued = .nothing
        }
        errorUntil = 0
        shakeUntil = 0
        tooShortUntil = 0
        drawing = true
        traceMonitor = monitor
        PadSecret.trace.pointee.begin(at: from.x, from.y, on: grid)
        PadSecret.trace.pointee.extend(to: to.x, to.y, on: grid)
    }

    mutating func drag(grid: PadGrid, to: (x: Int32, y: Int32)) {
        guard drawing else { return }
        PadSecret.trace.pointee.extend(to: to.x, to.y, on: grid)
    }

    mutating func release(now: Int64) {
        guard drawing else { return }
        drawing = false
        let count = PadSecret.trace.pointee.count
        if count == 0 {
            PadSecret.trace.pointee.wipe()
            return
        }
        if patternLocked(now: now) {
            // The wait began while this was drawn (the last drawing's verdict): it is not taken.
            PadSecret.trace.pointee.wipe()
            return
        }
        if count < settings.minimumLength {
            // Shaken off: never sent, never counted.
            shakeStart = now
            shakeUntil = now + Self.shakeMs
            tooShortUntil = now + Self.tooShortMs
            return
        }
        queued = .pattern
        deliver(now: now)
    }

    // MARK: the keyboard (xsecurelock writes the keys to stdin)

    mutating func key(_ byte: UInt8, now: Int64) {
        lastActivity = now
        switch byte {
        case 0x1B:
            cancel()
        case 0x0D, 0x0A:
            if queued == .pattern { return }
            queued = .typed
            if typedCount == 0 && prompt?.isPattern != true { queued = .nothing; return }
            deliver(now: now)
        case 0x08, 0x7F:
            // One character back (UTF-8 continuation bytes go with their lead byte).
            while typedCount > 0 {
                typedCount -= 1
                let removed = PadSecret.typed[typedCount]
                PadSecret.typed[typedCount] = 0
                if removed & 0xC0 != 0x80 { break }
            }
        case 0x15:
            wipeTypedText()
        default:
            guard byte >= 0x20, typedCount < PadSecret.typedCapacity else { return }
            if queued == .typed { return }  // sent already, waiting for the password prompt
            PadSecret.typed[typedCount] = byte
            typedCount += 1
        }
    }
}
