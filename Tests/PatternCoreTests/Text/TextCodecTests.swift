import Testing

@testable import PatternCore

/// The one home of the small codecs; the message builders and the option parser go through it.
struct TextCodecTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func decimalsWithAndWithoutSign() {
        #expect(text(TextCodec.decimal(0)) == "0")
        #expect(text(TextCodec.decimal(1_764_460_000)) == "1764460000")
        #expect(text(TextCodec.decimal(-5)) == "0")
        #expect(text(TextCodec.decimal(42, width: 10)) == "0000000042")
        #expect(text(TextCodec.signedDecimal(-31_536_000)) == "-31536000")
        #expect(text(TextCodec.signedDecimal(Int64.min)) == "-9223372036854775808")
        #expect(text(TextCodec.signedDecimal(Int64.max)) == "9223372036854775807")
        var message = MessageBytes()
        message.add(number: -7)
        #expect(text(message.bytes) == "-7")
    }

    @Test func parsingDecimalsNeverTraps() {
        #expect(TextCodec.parseDecimal(Array("9223372036854775807".utf8)) == Int64.max)
        #expect(TextCodec.parseDecimal(Array("9223372036854775808".utf8)) == nil)
        #expect(TextCodec.parseDecimal(Array("01".utf8), leadingZeros: false) == nil)
        #expect(TextCodec.parseDecimal(Array("-1".utf8)) == nil)
        #expect(OptionSetting.decimal(Array("0042".utf8)[...]) == 42)
        #expect(OptionSetting.decimal([][...]) == nil)
    }

    @Test func hexInBothCases() {
        #expect(text(TextCodec.hex([0x00, 0x1B, 0xAF, 0xFF])) == "001bafff")
        #expect(text(TextCodec.hex([0x00, 0x1B, 0xAF, 0xFF], uppercase: true)) == "001BAFFF")
        #expect(TextCodec.parseHex(Array("001baf".utf8)) == [0x00, 0x1B, 0xAF])
        #expect(TextCodec.parseHex(Array("001BAF".utf8)) == nil)
        #expect(PatternError.describe(0x1B) == "Byte 0x1B")
        #expect(PatternError.describe(0xC3) == "Byte 0xC3")
    }

    @Test func everySanitiserGivesTheSameBytes() {
        let raw: [UInt8] = [0x61, 0x20, 0x1B, 0x5B, 0x0A, 0x7F, 0xC3, 0xA9, 0x7E]
        #expect(text(TextCodec.printable(raw)) == "a ?[????~")
        #expect(text(TextCodec.printable(raw, space: false)) == "a??[????~")
        #expect(text(TextCodec.printable(raw, limit: 3)) == "a ?...")
        var message = MessageBytes()
        message.add(printable: raw)
        #expect(message.bytes == TextCodec.printable(raw))
        let long = [UInt8](repeating: 0x0A, count: 70)
        #expect(
            text(PatternSettings.problem("option ", long, " ignored"))
                == "option \"" + String(repeating: "?", count: 64) + "...\" ignored")
    }
}
