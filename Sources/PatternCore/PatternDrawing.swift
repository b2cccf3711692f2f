/// Which characters a drawing may use.
public enum DrawingStyle: Sendable {
    /// Box-drawing and diagonal characters (─ │ ╲ ╱ ┼ ╳ ·), for UTF-8 terminals.
    case unicode
    /// Plain ASCII (- | \ / + X .), for anything else.
    case ascii
}

/// Draws a pattern on the 3x3 grid as text, for `patternctl show` and the
/// module's show_grid. Each dot shows its step number in the drawing order,
/// the start is bracketed, unused dots are a small dot, and lines join the
/// steps. Built from bytes so the Embedded build needs no Unicode tables.
///
///     [1]────2─────3
///                ╱
///              ╱
///      ·     4     ·
///          ╱
///        ╱
///      5─────6─────7
public enum PatternDrawing {
    /// The pattern on a 15x7 character grid plus a one-line legend; every
    /// line ends in "\n" and has no trailing spaces.
    public static func render(_ pattern: Pattern, style: DrawingStyle) -> String {
        var canvas = PatternCanvas()
        let dots = pattern.dots.prefix(9).filter { $0 >= 1 && $0 <= 9 }
        // Lines first, so the dot marks are drawn on top of them.
        for (from, to) in zip(dots, dots.dropFirst()) {
            canvas.line(from: from, to: to)
        }
        var step: [UInt8] = Array(repeating: 0, count: 10)   // dot -> step number, 0 = unused
        for (index, dot) in dots.enumerated() { step[Int(dot)] = UInt8(index + 1) }
        for dot: UInt8 in 1...9 {
            let (row, column) = PatternCanvas.centre(of: dot)
            let number = step[Int(dot)]
            canvas.set(row, column, number == 0 ? PatternCanvas.unusedDot : PatternCanvas.text(0x30 + number))
        }
        if let start = dots.first {
            let (row, column) = PatternCanvas.centre(of: start)
            canvas.set(row, column - 1, PatternCanvas.text(0x5B))   // [
            canvas.set(row, column + 1, PatternCanvas.text(0x5D))   // ]
        }
        var bytes = canvas.bytes(style: style)
        bytes += Array("[1] is the start; numbers give the drawing order.\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The dot numbering, for a user who types digits: what to press for each
    /// dot. With `.numpad` the keys are the numpad's (7 8 9 on top).
    public static func emptyGrid(style: DrawingStyle, layout: KeypadLayout = .phone) -> String {
        let top: String
        let side: String
        let bottom: String
        switch style {
        case .unicode:
            top = "┌───────┐\n"
            side = "│"
            bottom = "└───────┘\n"
        case .ascii:
            top = "+-------+\n"
            side = "|"
            bottom = "+-------+\n"
        }
        var text = top
        for row in 0..<3 {
            var line: [UInt8] = []
            for column in 0..<3 {
                let key = layout.key(forDot: Pattern.dot(row: row, column: column)) ?? 0
                line += [0x20, 0x30 + key]
            }
            text += side + String(decoding: line, as: UTF8.self) + " " + side + "\n"
        }
        return text + bottom
    }

    /// The numbering for the phone layout (1 2 3 on top).
    public static func emptyGrid(style: DrawingStyle) -> String {
        return emptyGrid(style: style, layout: .phone)
    }
}

/// A small character grid of cell codes; lines merge where they cross.
struct PatternCanvas {
    static let width = 15
    static let height = 7

    // Cell codes: glyphs below 0x100, literal ASCII text as 0x100 + byte.
    static let blank: UInt16 = 0
    static let horizontal: UInt16 = 1
    static let vertical: UInt16 = 2
    static let backslash: UInt16 = 3     // ╲ top left to bottom right
    static let slash: UInt16 = 4         // ╱ bottom left to top right
    static let cross: UInt16 = 5         // ┼ a straight line crossing another
    static let diagonalCross: UInt16 = 6 // ╳ two diagonals crossing
    static let unusedDot: UInt16 = 7
    static func text(_ byte: UInt8) -> UInt16 { 0x100 | UInt16(byte) }

    private var cells = [UInt16](repeating: 0, count: PatternCanvas.width * PatternCanvas.height)

    /// Dots sit 3 rows and 6 columns apart: in a terminal cell (about twice as
    /// tall as wide) that makes the grid square and the diagonals 45 degrees.
    static func centre(of dot: UInt8) -> (row: Int, column: Int) {
        return (3 * Pattern.row(of: dot), 1 + 6 * Pattern.column(of: dot))
    }

    mutating func set(_ row: Int, _ column: Int, _ code: UInt16) {
        guard row >= 0, row < PatternCanvas.height, column >= 0, column < PatternCanvas.width else { return }
        cells[row * PatternCanvas.width + column] = code
    }

    /// Adds a line glyph, merging with one already there.
    mutating func add(_ row: Int, _ column: Int, _ glyph: UInt16) {
        guard row >= 0, row < PatternCanvas.height, column >= 0, column < PatternCanvas.width else { return }
        let index = row * PatternCanvas.width + column
        let old = cells[index]
        if old == PatternCanvas.blank || old == glyph {
            cells[index] = glyph
        } else if PatternCanvas.isDiagonal(old) && PatternCanvas.isDiagonal(glyph) {
            cells[index] = PatternCanvas.diagonalCross
        } else {
            cells[index] = PatternCanvas.cross
        }
    }

    private static func isDiagonal(_ code: UInt16) -> Bool {
        return code == backslash || code == slash || code == diagonalCross
    }

    /// The straight line between two dot centres, ends excluded. Every move
    /// on the grid lands on whole cells: rows differ by 3 or 6, columns by a
    /// multiple of the row step.
    mutating func line(from a: UInt8, to b: UInt8) {
        let (r1, c1) = PatternCanvas.centre(of: a)
        let (r2, c2) = PatternCanvas.centre(of: b)
        guard a != b else { return }    // nothing to draw (only in a malformed pattern)
        if r1 == r2 {
            for column in (min(c1, c2) + 1)..<max(c1, c2) { add(r1, column, PatternCanvas.horizontal) }
            return
        }
        let glyph: UInt16 = c1 == c2 ? PatternCanvas.vertical
            : ((r2 > r1) == (c2 > c1) ? PatternCanvas.backslash : PatternCanvas.slash)
        let rowStep = r2 > r1 ? 1 : -1
        var row = r1 + rowStep
        while row != r2 {
            let column = c1 + (c2 - c1) * (row - r1) / (r2 - r1)
            add(row, column, glyph)
            row += rowStep
        }
    }

    /// UTF-8 (or ASCII) text, one line per row, trailing blanks trimmed.
    func bytes(style: DrawingStyle) -> [UInt8] {
        var out: [UInt8] = []
        for row in 0..<PatternCanvas.height {
            var line: [UInt8] = []
            var pendingBlanks = 0
            for column in 0..<PatternCanvas.width {
                let code = cells[row * PatternCanvas.width + column]
                if code == PatternCanvas.blank {
                    pendingBlanks += 1
                    continue
                }
                line += [UInt8](repeating: 0x20, count: pendingBlanks)
                pendingBlanks = 0
                line += PatternCanvas.glyphBytes(code, style: style)
            }
            out += line
            out.append(0x0A)
        }
        return out
    }

    private static func glyphBytes(_ code: UInt16, style: DrawingStyle) -> [UInt8] {
        if code >= 0x100 { return [UInt8(truncatingIfNeeded: code)] }
        switch style {
        case .ascii:
            switch code {
            case horizontal: return [0x2D]       // -
            case vertical: return [0x7C]         // |
            case backslash: return [0x5C]        // \
            case slash: return [0x2F]            // /
            case cross: return [0x2B]            // +
            case diagonalCross: return [0x58]    // X
            case unusedDot: return [0x2E]        // .
            default: return [0x20]
            }
        case .unicode:
            switch code {
            case horizontal: return [0xE2, 0x94, 0x80]     // ─ U+2500
            case vertical: return [0xE2, 0x94, 0x82]       // │ U+2502
            case backslash: return [0xE2, 0x95, 0xB2]      // ╲ U+2572
            case slash: return [0xE2, 0x95, 0xB1]          // ╱ U+2571
            case cross: return [0xE2, 0x94, 0xBC]          // ┼ U+253C
            case diagonalCross: return [0xE2, 0x95, 0xB3]  // ╳ U+2573
            case unusedDot: return [0xC2, 0xB7]            // · U+00B7
            default: return [0x20]
            }
        }
    }
}
