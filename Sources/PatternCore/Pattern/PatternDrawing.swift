/// Which characters a drawing may use.
public enum DrawingStyle: Sendable {
    /// Box-drawing, diagonal and arrow characters (─ │ ╲ ╱ ┼ ╳ → ↘), for UTF-8 terminals.
    case unicode
    /// Plain ASCII (- | \ / + X > v), for anything else.
    case ascii
}

/// Draws a pattern on the 3x3 grid as text, for `patternctl show` and `set`.
///
/// The person sees the grid they know: all nine dots, labelled with the keys
/// they type (`layout`). The path is drawn as lines between the dots; the
/// start dot is bracketed, and every dot but the last has an arrowhead on its
/// outgoing line just after the dot, like the chevrons Android draws inside
/// each dot. No order numbers compete with the dot labels: start + arrows
/// give the order. Built from bytes so the Embedded build needs no Unicode
/// tables. Z (1235789) in ASCII:
///
///     [1]>-----2->-----3
///                    v
///                  /
///                /
///      4       5       6
///            v
///          /
///        /
///      7->-----8->-----9
///
/// Why this is enough to recover the pattern (drawing-roundtrip reads all
/// 389,112 back): from each dot the arrowhead's cell names
/// one of 16 directions, and the next dot is the first dot in that
/// direction not yet visited (a line may pass a visited dot, never an
/// unvisited one). Dots are 4 rows and 8 columns apart (square on a terminal
/// whose cells are twice as tall as wide), which leaves room for a distinct
/// arrowhead cell per direction and keeps crossing lines apart.
public enum PatternDrawing {
    /// The pattern on a 19x9 character grid; every line ends in "\n" and
    /// has no trailing spaces. No legend: the caller words it.
    public static func render(_ pattern: Pattern, style: DrawingStyle, layout: KeypadLayout = .phone) -> String {
        var canvas = PatternCanvas()
        let dots = pattern.dots.prefix(9).filter { $0 >= 1 && $0 <= 9 }
        // Lines first, then arrowheads on them, then the dot labels on top.
        for (from, to) in zip(dots, dots.dropFirst()) {
            canvas.line(from: from, to: to)
        }
        for (from, to) in zip(dots, dots.dropFirst()) {
            canvas.arrowhead(from: from, to: to)
        }
        for dot: UInt8 in 1...9 {
            let (row, column) = PatternCanvas.centre(of: dot)
            let key = layout.key(forDot: dot) ?? 0
            canvas.set(row, column, PatternCanvas.text(0x30 &+ key))
        }
        if let start = dots.first {
            let (row, column) = PatternCanvas.centre(of: start)
            canvas.set(row, column - 1, PatternCanvas.text(0x5B))  // [
            canvas.set(row, column + 1, PatternCanvas.text(0x5D))  // ]
        }
        return String(decoding: canvas.bytes(style: style), as: UTF8.self)
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
}

/// A small character grid of cell codes; lines merge where they cross.
struct PatternCanvas {
    /// Rows and columns between neighbouring dots.
    static let rowSpacing = 4
    static let columnSpacing = 8
    static let width = 2 + 2 * columnSpacing + 1
    static let height = 2 * rowSpacing + 1

    // Cell codes: glyphs below 0x100, literal ASCII text as 0x100 + byte.
    static let blank: UInt16 = 0
    static let horizontal: UInt16 = 1
    static let vertical: UInt16 = 2
    static let backslash: UInt16 = 3  // ╲ top left to bottom right
    static let slash: UInt16 = 4  // ╱ bottom left to top right
    static let cross: UInt16 = 5  // ┼ a straight line crossing another
    static let diagonalCross: UInt16 = 6  // ╳ two diagonals crossing
    // Arrowheads, by the way they point.
    static let arrowRight: UInt16 = 0x10
    static let arrowLeft: UInt16 = 0x11
    static let arrowUp: UInt16 = 0x12
    static let arrowDown: UInt16 = 0x13
    static let arrowDownRight: UInt16 = 0x14
    static let arrowDownLeft: UInt16 = 0x15
    static let arrowUpRight: UInt16 = 0x16
    static let arrowUpLeft: UInt16 = 0x17
    static func text(_ byte: UInt8) -> UInt16 { 0x100 | UInt16(byte) }

    private var cells = [UInt16](repeating: 0, count: PatternCanvas.width * PatternCanvas.height)

    /// Column 0 is left free for the start's "[".
    static func centre(of dot: UInt8) -> (row: Int, column: Int) {
        return (rowSpacing * Pattern.row(of: dot), 1 + columnSpacing * Pattern.column(of: dot))
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

    /// The straight line between two dot centres, ends excluded.
    mutating func line(from a: UInt8, to b: UInt8) {
        guard a != b else { return }  // nothing to draw (only in a malformed pattern)
        // Drawn from the upper end whichever way it was walked, so a line looks
        // the same both ways (the arrowhead alone says which).
        let (top, bottom) = Pattern.row(of: a) <= Pattern.row(of: b) ? (a, b) : (b, a)
        let (r1, c1) = PatternCanvas.centre(of: top)
        let (r2, c2) = PatternCanvas.centre(of: bottom)
        let rows = r2 - r1
        let columns = c2 - c1
        let falling = (rows > 0) == (columns > 0)
        let diagonal = falling ? PatternCanvas.backslash : PatternCanvas.slash
        if rows == 0 {
            for column in (min(c1, c2) + 1)..<max(c1, c2) { add(r1, column, PatternCanvas.horizontal) }
        } else if abs(columns) > 2 * abs(rows) {
            // A shallow knight move (1 row, 2 columns of dots): one step down
            // per 4 columns, drawn as runs of ─ joined by a diagonal.
            let columnStep = columns > 0 ? 1 : -1
            let rowStep = rows > 0 ? 1 : -1
            for k in 1..<abs(columns) {
                let exact = k * abs(rows)  // in units of 1/|columns| rows
                var offset = exact / abs(columns)
                let quarter = (exact % abs(columns)) * 4 / abs(columns)
                var glyph = PatternCanvas.horizontal
                if quarter == 2 { glyph = diagonal }
                if quarter == 3 { offset += 1 }
                add(r1 + rowStep * offset, c1 + columnStep * k, glyph)
            }
        } else {
            // Vertical, diagonal and steep knight moves land on whole cells on every row.
            let glyph = columns == 0 ? PatternCanvas.vertical : diagonal
            let rowStep = rows > 0 ? 1 : -1
            var row = r1 + rowStep
            while row != r2 {
                add(row, c1 + columns * (row - r1) / rows, glyph)
                row += rowStep
            }
        }
    }

    /// The cell, relative to the dot, that holds the arrowhead of a line
    /// leaving in direction (rows, columns) of dots, reduced (1-3 is (0, 1)).
    /// One cell per direction, all within 1 row and 3 columns of the dot, so
    /// two dots' arrowheads never share a cell; each lies on its own line.
    static func arrowOffset(rows: Int, columns: Int) -> (row: Int, column: Int) {
        let r = rows.signum()
        let c = columns.signum()
        if rows == 0 { return (0, 2 * c) }  // ─ across
        if columns == 0 { return (r, 0) }  // │ up or down
        if abs(rows) == abs(columns) { return (r, 2 * c) }  // diagonal
        if abs(rows) > abs(columns) { return (r, c) }  // steep knight move
        return (r, 3 * c)  // shallow knight move
    }

    /// The arrowhead on the line from `a` to `b`, next to `a`.
    mutating func arrowhead(from a: UInt8, to b: UInt8) {
        guard a != b else { return }
        var rows = Pattern.row(of: b) - Pattern.row(of: a)
        var columns = Pattern.column(of: b) - Pattern.column(of: a)
        if rows % 2 == 0 && columns % 2 == 0 {  // a jump over a dot: same direction as one step
            rows /= 2
            columns /= 2
        }
        let (row, column) = PatternCanvas.centre(of: a)
        let offset = PatternCanvas.arrowOffset(rows: rows, columns: columns)
        set(row + offset.row, column + offset.column, PatternCanvas.arrowGlyph(rows: rows, columns: columns))
    }

    /// Which way the arrowhead points: straight, or the nearest diagonal
    /// (a knight move's line is closer to 45 degrees than to level or upright).
    static func arrowGlyph(rows: Int, columns: Int) -> UInt16 {
        switch (rows.signum(), columns.signum()) {
        case (0, 1): return arrowRight
        case (0, _): return arrowLeft
        case (-1, 0): return arrowUp
        case (1, 0): return arrowDown
        case (1, 1): return arrowDownRight
        case (1, _): return arrowDownLeft
        case (_, 1): return arrowUpRight
        default: return arrowUpLeft
        }
    }

    /// UTF-8 (or ASCII) text, one line per row, trailing blanks trimmed.
    func bytes(style: DrawingStyle) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(PatternCanvas.width * PatternCanvas.height * 3)
        for row in 0..<PatternCanvas.height {
            var pendingBlanks = 0
            for column in 0..<PatternCanvas.width {
                let code = cells[row * PatternCanvas.width + column]
                if code == PatternCanvas.blank {
                    pendingBlanks += 1
                    continue
                }
                for _ in 0..<pendingBlanks { out.append(0x20) }
                pendingBlanks = 0
                PatternCanvas.appendGlyph(code, style: style, to: &out)
            }
            out.append(0x0A)
        }
        return out
    }

    private static func appendGlyph(_ code: UInt16, style: DrawingStyle, to out: inout [UInt8]) {
        if code >= 0x100 {
            out.append(UInt8(truncatingIfNeeded: code))
            return
        }
        switch style {
        case .ascii:
            switch code {
            case horizontal: out.append(0x2D)  // -
            case vertical: out.append(0x7C)  // |
            case backslash: out.append(0x5C)  // \
            case slash: out.append(0x2F)  // /
            case cross: out.append(0x2B)  // +
            case diagonalCross: out.append(0x58)  // X
            // ASCII has no diagonal arrowheads: v and ^ point the way the line goes, down or up.
            case arrowRight: out.append(0x3E)  // >
            case arrowLeft: out.append(0x3C)  // <
            case arrowUp, arrowUpRight, arrowUpLeft: out.append(0x5E)  // ^
            case arrowDown, arrowDownRight, arrowDownLeft: out.append(0x76)  // v
            default: out.append(0x20)
            }
        case .unicode:
            switch code {
            case horizontal: out += [0xE2, 0x94, 0x80]  // ─ U+2500
            case vertical: out += [0xE2, 0x94, 0x82]  // │ U+2502
            case backslash: out += [0xE2, 0x95, 0xB2]  // ╲ U+2572
            case slash: out += [0xE2, 0x95, 0xB1]  // ╱ U+2571
            case cross: out += [0xE2, 0x94, 0xBC]  // ┼ U+253C
            case diagonalCross: out += [0xE2, 0x95, 0xB3]  // ╳ U+2573
            case arrowRight: out += [0xE2, 0x86, 0x92]  // → U+2192
            case arrowLeft: out += [0xE2, 0x86, 0x90]  // ← U+2190
            case arrowUp: out += [0xE2, 0x86, 0x91]  // ↑ U+2191
            case arrowDown: out += [0xE2, 0x86, 0x93]  // ↓ U+2193
            case arrowDownRight: out += [0xE2, 0x86, 0x98]  // ↘ U+2198
            case arrowDownLeft: out += [0xE2, 0x86, 0x99]  // ↙ U+2199
            case arrowUpRight: out += [0xE2, 0x86, 0x97]  // ↗ U+2197
            case arrowUpLeft: out += [0xE2, 0x86, 0x96]  // ↖ U+2196
            default: out.append(0x20)
            }
        }
    }
}
