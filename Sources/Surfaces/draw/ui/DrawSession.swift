import CPatternPad
import PatternCoreEmbedded

/// The drawing window's state (pattern-draw, run by `patternctl set --draw`): what patternctl asks for now
/// (DrawWindowProtocol), the drawing or the typed password, and what the window shows. It decides nothing:
/// patternctl judges every entry (the helper, the strength rules, the comparison) and says why one is refused;
/// the refused drawing stays on the grid in red with those words until the next press. While the new pattern
/// is drawn it shows whether the rules patternctl named would take it (StrengthPreview), and while the
/// current pattern is asked it offers the account password instead. Secrets live only in the locked page
/// (PadSecret), as at the lock screen.
struct DrawSession {
    typealias Request = DrawWindowProtocol.Request

    let settings: PadSettings
    /// What patternctl waits for; nil while it thinks (or before it asks, or after it is done).
    var request: Request? = nil
    /// The last request answered: what is being checked.
    var answered: Request? = nil
    /// patternctl's last words and whether they are an error (red).
    var message: [UInt8] = []
    var messageIsError = false
    /// patternctl's errors since its last question are one text (a refusal, then the way out for a forgotten
    /// pattern): each is added to it.
    var messageOpen = false
    /// The new pattern is stored.
    var done = false
    /// patternctl has ended the conversation: the last words stay until the window is closed.
    var over = false
    var drawing = false
    /// A drawing finished while patternctl was still judging the last one: sent when it asks for a drawing
    /// (the next step's), dropped if it refuses the last one instead (the person sees why, then draws again).
    var queued = false
    var typedCount = 0
    var shakeStart: Int64 = 0
    var shakeUntil: Int64 = 0
    var tooShortUntil: Int64 = 0
    /// The window's exit status once it must close: 0 after `done`, else 1.
    var finished: Int32? = nil
    /// With `current`: the throttle's verdict (no drawing until `waitUntil`, none at all when disabled) and
    /// whether the account password may be chosen instead.
    var waitUntil: Int64 = 0
    var disabled = false
    var passwordOffered = false
    /// With `new`: the rules the drawing is judged by, and their verdict on the dots taken so far.
    var rules: DrawWindowProtocol.NewAsk? = nil
    var preview: StrengthPreview? = nil
    private var previewedCount = 0

    init(settings: PadSettings) { self.settings = settings }

    var takesDrawing: Bool {
        switch request {
        case .current?, .new?, .again?: return true
        default: return false
        }
    }

    /// Whole seconds until the current pattern may be drawn (0: it may be now; -1: disabled).
    func secondsToWait(now: Int64) -> Int64 {
        guard request == .current else { return 0 }
        if disabled { return -1 }
        return waitUntil > now ? (waitUntil - now + 999) / 1000 : 0
    }

    /// The "Use password instead" button and Tab work now.
    var offersPassword: Bool { request == .current && passwordOffered && !drawing }

    // MARK: patternctl's words

    mutating func handle(_ packet: AuthprotoPacket, now: Int64) {
        guard let kind = Request(rawValue: packet.type) else { return }
        switch kind {
        case .current, .password, .new, .again:
            request = kind
            messageOpen = false
            if kind == .current {
                let ask = DrawWindowProtocol.CurrentAsk(packet.bytes)
                passwordOffered = ask?.passwordOffered ?? false
                disabled = ask?.lock == .disabled
                if case .wait(let seconds)? = ask?.lock { waitUntil = now + seconds * 1000 } else { waitUntil = 0 }
                // A drawing made while the pattern is locked is not sent when the wait ends.
                if secondsToWait(now: now) != 0 { queued = false }
            }
            if kind == .new { rules = DrawWindowProtocol.NewAsk(packet.bytes) }
            if queued && kind != .password {
                queued = false
                answer(PadSecret.traceAsReply(layout: .phone))
                return
            }
            // The drawing to confirm is not shown again; a refused one stays (red) until the next press.
            if kind == .again && !drawing { PadSecret.trace.pointee.wipe() }
        case .error:
            if queued {
                queued = false
                PadSecret.trace.pointee.wipe()
            }
            // patternctl's errors are the ends of "patternctl: ..." lines; on their own they start a sentence.
            var text = packet.bytes
            if let first = text.first, first >= 0x61 && first <= 0x7A { text[0] = first - 0x20 }
            message = messageIsError && messageOpen && !message.isEmpty ? message + [0x20] + text : text
            messageIsError = true
            messageOpen = true
        case .info:
            // While an error about the last entry is shown, "Setting..." lines do not replace it.
            if !messageIsError || message.isEmpty {
                message = packet.bytes
                messageIsError = false
            }
        case .done:
            done = true
            request = nil
            message = []
            messageIsError = false
        }
    }

    /// patternctl closed its side: nothing more will be asked.
    mutating func conversationEnded() {
        over = true
        request = nil
        wipeAll()
    }

    // MARK: the person

    mutating func press(grid: PadGrid, at point: (x: Int32, y: Int32), now: Int64) {
        if over || done {
            close()
            return
        }
        // While patternctl thinks a drawing may begin too (it is sent when the next one is asked for).
        guard takesDrawing || request == nil, secondsToWait(now: now) == 0 else { return }
        queued = false
        message = []
        messageIsError = false
        shakeUntil = 0
        tooShortUntil = 0
        drawing = true
        preview = nil
        previewedCount = 0
        PadSecret.trace.pointee.begin(at: point.x, point.y, on: grid)
        judgeDots()
    }

    mutating func drag(grid: PadGrid, to point: (x: Int32, y: Int32)) {
        guard drawing else { return }
        PadSecret.trace.pointee.extend(to: point.x, point.y, on: grid)
        judgeDots()
    }

    /// The live verdict on the new pattern, judged again only when a dot was taken (a few microseconds: the
    /// rules over at most nine dots), never for the current pattern or the confirmation.
    private mutating func judgeDots() {
        let count = PadSecret.trace.pointee.count
        guard request == .new, let rules, count != previewedCount else { return }
        previewedCount = count
        guard count > 0 else {
            preview = nil
            return
        }
        var dots = [UInt8](repeating: 0, count: count)
        for i in 0..<count { dots[i] = PadSecret.trace.pointee.dot(at: i) }
        preview = StrengthPreview(dots: dots, minimumLength: rules.minimumLength, rules: rules.rules)
        // The new pattern is a secret: its copy does not stay in freed memory.
        pattern_pad_wipe(&dots, dots.count)
    }

    /// "Use password instead" (the button or Tab) while the current pattern is asked: patternctl goes the way
    /// of a forgotten pattern (the account password, then the new pattern twice).
    mutating func usePassword() {
        guard offersPassword else { return }
        _ = pattern_pad_write_packet(1, CChar(bitPattern: DrawWindowProtocol.usePassword), nil, 0)
        PadSecret.trace.pointee.wipe()
        answered = request
        request = nil
        queued = false
        message = []
        messageIsError = false
    }

    mutating func release(grid: PadGrid, at point: (x: Int32, y: Int32), now: Int64) {
        guard drawing else { return }
        drawing = false
        PadSecret.trace.pointee.extend(to: point.x, point.y, on: grid)
        let count = PadSecret.trace.pointee.count
        if count == 0 { return }
        if count < settings.minimumLength {
            // Shaken off, as at the lock screen: never sent.
            shakeStart = now
            shakeUntil = now + PadSession.shakeMs
            tooShortUntil = now + PadSession.tooShortMs
            return
        }
        guard takesDrawing else {
            queued = true
            return
        }
        // Dots as themselves ("1" top left): patternctl reads them as the keys of its layout.
        answer(PadSecret.traceAsReply(layout: .phone))
    }

    mutating func typed(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard request == .password else { return }
        for byte in bytes where typedCount < PadSecret.typedCapacity {
            PadSecret.typed[typedCount] = byte
            typedCount += 1
        }
    }

    mutating func backspace() {
        while typedCount > 0 {
            typedCount -= 1
            let removed = PadSecret.typed[typedCount]
            PadSecret.typed[typedCount] = 0
            if removed & 0xC0 != 0x80 { break }
        }
    }

    mutating func clearTyped() {
        PadSecret.wipeTyped()
        typedCount = 0
    }

    mutating func enter() {
        if over || done {
            close()
            return
        }
        guard request == .password, typedCount > 0 else { return }
        let n = PadSecret.typedAsReply(count: typedCount)
        clearTyped()
        answer(n)
    }

    /// Esc or the window's close button: before the end, `x` (patternctl changes nothing); after it, just closed.
    mutating func close() {
        if !over && !done {
            _ = pattern_pad_write_packet(1, CChar(bitPattern: DrawWindowProtocol.cancel), nil, 0)
        }
        wipeAll()
        finished = done ? 0 : 1
    }

    /// Writes the reply area to patternctl and wipes it, whatever happened.
    private mutating func answer(_ count: Int) {
        defer { PadSecret.wipeReply() }
        answered = request
        request = nil
        message = []
        messageIsError = false
        if pattern_pad_write_packet(1, CChar(bitPattern: DrawWindowProtocol.answer), PadSecret.reply, count) != 0 {
            pattern_pad_log("cannot write to patternctl")
        }
    }

    mutating func wipeAll() {
        if !done { PadSecret.trace.pointee.wipe() }
        clearTyped()
        PadSecret.wipeReply()
    }
}
