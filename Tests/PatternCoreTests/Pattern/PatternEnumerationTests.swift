import Testing

@testable import PatternCore

/// Enumerated once for the whole suite (debug builds are slow).
private let allPatterns = Pattern.allValid()

@Suite struct PatternEnumerationTests {
    @Test(arguments: [(4, 1_624), (5, 7_152), (6, 26_016), (7, 72_912), (8, 140_704), (9, 140_704)])
    func countPerLength(length: Int, count: Int) {
        let patterns = Pattern.allValid(length: length)
        #expect(patterns.count == count)
        #expect(patterns.allSatisfy { $0.dots.count == length })
    }

    @Test func totalIs389112AndAllDistinct() {
        #expect(allPatterns.count == 389_112)
        // Distinct: within each length the DFS yields strictly increasing digit strings
        // (cheaper than hashing 389k arrays in a debug build).
        var unordered = 0
        for (a, b) in zip(allPatterns, allPatterns.dropFirst()) where a.dots.count == b.dots.count {
            if !a.dots.lexicographicallyPrecedes(b.dots) { unordered += 1 }
        }
        #expect(unordered == 0)
        // Shortest first, each length the same as allValid(length:).
        #expect(allPatterns.prefix(1_624).elementsEqual(Pattern.allValid(length: 4)))
        #expect(allPatterns.suffix(140_704).allSatisfy { $0.dots.count == 9 })
    }

    @Test func shortCanonicalSequencesMatchTheKnownCounts() {
        #expect(Pattern.allCanonical(length: 1).count == 9)
        #expect(Pattern.allCanonical(length: 2).count == 56)
        #expect(Pattern.allCanonical(length: 3).count == 320)
    }

    @Test(arguments: [-1, 0, 1, 3, 10, Int.max])
    func lengthsOutsideFourToNineGiveNothing(length: Int) {
        #expect(Pattern.allValid(length: length).isEmpty)
    }

    @Test func everyPatternParsesFromItsOwnDigitsToItself() throws {
        var failures = 0
        for pattern in allPatterns {
            do {
                if try Pattern.parse(pattern.digits) != pattern { failures += 1 }
            } catch {
                failures += 1
            }
        }
        #expect(failures == 0)
    }

    @Test func knownPatternsAreEnumeratedAndNonCanonicalOnesAreNot() {
        func has(_ digits: String) -> Bool {
            allPatterns.contains(Pattern(canonicalDots: Array(digits.utf8).map { $0 - 0x30 }))
        }
        #expect(has("1235789"))
        #expect(has("2136"))  // passes visited 2
        #expect(has("1683"))  // knight moves
        #expect(!has("1379"))  // 1-3 would pick up 2
        #expect(!has("159"))  // too short
    }
}
