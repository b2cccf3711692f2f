import Testing

@testable import PatternCore

@Suite struct PatternTests {
    @Test func digitsAreASCIIOfTheDots() throws {
        let pattern = try Pattern.parse(Array("1379".utf8))
        #expect(pattern.dots == [1, 2, 3, 5, 7, 8, 9])
        #expect(pattern.digits == Array("1235789".utf8))
        #expect(pattern.digitString == "1235789")
    }

    @Test func constants() {
        #expect(Pattern.maximumInputBytes == 64)
        #expect(Pattern.defaultMinimumLength == 4)
    }

    @Test(arguments: [
        (Int.min, 4), (-1, 4), (0, 4), (3, 4), (4, 4), (6, 6), (9, 9), (10, 9), (Int.max, 9),
    ])
    func minimumLengthIsClampedWithoutTrapping(configured: Int, expected: Int) {
        #expect(Pattern.clampedMinimumLength(configured) == expected)
    }

    @Test func equalCanonicalPatternsAreEqualAndHashEqual() throws {
        let typed = try Pattern.parse(Array("1379".utf8))
        let full = try Pattern.parse(Array("1-2-3-5-7-8-9".utf8))
        #expect(typed == full)
        #expect(Set([typed, full]).count == 1)
        #expect(typed != (try Pattern.parse(Array("1235789".utf8).reversed())))
    }

    @Test func dotBetweenKnowsExactlyTheEightJumps() {
        // The jumps that pass over a dot (Android's rule), both directions.
        let jumps: [(UInt8, UInt8, UInt8)] = [
            (1, 3, 2), (4, 6, 5), (7, 9, 8), (1, 7, 4), (2, 8, 5), (3, 9, 6), (1, 9, 5), (3, 7, 5),
        ]
        var found = 0
        for a: UInt8 in 1...9 {
            for b: UInt8 in 1...9 {
                let expected = jumps.first { ($0.0 == a && $0.1 == b) || ($0.0 == b && $0.1 == a) }?.2
                #expect(Pattern.dotBetween(a, b) == expected, "\(a)-\(b)")
                if Pattern.dotBetween(a, b) != nil { found += 1 }
            }
        }
        #expect(found == 16)
    }

    @Test func malformedInternalPatternsNeverTrap() {
        // Only the parser and enumeration make Patterns, but tests elsewhere build bad
        // ones through the internal initialiser: nothing downstream may trap on them.
        let bad: [[UInt8]] = [
            [], [0], [10, 200, 255], [1, 1, 1, 1], Array(repeating: 5, count: 20), [0, 1, 2, 3, 4],
        ]
        for dots in bad {
            let p = Pattern(canonicalDots: dots)
            _ = p.digitString
            _ = p.keyString(layout: .numpad)
            for symmetry in Symmetry.allCases { _ = p.applying(symmetry) }
            #expect(p.weakness() != nil || dots.count >= 4)
            #expect(PatternDrawing.render(p, style: .ascii).filter { $0 == "\n" }.count == 9)
            #expect(PatternDrawing.render(p, style: .unicode, layout: .numpad).filter { $0 == "\n" }.count == 9)
        }
    }
}
