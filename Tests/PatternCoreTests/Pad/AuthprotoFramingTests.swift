import Testing

@testable import PatternCore

/// authproto's framing, read by the pad (from authproto_pam) and by patternctl (from its drawing window).
@Suite struct AuthprotoFramingTests {
    typealias Wire = AuthprotoFraming

    /// Every framed packet reads back whole, with exactly its own bytes consumed, whatever follows it.
    @Test func aFramedPacketReadsBack() {
        for (type, text) in [
            (UInt8(ascii: "e"), "refused as too easy to guess."), (UInt8(ascii: "n"), ""),
            (UInt8(ascii: "p"), "2946138"),
        ] {
            let framed = Wire.frame(type, Array(text.utf8))
            #expect(framed == Array("\(Character(Unicode.Scalar(type))) \(text.utf8.count)\n\(text)\n".utf8))
            let buffer = framed + Wire.frame(UInt8(ascii: "d"), [])
            guard case .packet(let got, let range, let consumed) = Wire.parse(buffer) else {
                Issue.record("\(text) did not read back")
                continue
            }
            #expect(got == type && Array(buffer[range]) == Array(text.utf8) && consumed == framed.count)
        }
    }

    /// Every proper prefix of a packet asks for more; nothing is read from a part.
    @Test func aPartAsksForMore() {
        let framed = Wire.frame(UInt8(ascii: "i"), Array("Pattern set (7 dots):".utf8))
        for end in 0..<framed.count {
            #expect(Wire.parse(Array(framed[0..<end])) == .incomplete, "\(end)")
        }
    }

    /// What is not this framing breaks the stream instead of being guessed at.
    @Test func otherBytesAreBroken() {
        for text in ["p7\n1234567\n", "p x\n", "p 3\nabcd", "p \n\n", "p 99999999\n", "p 65535\n"] {
            #expect(Wire.parse(Array(text.utf8)) == .broken, "\(text)")
        }
    }
}
