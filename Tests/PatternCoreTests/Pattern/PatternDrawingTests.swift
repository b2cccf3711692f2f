import Foundation
import Testing

@testable import PatternCore

/// Golden drawings live next to this file. Run with PATTERN_UPDATE_GOLDEN=1 to
/// rewrite them after an intended change (then read the diff).
private let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden")

private func golden(_ name: String, _ actual: String) throws {
    let url = goldenDirectory.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["PATTERN_UPDATE_GOLDEN"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "\(name):\n\(actual)")
}

@Suite struct PatternDrawingTests {
    @Test(arguments: [
        ("z", "1235789"),  // the Z: straight lines and diagonals
        ("s", "123654789"),  // all nine dots, rows and columns
        ("knight", "2759148"),  // knight moves 2-7 and 4-8, 9-1 over the visited centre
        ("cross", "15743"),  // the knight 4-3 crosses the diagonal 1-5
        ("back", "2136"),  // 1-3 passes the visited 2: two lines share 1-2
        ("knights", "1634872"),  // shallow knight moves 1-6 and 3-4 cross under 2
    ])
    func matchesGolden(name: String, digits: String) throws {
        let pattern = try Pattern.parse(Array(digits.utf8))
        #expect(pattern.digitString == digits)
        try golden("\(name)-\(digits).unicode.txt", PatternDrawing.render(pattern, style: .unicode))
        try golden("\(name)-\(digits).ascii.txt", PatternDrawing.render(pattern, style: .ascii))
    }

    @Test func numpadLabelsAreTheKeysTyped() throws {
        // Typed on a numpad as 7896321: dots 1 2 3 6 9 8 7, labelled with the numpad's keys.
        let pattern = try Pattern.parse(Array("7896321".utf8), layout: .numpad)
        try golden("numpad-7896321.ascii.txt", PatternDrawing.render(pattern, style: .ascii, layout: .numpad))
        let lines = PatternDrawing.render(pattern, style: .ascii, layout: .numpad).split(separator: "\n")
        #expect(lines.first?.hasPrefix("[7]") == true)
        #expect(lines.last?.hasPrefix(" 1") == true)
    }

    @Test func asciiIsPlainASCII() throws {
        for digits in ["1235789", "2759148", "15743", "159637", "1634872"] {
            let text = PatternDrawing.render(try Pattern.parse(Array(digits.utf8)), style: .ascii)
            #expect(text.utf8.allSatisfy { $0 == 0x0A || ($0 >= 0x20 && $0 < 0x7F) })
        }
        #expect(PatternDrawing.emptyGrid(style: .ascii).utf8.allSatisfy { $0 < 0x80 })
    }

    @Test func startIsBracketedAndEveryStepHasOneArrowhead() throws {
        // For every 4-dot pattern: the nine labels, one "[", one "]" around the
        // start's label, three arrowheads, nine lines, no trailing spaces.
        for pattern in Pattern.allValid(length: 4) {
            let text = PatternDrawing.render(pattern, style: .unicode)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 10 && lines.last == "")
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
            #expect(text.filter { $0.isNumber }.count == 9)
            #expect(text.filter { "→←↑↓↘↙↗↖".contains($0) }.count == 3)
            let start = pattern.dots[0]
            let line = Array(lines[Int(start - 1) / 3 * 4])
            let column = Int(start - 1) % 3 * 8
            #expect(line.count >= column + 3 && String(line[column..<column + 3]) == "[\(start)]")
        }
    }

    /// Every 4-dot pattern's drawing, in both styles, decodes back to it. All
    /// 389,112 are checked by drawing-roundtrip (make test-swift), optimised:
    /// a debug build takes minutes for them.
    @Test func fourDotDrawingsDetermineTheirPattern() throws {
        for pattern in Pattern.allValid(length: 4) {
            for style in [DrawingStyle.ascii, .unicode] {
                let text = PatternDrawing.render(pattern, style: style)
                #expect(try PatternDrawingDecoder.decode(text, layout: .phone) == pattern.dots, "\(text)")
            }
        }
    }

    @Test func numpadDrawingsDecodeWithTheNumpadLayout() throws {
        for pattern in Pattern.allValid(length: 4) {
            let text = PatternDrawing.render(pattern, style: .unicode, layout: .numpad)
            #expect(try PatternDrawingDecoder.decode(text, layout: .numpad) == pattern.dots)
        }
    }

    @Test func decoderRefusesADrawingThatLostItsDirection() throws {
        let text = PatternDrawing.render(try Pattern.parse(Array("2136".utf8)), style: .ascii)
        #expect(try PatternDrawingDecoder.decode(text, layout: .phone) == [2, 1, 3, 6])
        // Without its start mark, or with one arrowhead removed, the drawing is not a pattern.
        #expect(throws: PatternDrawingDecoder.Failure.self) {
            try PatternDrawingDecoder.decode(text.replacingOccurrences(of: "[", with: " "), layout: .phone)
        }
        #expect(throws: PatternDrawingDecoder.Failure.self) {
            try PatternDrawingDecoder.decode(text.replacingOccurrences(of: ">", with: "-"), layout: .phone)
        }
    }

    @Test func emptyGridShowsTheNumbering() {
        #expect(
            PatternDrawing.emptyGrid(style: .ascii) == """
                +-------+
                | 1 2 3 |
                | 4 5 6 |
                | 7 8 9 |
                +-------+

                """)
        #expect(
            PatternDrawing.emptyGrid(style: .unicode) == """
                ┌───────┐
                │ 1 2 3 │
                │ 4 5 6 │
                │ 7 8 9 │
                └───────┘

                """)
        // On a numpad the top row of dots is typed 7 8 9.
        #expect(
            PatternDrawing.emptyGrid(style: .ascii, layout: .numpad) == """
                +-------+
                | 7 8 9 |
                | 4 5 6 |
                | 1 2 3 |
                +-------+

                """)
    }
}
