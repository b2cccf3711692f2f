import CPatternPad
import PatternCoreEmbedded

/// Draws one frame on every monitor from the session's state. Nothing here decides anything.
package struct PadRenderer {
    static let background: UInt32 = 0x15171C
    static let dot: UInt32 = 0x80868B
    static let accent: UInt32 = 0x8AB4F8
    static let error: UInt32 = 0xE53935
    static let text: UInt32 = 0xE8EAED
    static let dim: UInt32 = 0x9AA0A6
    static let border: UInt32 = 0x5F6368
    /// The grid while the pattern is held back (a wait, or disabled): it takes no drawing.
    static let dimmedDot: UInt32 = 0x3C4043
    /// The drawing (or the grid) once authproto said yes, just before the screen opens.
    static let success: UInt32 = 0x81C995

    var userName: [UInt8]
    /// A line at the top and one at the bottom of every monitor (the LightDM greeter's machine, clock and session);
    /// none at the lock screen.
    var header: [UInt8] = []
    var footer: [UInt8] = []
    /// Buttons in the bottom right corner, right to left (the greeter's shut down, restart, sleep).
    var corner: [[UInt8]] = []
    /// Wrapped lines of recent texts (text, width) -> lines: measuring text is the costly part of a frame.
    private var wrapped: [(key: [UInt8], width: Int32, size: Int32, lines: [[UInt8]])] = []

    package init(userName: [UInt8]) { self.userName = userName }

    private var caption: [UInt8] = []

    package mutating func draw(
        _ session: PadSession, layouts: [PadLayout], origins: [(x: Int32, y: Int32)],
        pointer: (x: Int32, y: Int32), now: Int64
    ) {
        for index in 0..<layouts.count {
            drawMonitor(index, session, layouts, origins, pointer: pointer, now: now)
        }
        let words = captionText(session, now: now)
        if words != caption {
            caption = words
            pattern_pad_set_caption(words, words.count)
        }
    }

    /// The words on screen, one line each (the windows' name).
    func captionText(_ session: PadSession, now: Int64) -> [UInt8] {
        var words = userName
        let status = statusText(session, now: now)
        if !status.isEmpty { words += [0x0A] + status }
        let hint = hint(session, now: now)
        if !hint.isEmpty { words += [0x0A] + hint }
        if let label = fieldLabel(session) { words += [0x0A] + label }
        for line in [header, footer] + corner where !line.isEmpty { words += [0x0A] + line }
        return words
    }

    /// What the person can do now: nothing said before PAM's first word (whether there is a pattern to draw is not
    /// known yet); without a pattern, or while it is held back, only the password.
    func hint(_ session: PadSession, now: Int64) -> [UInt8] {
        if session.pattern == .unknown { return [] }
        if !session.takesDrawing(now: now) { return localized("Type your password and press Enter.") }
        return localized("Draw your pattern, or type your password and press Enter.")
    }

    /// The password field's label, nil when no field is shown.
    func fieldLabel(_ session: PadSession) -> [UInt8]? {
        switch session.prompt {
        case .secret(let text)?, .text(let text)?: return text
        default: return session.typedCount == 0 ? nil : []
        }
    }

    private mutating func drawMonitor(
        _ index: Int, _ session: PadSession, _ layouts: [PadLayout], _ origins: [(x: Int32, y: Int32)],
        pointer: (x: Int32, y: Int32), now: Int64
    ) {
        let layout = layouts[index]
        pattern_pad_frame_begin(Int32(index), Self.background)
        _ = drawLine(userName, y: layout.nameY, size: layout.nameSize, colour: Self.text, layout: layout)
        if !header.isEmpty {
            _ = drawLine(header, y: layout.textSize * 2, size: layout.textSize, colour: Self.dim, layout: layout)
        }
        if !footer.isEmpty {
            _ = drawLine(
                footer, y: layout.height - layout.textSize * 2, size: layout.textSize, colour: Self.dim, layout: layout)
        }

        let shift = PadGridPainter.shakeOffset(
            start: session.shakeStart, until: session.shakeUntil, layout: layout, now: now)
        let red = session.errorUntil > now
        let locked = session.patternLocked(now: now)
        let succeeded = session.succeeded
        let trace = PadSecret.trace.pointee
        let showTrace = session.settings.trailVisible && trace.count > 0
        let colour = succeeded ? Self.success : (red ? Self.error : Self.accent)
        // With the trail hidden a wrong drawing turns every dot red (the right one green): the verdict shows, the
        // pattern not.
        var plain = Self.dot
        if !session.settings.trailVisible && (red || succeeded) { plain = colour }
        if locked { plain = Self.dimmedDot }
        // No grid until PAM said there is a pattern: none to draw on for a person who has none.
        if session.pattern == .present {
            PadGridPainter.paint(
                trace, layout: layout, shift: shift, colour: colour, plain: plain, showTrace: showTrace,
                looseEnd: session.drawing ? loose(end: pointer, session: session, layouts, origins, index) : nil)
        }

        var y = layout.messageY
        let status = statusText(session, now: now)
        if !status.isEmpty {
            y = drawWrapped(status, y: y, size: layout.textSize, colour: red ? Self.error : Self.text, layout: layout)
        }
        y = drawWrapped(hint(session, now: now), y: y, size: layout.textSize, colour: Self.dim, layout: layout)
        for (label, place) in zip(corner, Self.cornerPlaces(corner, layout: layout)) {
            _ = pattern_pad_text(label, label.count, place.x, place.y, layout.textSize, Self.dim)
        }
        drawField(session, y: y + layout.lineHeight / 2, layout: layout)

        let local = (x: pointer.x &- origins[index].x, y: pointer.y &- origins[index].y)
        if local.x >= 0 && local.y >= 0 && local.x < layout.width && local.y < layout.height {
            // The locker hides the real pointer: this one shows where a press would start.
            pattern_pad_ring(local.x, local.y, 7, 2, Self.text)
            pattern_pad_fill_circle(local.x, local.y, 2, Self.text)
        }
        pattern_pad_frame_end()
    }

    /// Where the corner's buttons go: each label's centre and baseline, right to left along the bottom, and the half
    /// width a tap may be off its centre.
    static func cornerPlaces(_ labels: [[UInt8]], layout: PadLayout) -> [(x: Int32, y: Int32, halfWidth: Int32)] {
        var places: [(x: Int32, y: Int32, halfWidth: Int32)] = []
        var right = layout.width - layout.textSize
        for label in labels {
            let half = pattern_pad_text_width(label, label.count, layout.textSize) / 2 + layout.textSize / 2
            places.append((right - half, layout.height - layout.textSize * 2, half))
            right -= half * 2
        }
        return places
    }

    /// The trail's free end on monitor `index`: the pointer itself on the monitor being drawn on, the same offset
    /// from the grid (scaled) on the others.
    private func loose(
        end pointer: (x: Int32, y: Int32), session: PadSession, _ layouts: [PadLayout],
        _ origins: [(x: Int32, y: Int32)], _ index: Int
    ) -> (x: Int32, y: Int32)? {
        let source = session.traceMonitor
        guard source >= 0 && source < layouts.count else { return nil }
        let from = layouts[source].grid
        let dx = Int64(pointer.x &- origins[source].x) - Int64(from.centerX)
        let dy = Int64(pointer.y &- origins[source].y) - Int64(from.centerY)
        let to = layouts[index].grid
        let scale = Int64(to.spacing)
        let base = Int64(max(1, from.spacing))
        let x = Int64(to.centerX) + dx * scale / base
        let y = Int64(to.centerY) + dy * scale / base
        guard abs(x) < 100_000 && abs(y) < 100_000 else { return nil }
        return (Int32(x), Int32(y))
    }

    func statusText(_ session: PadSession, now: Int64) -> [UInt8] {
        if session.succeeded { return localized("Unlocked.") }
        // While a new drawing is made, words about an older one (a verdict that came late) are not shown.
        if session.drawing && !session.patternLocked(now: now) { return [] }
        if session.tooShortUntil > now {
            let n = Int64(session.settings.minimumLength)
            return localizedPlural(
                "Too short: connect at least %s dot.", "Too short: connect at least %s dots.", n, PadText.number(n))
        }
        if session.queued == .pattern || session.awaiting != .nothing { return localized("Checking…") }
        guard let message = session.message else { return [] }
        let verdict = verdictText(message, session, now: now)
        // The module's way out of a forgotten pattern is a command for a terminal; here it is the password.
        guard session.messageRoute && message.isAboutThePattern && (session.waitLeft(now: now) ?? 1) > 0 else {
            return verdict
        }
        return verdict + [0x20] + ForgottenPattern.atScreen()
    }

    private func verdictText(_ message: ModuleMessage, _ session: PadSession, now: Int64) -> [UInt8] {
        switch message {
        case .wrong(let left):
            return VerdictWords.wrong(.allowed(freeAttemptsLeft: Int(clamping: left ?? 0)))
        case .wait(_, let afterWrong):
            let left = session.waitLeft(now: now) ?? 0
            if left <= 0 { return localized("You can draw your pattern again.") }
            return afterWrong
                ? VerdictWords.wrong(.wait(secondsLeft: left)) : VerdictWords.locked(.wait(secondsLeft: left))
        case .disabled:
            // The module's sentence names the administrator's command; nobody can run one at a locked screen.
            return localized(
                "Your pattern is disabled after too many wrong tries; an administrator can re-enable it. Your password still works."
            )
        case .other(let text):
            return text
        }
    }

    /// The password field: shown while PAM asks for something else than the pattern, or once a key was typed.
    private func drawField(_ session: PadSession, y: Int32, layout: PadLayout) {
        var label: [UInt8] = []
        var echo = false
        switch session.prompt {
        case .secret(let text)?: label = text
        case .text(let text)?:
            label = text
            echo = true
        default:
            if session.typedCount == 0 { return }
        }
        var line = y
        if !label.isEmpty {
            _ = drawLine(label, y: line, size: layout.textSize, colour: Self.text, layout: layout)
            line += layout.lineHeight / 2
        }
        let boxWidth = min(layout.textWidth, layout.spacing * 3)
        let boxHeight = layout.textSize * 2
        pattern_pad_rect(layout.width / 2 - boxWidth / 2, line, boxWidth, boxHeight, 2, Self.border)
        let count = session.typedCount
        guard count > 0 else { return }
        let baseline = line + boxHeight / 2 + layout.textSize / 3
        if echo {
            // An echo-on answer is not a secret (PAM asked for it to be shown).
            let shown = UnsafeBufferPointer(start: PadSecret.typed, count: count)
            _ = pattern_pad_text(shown.baseAddress, count, layout.width / 2, baseline, layout.textSize, Self.text)
            return
        }
        let characters = min(32, PadText.characterCount(UnsafeBufferPointer(start: PadSecret.typed, count: count)))
        var bullets: [UInt8] = []
        for _ in 0..<characters { bullets += [0xE2, 0x80, 0xA2] }  // U+2022
        _ = pattern_pad_text(bullets, bullets.count, layout.width / 2, baseline, layout.textSize, Self.text)
    }

    /// One centred line; returns the next baseline.
    private func drawLine(_ text: [UInt8], y: Int32, size: Int32, colour: UInt32, layout: PadLayout) -> Int32 {
        _ = pattern_pad_text(text, text.count, layout.width / 2, y, size, colour)
        return y + layout.lineHeight
    }

    /// Centred lines no wider than the layout allows, no word stranded (PadLineBreak); returns the baseline after them.
    private mutating func drawWrapped(
        _ text: [UInt8], y: Int32, size: Int32, colour: UInt32, layout: PadLayout
    )
        -> Int32
    {
        var next = y
        for line in lines(of: text, width: layout.textWidth, size: size) {
            next = drawLine(line, y: next, size: size, colour: colour, layout: layout)
        }
        return next
    }

    private mutating func lines(of text: [UInt8], width: Int32, size: Int32) -> [[UInt8]] {
        for entry in wrapped where entry.width == width && entry.size == size && entry.key == text {
            return entry.lines
        }
        let result = PadLineBreak.lines(text, width: width) { measure($0, size) }
        if wrapped.count >= 8 { wrapped.removeFirst() }
        wrapped.append((text, width, size, result))
        return result
    }

    private func measure(_ text: [UInt8], _ size: Int32) -> Int32 { pattern_pad_text_width(text, text.count, size) }
}
