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
        ("z", "1235789"),          // the Z: straight lines and diagonals
        ("s", "123654789"),        // all nine dots, rows and columns
        ("knight", "2759148"),     // knight moves 2-7 and 4-8, 9-1 over the visited centre
        ("cross", "15743"),        // the knight 4-3 crosses the diagonal 1-5
        ("back", "2136"),          // 1-3 passes the visited 2
    ])
    func matchesGolden(name: String, digits: String) throws {
        let pattern = try Pattern.parse(Array(digits.utf8))
        #expect(pattern.digitString == digits)
        try golden("\(name)-\(digits).unicode.txt", PatternDrawing.render(pattern, style: .unicode))
        try golden("\(name)-\(digits).ascii.txt", PatternDrawing.render(pattern, style: .ascii))
    }

    @Test func asciiIsPlainASCII() throws {
        for digits in ["1235789", "2759148", "15743", "159637"] {
            let text = PatternDrawing.render(try Pattern.parse(Array(digits.utf8)), style: .ascii)
            #expect(text.utf8.allSatisfy { $0 == 0x0A || ($0 >= 0x20 && $0 < 0x7F) })
        }
        #expect(PatternDrawing.emptyGrid(style: .ascii).utf8.allSatisfy { $0 < 0x80 })
    }

    @Test func startIsMarkedAndEveryStepNumbered() throws {
        // For every 4-dot pattern: exactly one "[1]", step numbers 1...4 once each,
        // five unused dots, seven lines plus the legend, no trailing spaces.
        for pattern in Pattern.allValid(length: 4) {
            let text = PatternDrawing.render(pattern, style: .ascii)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 9 && lines.last == "")
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
            let grid = lines.prefix(7).joined(separator: "\n")
            #expect(grid.components(separatedBy: "[1]").count == 2)
            for step in ["2", "3", "4"] { #expect(grid.filter { String($0) == step }.count == 1) }
            #expect(grid.filter { $0 == "." }.count == 5)
            // The start is bracketed at its own dot.
            let start = pattern.dots[0]
            let row = Int(start - 1) / 3 * 3
            let column = Int(start - 1) % 3 * 6
            let line = Array(lines[row].utf8)
            #expect(line.count >= column + 3 && Array(line[column..<column + 3]) == Array("[1]".utf8))
        }
    }

    @Test func emptyGridShowsTheNumbering() {
        #expect(PatternDrawing.emptyGrid(style: .ascii) == """
            +-------+
            | 1 2 3 |
            | 4 5 6 |
            | 7 8 9 |
            +-------+

            """)
        #expect(PatternDrawing.emptyGrid(style: .unicode) == """
            ┌───────┐
            │ 1 2 3 │
            │ 4 5 6 │
            │ 7 8 9 │
            └───────┘

            """)
        // On a numpad the top row of dots is typed 7 8 9.
        #expect(PatternDrawing.emptyGrid(style: .ascii, layout: .numpad) == """
            +-------+
            | 7 8 9 |
            | 4 5 6 |
            | 1 2 3 |
            +-------+

            """)
    }
}
