import Testing
@testable import PatternCore

@Suite struct PatternEnumerationTests {
    @Test(arguments: [(4, 1_624), (5, 7_152), (6, 26_016), (7, 72_912), (8, 140_704), (9, 140_704)])
    func countPerLength(length: Int, count: Int) {
        let patterns = Pattern.allValid(length: length)
        #expect(patterns.count == count)
        #expect(patterns.allSatisfy { $0.dots.count == length })
    }

    @Test func totalIs389112AndAllDistinct() {
        let all = Pattern.allValid()
        #expect(all.count == 389_112)
        #expect(Set(all).count == 389_112)
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
        for pattern in Pattern.allValid() {
            do {
                if try Pattern.parse(pattern.digits) != pattern { failures += 1 }
            } catch {
                failures += 1
            }
        }
        #expect(failures == 0)
    }

    @Test func knownPatternsAreEnumeratedAndNonCanonicalOnesAreNot() {
        let all = Set(Pattern.allValid().map(\.digits))
        #expect(all.contains(Array("1235789".utf8)))
        #expect(all.contains(Array("2136".utf8)))      // passes visited 2
        #expect(all.contains(Array("1683".utf8)))      // knight moves
        #expect(!all.contains(Array("1379".utf8)))     // 1-3 would pick up 2
        #expect(!all.contains(Array("159".utf8)))      // too short
    }
}
