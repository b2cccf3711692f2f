import Testing

@testable import PatternCore

@Suite struct PadLineBreakTests {
    /// A monospace font: 10 px per character.
    static func measure(_ bytes: [UInt8]) -> Int32 {
        Int32(bytes.filter { $0 & 0xC0 != 0x80 }.count * 10)
    }

    static func lines(_ text: String, width: Int32) -> [String] {
        PadLineBreak.lines(Array(text.utf8), width: width, measure: measure).map { String(decoding: $0, as: UTF8.self) }
    }

    static let lockout = "Wrong pattern. Too many wrong patterns: try again in 59 seconds. Your password still works."

    /// A greedy fill at 850 px (and at 440) leaves "works." alone on the last line; here the lines are about as long.
    @Test func noWordIsLeftAloneOnTheLastLine() {
        for (width, count) in [(Int32(850), 2), (Int32(440), 3)] {
            let pieces = PadLineBreak.pieces(Array(Self.lockout.utf8), width: width, measure: Self.measure)
            let greedy = PadLineBreak.fill(pieces, width: width, space: 10)
            #expect(greedy.count == count && greedy.last?.count == 1, "the greedy fill strands no word at \(width)")
            let got = Self.lines(Self.lockout, width: width)
            #expect(got.count == count, "\(got)")
            for line in got {
                #expect(line.count * 10 <= width, "\(line)")
                #expect(line.split(separator: " ").count >= 3, "\(got)")
            }
            #expect(got.joined(separator: " ") == Self.lockout)
        }
    }

    @Test func aSingleWordStaysOnOneLineAndAShortTextIsOneLine() {
        #expect(Self.lines("Checking…", width: 300) == ["Checking…"])
        #expect(Self.lines("", width: 300) == [])
        #expect(Self.lines("Unlocked.", width: 30).joined() == "Unlocked.")  // cut between characters, nothing lost
    }

    /// "…works" and the last two words: with one word too many for two lines, the last line still gets two.
    @Test func theLineAboveGivesUpAWordRatherThanStrandOne() {
        // 7 words of 4 characters: 4 fit on a 200 px line (4*40 + 3*10 = 190).
        let text = "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii"
        let got = Self.lines(text, width: 200)
        #expect(got.last?.split(separator: " ").count ?? 0 >= 2, "\(got)")
        #expect(got.allSatisfy { $0.count <= 20 })
        #expect(got.joined(separator: " ") == text)
    }

    /// Chinese breaks between characters, never before 。 or ，, and balances the same way.
    @Test func chineseBreaksBetweenCharactersButNotBeforeAClosingMark() {
        let text = "图案错误。尝试次数过多：请在 59 秒后重试。你的密码仍然可用。"
        for width: Int32 in [120, 150, 200, 260] {
            let got = Self.lines(text, width: width)
            #expect(got.allSatisfy { Self.measure(Array($0.utf8)) <= width }, "\(width): \(got)")
            #expect(got.allSatisfy { !$0.hasPrefix("。") && !$0.hasPrefix("，") && !$0.hasPrefix("：") }, "\(got)")
            #expect((got.last.map { Self.measure(Array($0.utf8)) } ?? 0) > 10, "a character alone: \(got)")
            #expect(String(got.joined().filter { $0 != " " }) == String(text.filter { $0 != " " }))
        }
    }

    @Test func atMostSixLines() {
        let text = String(repeating: "word ", count: 60)
        #expect(Self.lines(text, width: 100).count == 6)
    }
}
