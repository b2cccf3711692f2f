import CPatternPad
import PatternCoreEmbedded

/// Draws the drawing window's frame from its DrawSession, with the lock screen's colours, layout and grid
/// (PadLayout, PadGridPainter): what to do now above the grid, patternctl's words below it (red for a refusal),
/// the password field when the password is asked, the way to it ("Use password instead") when the current
/// pattern is asked, and while the new pattern is drawn whether it would pass (green when it would, amber while
/// it would not). Nothing here decides anything.
struct DrawRenderer {
    /// A drawing the rules would not take yet (amber: not refused, only not there yet).
    static let notYet: UInt32 = 0xFDD663

    private var caption: [UInt8] = []

    /// The words above the grid: what the person does now.
    func heading(_ session: DrawSession, now: Int64) -> [UInt8] {
        if session.done { return localized("Your new pattern is set.") }
        if session.over { return localized("Nothing was changed.") }
        switch session.request {
        case .current?:
            switch session.secondsToWait(now: now) {
            case 0: return localized("Draw your current pattern")
            case -1: return VerdictWords.locked(.disabled)
            case let seconds: return VerdictWords.locked(.wait(secondsLeft: seconds))
            }
        case .password?: return localized("Type your account password and press Enter")
        case .new?: return localized("Draw a new pattern")
        case .again?: return localized("Pattern recorded. Draw it again to confirm")
        default: return localized("Checking…")
        }
    }

    /// The words under the grid: patternctl's last words, or why a drawing was shaken off.
    func status(_ session: DrawSession, now: Int64) -> [UInt8] {
        if session.tooShortUntil > now {
            let n = Int64(session.settings.minimumLength)
            return localizedPlural(
                "Too short: connect at least %s dot.", "Too short: connect at least %s dots.", n, PadText.number(n))
        }
        if session.request == .new, let preview = session.preview, session.drawing || session.message.isEmpty {
            return preview.said
        }
        if session.request == .new && session.message.isEmpty {
            let n = Int64(session.settings.minimumLength)
            return localizedPlural("Connect at least %s dot.", "Connect at least %s dots.", n, PadText.number(n))
        }
        return session.message
    }

    func hint(_ session: DrawSession) -> [UInt8] {
        if session.done || session.over { return localized("Press Enter or Esc to close.") }
        return localized("Esc cancels and changes nothing.")
    }

    /// Where "Use password instead" is: centred near the window's foot, as wide as its words allow.
    static func passwordButton(_ layout: PadLayout) -> PadButton {
        let width = min(layout.textWidth, layout.spacing * 4)
        let height = layout.textSize * 5 / 2
        return PadButton(
            x: layout.width / 2 - width / 2, y: layout.height - height - layout.textSize, width: width, height: height)
    }

    /// The trail's colour while the new pattern is drawn: whether the rules would take it.
    private func liveColour(_ session: DrawSession) -> UInt32? {
        guard session.drawing, session.request == .new, let preview = session.preview else { return nil }
        return preview == .accepted ? PadRenderer.success : DrawRenderer.notYet
    }

    mutating func draw(_ session: DrawSession, layout: PadLayout, pointer: (x: Int32, y: Int32), now: Int64) {
        let offered = session.offersPassword
        // Line by line: as one expression of six terms, Debian's Swift 6.2 gave up type-checking it.
        var words: [UInt8] = heading(session, now: now)
        words += [0x0A]
        words += status(session, now: now)
        words += [0x0A]
        words += hint(session)
        let button = offered ? localized("Use password instead (Tab)") : []
        if offered {
            words += [0x0A]
            words += button
        }
        if words != caption {
            caption = words
            pattern_pad_set_caption(words, words.count)
        }
        pattern_pad_frame_begin(0, PadRenderer.background)
        let heading = heading(session, now: now)
        _ = drawWrapped(
            heading, y: layout.nameY, size: layout.nameSize,
            colour: session.done ? PadRenderer.success : PadRenderer.text, layout: layout)

        let red = session.messageIsError && !session.drawing
        let colour =
            session.done ? PadRenderer.success : (red ? PadRenderer.error : liveColour(session) ?? PadRenderer.accent)
        let dimmed = session.request == .password || session.over || session.secondsToWait(now: now) != 0
        PadGridPainter.paint(
            PadSecret.trace.pointee, layout: layout,
            shift: PadGridPainter.shakeOffset(
                start: session.shakeStart, until: session.shakeUntil, layout: layout, now: now),
            colour: colour, plain: dimmed ? PadRenderer.dimmedDot : PadRenderer.dot, showTrace: true,
            looseEnd: session.drawing ? pointer : nil)

        var y = layout.messageY
        let status = status(session, now: now)
        if !status.isEmpty {
            let shaken = session.tooShortUntil > now
            y = drawWrapped(
                status, y: y, size: layout.textSize,
                colour: red || shaken ? PadRenderer.error : liveColour(session) ?? PadRenderer.text, layout: layout)
        }
        y = drawWrapped(hint(session), y: y, size: layout.textSize, colour: PadRenderer.dim, layout: layout)
        if session.request == .password { drawField(session, y: y, layout: layout) }
        if offered { drawButton(button, layout: layout) }
        pattern_pad_frame_end()
    }

    private func drawButton(_ words: [UInt8], layout: PadLayout) {
        let box = DrawRenderer.passwordButton(layout)
        pattern_pad_rect(box.x, box.y, box.width, box.height, 2, PadRenderer.accent)
        let baseline = box.y + box.height / 2 + layout.textSize / 3
        _ = pattern_pad_text(words, words.count, layout.width / 2, baseline, layout.textSize, PadRenderer.accent)
    }

    /// The password field: a box with one bullet per typed character.
    private func drawField(_ session: DrawSession, y: Int32, layout: PadLayout) {
        let boxWidth = min(layout.textWidth, layout.spacing * 3)
        let boxHeight = layout.textSize * 2
        pattern_pad_rect(layout.width / 2 - boxWidth / 2, y, boxWidth, boxHeight, 2, PadRenderer.border)
        let count = session.typedCount
        guard count > 0 else { return }
        let characters = min(32, PadText.characterCount(UnsafeBufferPointer(start: PadSecret.typed, count: count)))
        var bullets: [UInt8] = []
        for _ in 0..<characters { bullets += [0xE2, 0x80, 0xA2] }  // U+2022
        let baseline = y + boxHeight / 2 + layout.textSize / 3
        _ = pattern_pad_text(bullets, bullets.count, layout.width / 2, baseline, layout.textSize, PadRenderer.text)
    }

    /// Centred lines no wider than the layout allows, no word stranded (PadLineBreak); returns the next baseline.
    private func drawWrapped(_ text: [UInt8], y: Int32, size: Int32, colour: UInt32, layout: PadLayout) -> Int32 {
        var next = y
        let lines = PadLineBreak.lines(text, width: layout.textWidth) { pattern_pad_text_width($0, $0.count, size) }
        for line in lines {
            _ = pattern_pad_text(line, line.count, layout.width / 2, next, size, colour)
            next += size * 3 / 2
        }
        return next
    }
}
