import Testing

@testable import PatternCore

/// Parses a string's bytes (tests only: the core never takes a String).
private func parse(
    _ text: String, layout: KeypadLayout = .phone, minimumLength: Int = 4
) throws(PatternError) -> Pattern {
    try Pattern.parse(Array(text.utf8), layout: layout, minimumLength: minimumLength)
}

private func refusal(_ text: String, layout: KeypadLayout = .phone, minimumLength: Int = 4) -> PatternError? {
    do { _ = try parse(text, layout: layout, minimumLength: minimumLength); return nil } catch { return error }
}

private func canonical(_ text: String) throws(PatternError) -> String {
    String(
        decoding: try Pattern.canonicalDots(typed: Array(text.utf8), layout: .phone).map { $0 + 0x30 },
        as: UTF8.self)
}

@Suite struct PatternParserTests {
    @Test(arguments: [
        ("1379", "1235789"), ("213", "213"), ("1934", "159634"), ("462", "4562"), ("8246", "85246"),
        ("2136", "2136"), ("1683", "1683"), ("19", "159"), ("379", "35789"), ("5", "5"),
        ("7", "7"), ("1-3", "123"), ("9 1", "951"),
    ])
    func canonicalDots(typed: String, expected: String) throws {
        #expect(try canonical(typed) == expected)
    }

    @Test func publicParseGivesTheCanonicalPattern() throws {
        #expect(try parse("1379").digitString == "1235789")
        #expect(try parse("1934").digitString == "159634")
        #expect(try parse("462", minimumLength: 4).digitString == "4562")
        #expect(try parse("8246").digitString == "85246")
        #expect(try parse("1379").dots == [1, 2, 3, 5, 7, 8, 9])
    }

    @Test func separatorsAreIgnored() throws {
        let plain = try parse("12369")
        #expect(try parse("1-2-3-6-9") == plain)
        #expect(try parse(" 1 2 3 6 9 ") == plain)
        #expect(try parse("--1 2--36 - 9") == plain)
    }

    @Test func bufferAndArrayAgree() throws {
        let bytes = Array("1 3 7 9".utf8)
        let fromBuffer = try bytes.withUnsafeBufferPointer { (buffer) throws(PatternError) -> Pattern in
            try Pattern.parse(buffer)
        }
        #expect(fromBuffer == (try Pattern.parse(bytes)))
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        #expect(throws: PatternError.empty) { try Pattern.parse(empty) }
    }

    // MARK: refusals

    @Test func empty() {
        #expect(refusal("") == .empty)
        #expect(refusal("   ") == .empty)
        #expect(refusal("- -") == .empty)
        #expect(refusal("")?.message == "No pattern was entered.")
    }

    @Test func tooLongIsRefusedBeforeAnyOtherCheck() {
        let sixtyFour = String(repeating: " ", count: 60) + "1236"
        #expect(refusal(sixtyFour) == nil)
        // 65 bytes that are all garbage: still reported as too long, not as a bad character.
        let garbage = String(repeating: "x", count: 65)
        #expect(refusal(garbage) == .tooLong(byteCount: 65))
        #expect(refusal(garbage)?.message == "The input is too long (65 bytes); a pattern is at most 64 bytes.")
        #expect(refusal(String(repeating: "1", count: 1000)) == .tooLong(byteCount: 1000))
    }

    @Test func notADotNamesTheCharacterAndPosition() {
        #expect(refusal("12a4") == .notADot(character: 0x61, position: 3))
        #expect(refusal("12a4")?.message == "'a' at position 3 is not a dot; type the dots as digits 1 to 9.")
        #expect(refusal("1236\n") == .notADot(character: 0x0A, position: 5))
        #expect(refusal("1236\n")?.message == "Byte 0x0A at position 5 is not a dot; type the dots as digits 1 to 9.")
        #expect(refusal("1,2,3,6") == .notADot(character: 0x2C, position: 2))
        #expect(refusal("12\t36") == .notADot(character: 0x09, position: 3))
        #expect(refusal("١٢٣٤") == .notADot(character: 0xD9, position: 1))  // Arabic digits are not dots
        // A typo is reported even when a rule is broken earlier: "11" then 'x'.
        #expect(refusal("11x") == .notADot(character: 0x78, position: 3))
    }

    @Test func zero() {
        #expect(refusal("1023") == .zero(position: 2))
        #expect(refusal("1 0")?.message == "'0' at position 3 is not a dot; the dots are numbered 1 to 9.")
    }

    @Test func dotUsedTwice() {
        #expect(refusal("12321") == .dotUsedTwice(dot: 2))
        #expect(refusal("11236") == .dotUsedTwice(dot: 1))
        // Typed once, but 1-3 already picked up dot 2.
        #expect(refusal("1325") == .dotUsedTwice(dot: 2))
        #expect(
            refusal("1325")?.message
                == "Dot 2 (top middle) is used twice; each dot can be used only once, and a line across an unused dot uses it."
        )
        // Numpad reports the dot (grid position), not the typed key: key 7 is dot 1.
        #expect(refusal("78947", layout: .numpad) == .dotUsedTwice(dot: 1))
        // Ten dots cannot all be distinct.
        #expect(refusal("1234567891") == .dotUsedTwice(dot: 1))
    }

    @Test func tooShortCountsTheCanonicalPattern() {
        #expect(refusal("19") == .tooShort(dotCount: 3, minimum: 4))
        #expect(refusal("19")?.message == "The pattern has 3 dots; at least 4 are needed.")
        #expect(refusal("5") == .tooShort(dotCount: 1, minimum: 4))
        #expect(refusal("213") == .tooShort(dotCount: 3, minimum: 4))
        // Three typed dots, but 1-3 picks up 2 and 3-9 picks up 6: five dots.
        #expect(refusal("139") == nil)
        #expect((try? parse("139"))?.digitString == "12369")
    }

    @Test func minimumLengthIsConfigurableAndClamped() {
        #expect(refusal("1236", minimumLength: 5) == .tooShort(dotCount: 4, minimum: 5))
        #expect(refusal("12369", minimumLength: 5) == nil)
        #expect(refusal("12369874", minimumLength: 9) == .tooShort(dotCount: 8, minimum: 9))
        // Below 4 is raised to 4; above 9 lowered to 9; no trap on extremes.
        #expect(refusal("123", minimumLength: 1) == .tooShort(dotCount: 3, minimum: 4))
        #expect(refusal("123", minimumLength: Int.min) == .tooShort(dotCount: 3, minimum: 4))
        #expect(refusal("123654789", minimumLength: Int.max) == nil)
        #expect(refusal("12365478", minimumLength: 100) == .tooShort(dotCount: 8, minimum: 9))
    }

    @Test func everyByteValueIsHandledWithoutTrapping() {
        for byte in UInt8.min...UInt8.max {
            var bytes: [UInt8] = [0x31, byte, 0x39]
            bytes.append(0x37)
            do { _ = try Pattern.parse(bytes) } catch {
                switch error {
                case .notADot(let character, let position): #expect(character == byte && position == 2)
                case .zero(let position): #expect(byte == 0x30 && position == 2)
                case .dotUsedTwice, .tooShort: #expect(byte >= 0x31 && byte <= 0x39 || byte == 0x20 || byte == 0x2D)
                default: Issue.record("unexpected \(error) for byte \(byte)")
                }
            }
        }
    }
}
