import Testing
@testable import PatternCore
@Test func placeholder() { #expect(Pattern(canonicalDots: [1,2,3,6]).dots.count == 4) }
