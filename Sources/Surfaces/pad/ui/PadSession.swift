import CPatternPad
import PatternCoreEmbedded

/// The lock screen's state between frames: the PAM conversation (one authproto run at a time, restarted so the
/// person can always draw again), what was drawn or typed and where it goes, and what the screen shows.
///
/// Draw again: a wrong pattern moves the PAM stack on (to the password prompt, or to authproto_pam's next
/// try). A pattern drawn while the pattern prompt is waiting is sent to it; drawn while another prompt waits
/// (the password), the run is cancelled (`x`, nothing counted) and a new run's pattern prompt gets it. When
/// that new run does not ask for a pattern either (the pattern is locked), the drawing is dropped and the
/// module's message says why (or the pad's own, when the module said nothing). A drawing made while the last
/// answer is still being judged (with forward_pass a wrong pattern goes on to pam_unix, which sits out its fail
/// delay) does not wait for that verdict: the busy run is left to end by itself and a new run asks for the pattern.
///
/// The grid is offered only once PAM said the person has a pattern (PatternPresence): a run whose first prompt is
/// another module's, with no word from pam_pattern before it, means pam_pattern asked nothing (nullok, no pattern).
///
/// Nothing here waits: a cancelled run ends in the background (`retiring`, reaped at each tick) while the next run
/// asks for the pattern, so the loop reads the pointer at every frame and no drawing begun meanwhile is lost.
///
/// At the LightDM greeter (`daemon` set) the daemon runs PAM instead of authproto: a run is one authentication
/// there, its prompts and messages come through `handle`, its end through `ended`, and a cancelled one ends at the
/// daemon (nothing retires here). A drawing made while an answer is judged waits for the verdict there.
package struct PadSession {
    var settings: PadSettings
    package var run: AuthprotoRun? = nil
    /// The LightDM daemon, at the greeter; `conversing` while an authentication runs there.
    var daemon: GreeterDaemon? = nil
    var conversing = false
    /// Cancelled runs still ending (pam_unix sits out its fail delay after a cancel): reaped, or killed after
    /// `retireGraceMs`, never read. `answered`: the run was judging an answer when it was left; its exit 0 (PAM said
    /// yes to that answer) still unlocks.
    package var retiring: [(run: AuthprotoRun, answered: Bool)] = []
    package var prompt: PadPrompt? = nil
    /// What waits in the secret page for the next prompt.
    var queued: Queued = .nothing
    /// A run was cancelled to bring the pattern prompt back for the queued drawing (once per drawing).
    var restartedForQueue = false
    /// A reply was sent; the next word from PAM says it was not accepted (success ends the run with 0).
    package var awaiting: Awaiting = .nothing
    var runPrompted = false
    /// pam_pattern spoke in this run (its prompt, or a verdict on the pattern).
    var runSpokeOfPattern = false
    /// Whether the person has a pattern to draw, as PAM told it.
    var pattern: PatternPresence = .unknown
    /// The pattern prompt was skipped once to bring the typed text to a password prompt.
    var skippedForTyped = false
    var quietRuns = 0
    var nextStartAt: Int64 = 0

    // What the screen shows.
    package var drawing = false
    package var traceMonitor = 0
    /// Red until then, after a wrong pattern.
    package var errorUntil: Int64 = 0
    /// A drawing shorter than minlen shakes until then.
    package var shakeUntil: Int64 = 0
    var shakeStart: Int64 = 0
    /// "Too short" stays under the grid until then (or the next press).
    package var tooShortUntil: Int64 = 0
    package var message: ModuleMessage? = nil
    /// The module ended `message` with its way out of a forgotten pattern: the screen says its own (the password).
    var messageRoute = false
    package var messageAt: Int64 = 0
    /// When the last reply was written.
    var sentAt: Int64 = 0
    var typedCount = 0
    package var lastActivity: Int64
    /// Set when the pad must end: 0 only after authproto exited 0.
    package var finished: Int32? = nil
    /// authproto exited 0: the last frame shows it before the screen opens.
    var succeeded = false

    enum Queued { case nothing, pattern, typed }
    /// What PAM said of the person's pattern: nothing yet (no grid: it may be held back, or not exist), a pattern
    /// (pam_pattern asked for it or said why not), or none (a run began with another module's prompt).
    enum PatternPresence { case unknown, present, absent }
    package enum Awaiting { case nothing, pattern, typed }

    static let errorMs: Int64 = 1000
    static let shakeMs: Int64 = 500
    static let tooShortMs: Int64 = 3000
    /// How long a cancelled run may take to end before it is killed (pam_unix's fail delay is 2 s).
    static let retireGraceMs: Int64 = 3000

    package init(settings: PadSettings, now: Int64) {
        self.settings = settings
        self.lastActivity = now
    }

    // MARK: the conversation

    package mutating func tick(now: Int64) {
        if finished != nil { return }
        settleRetiring(now: now)
        if finished != nil { return }
        if run == nil && !conversing && now >= nextStartAt { startRun() }
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
    /// `answered`: the run is judging an answer, which may still be right: its output is left open (a message
    /// written then must not kill it) and its exit 0 unlocks.
    private mutating func retire(_ cancelled: AuthprotoRun, now: Int64, answered: Bool = false) {
        var ending = cancelled
        ending.cancel(graceMs: Self.retireGraceMs, now: now, keepingOutput: answered)
        retiring.append((ending, answered))
    }

    private mutating func settleRetiring(now: Int64) {
        var index = 0
        while index < retiring.count {
            if retiring[index].run.settled(now: now) {
                if retiring[index].answered && retiring[index].run.exitStatus == 0 {
                    succeeded = true
                    finished = 0
                }
                retiring[index].run.close()
                retiring.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    private mutating func startRun() {
        if let daemon {
            guard daemon.authenticate() else {
                pattern_pad_log("the LightDM daemon refused to authenticate")
                nextStartAt = pattern_pad_now_ms() + 1000
                return
            }
            conversing = true
            prompt = nil
            runPrompted = false
            runSpokeOfPattern = false
            return
        }
        guard let started = AuthprotoRun.start(path: settings.authproto) else {
            pattern_pad_log("cannot start authproto")
            finished = 1
            return
        }
        run = started
        prompt = nil
        runPrompted = false
        runSpokeOfPattern = false
    }

    mutating func ended(status: Int32, now: Int64) {
        conversing = false
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

    mutating func handle(_ packet: AuthprotoPacket, now: Int64) {
        if packet.isPrompt {
            let asked = PadPrompt.classify(packet)
            if asked.isPattern {
                runSpokeOfPattern = true
                pattern = .present
            } else if !runPrompted && !runSpokeOfPattern {
                // pam_pattern let the stack go on without a word: nothing to draw for this person.
                pattern = .absent
            }
            runPrompted = true
            if awaiting != .nothing { notAccepted(now: now) }
            prompt = asked
            if asked.isPattern { restartedForQueue = false }
            deliver(now: now)
            return
        }
        let (read, route) = ModuleMessage.read(packet.bytes)
        if read.isAboutThePattern {
            runSpokeOfPattern = true
            pattern = .present
        }
        message = read
        messageRoute = route
        messageAt = now
        if awaiting != .nothing {
            switch read {
            case .wrong, .wait(_, true), .disabled(true): notAccepted(now: now)
            default: break
            }
        }
    }

    /// The last reply was refused: red for a second (the drawing stays lit in red, then the grid is clean). An
    /// answer that PAM refused without a word is told all the same: typed, as a wrong password (pam_unix says
    /// nothing); drawn, as a wrong pattern (with forward_pass the module leaves it to pam_unix's refusal).
    private mutating func notAccepted(now: Int64) {
        // A verdict on a drawing that a newer one has replaced (being drawn, or waiting to be sent) paints nothing red.
        let current = !drawing && queued != .pattern
        if awaiting == .pattern && current { errorUntil = now + Self.errorMs }
        if messageAt < sentAt && (awaiting == .typed || current) {
            message = awaiting == .typed ? .other(localized("Wrong password.")) : .wrong(triesLeft: nil)
            messageRoute = false
            messageAt = now
        }
        awaiting = .nothing
    }

    /// Sends what is queued if the waiting prompt takes it.
    mutating func deliver(now: Int64) {
        guard queued != .nothing else { return }
        guard let waiting = prompt else {
            // The last answer is still being judged: the new drawing goes to a new run at once.
            if queued == .pattern && awaiting != .nothing && daemon == nil { restart(now: now, answered: true) }
            return
        }
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
            if !restartedForQueue && (run != nil || conversing) {
                restart(now: now, answered: false)
            } else {
                // The pattern cannot be used now: the module's message says why (locked or disabled), else the pad's.
                queued = .nothing
                PadSecret.trace.pointee.wipe()
                if !runSpokeOfPattern {
                    message = .other(localized("Your pattern cannot be used right now. Your password still works."))
                    messageRoute = false
                    messageAt = now
                }
            }
        default:
            break
        }
    }

    /// Leaves the current run to end by itself and starts another at the next tick, for the queued drawing (once per
    /// drawing).
    private mutating func restart(now: Int64, answered: Bool) {
        if let daemon, conversing {
            daemon.cancel()
            conversing = false
        } else {
            guard let current = run else { return }
            retire(current, now: now, answered: answered)
        }
        restartedForQueue = true
        run = nil
        prompt = nil
        awaiting = .nothing
        nextStartAt = now
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
        if let daemon {
            // The daemon takes a C string: the reply area has room for its NUL (replies are at most 512 bytes).
            PadSecret.reply[min(count, PadSecret.replyCapacity - 1)] = 0
            if !daemon.respond(PadSecret.reply) { pattern_pad_log("cannot answer the LightDM daemon") }
            return
        }
        guard var current = run else { return }
        if !current.reply(type, PadSecret.reply, count) { pattern_pad_log("cannot write to authproto") }
        run = current
    }

    /// Esc or the timeout: `x` to a waiting prompt, the run ended, the pad ends locked.
    package mutating func cancel() {
        if let daemon, conversing {
            daemon.cancel()
            conversing = false
        }
        if var current = run {
            current.stop(graceMs: 1000)
            run = nil
        }
        wipeAll()
        finished = 1
    }

    /// When the pad ends: the cancelled runs still ending are killed (they can no longer be read or answered).
    package mutating func killRetiring() {
        for ending in retiring where ending.run.exitStatus == nil { pattern_pad_signal_kill(ending.run.pid) }
        retiring = []
    }

    package mutating func wipeAll() {
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

    /// The grid is shown and takes a drawing: the person has a pattern and it is not held back.
    func takesDrawing(now: Int64) -> Bool { pattern == .present && !patternLocked(now: now) }

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
    package mutating func press(
        monitor: Int, grid: PadGrid, from: (x: Int32, y: Int32), to: (x: Int32, y: Int32), now: Int64
    ) {
        // Refused while the pattern is held back or not offered: nothing is drawn, nothing will be sent.
        if !takesDrawing(now: now) { return }
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

    package mutating func drag(grid: PadGrid, to: (x: Int32, y: Int32)) {
        guard drawing else { return }
        PadSecret.trace.pointee.extend(to: to.x, to.y, on: grid)
    }

    package mutating func release(now: Int64) {
        guard drawing else { return }
        drawing = false
        let count = PadSecret.trace.pointee.count
        if count == 0 {
            PadSecret.trace.pointee.wipe()
            return
        }
        if !takesDrawing(now: now) {
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

    package mutating func key(_ byte: UInt8, now: Int64) {
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
