import Testing

@testable import PatternCore

@Suite struct PatternErrorTests {
    @Test func messages() {
        let expected: [(PatternError, String)] = [
            (.empty, "No pattern was entered."),
            (.tooLong(byteCount: 65), "The input is too long (65 bytes); a pattern is at most 64 bytes."),
            (
                .notADot(character: 0x61, position: 3),
                "'a' at position 3 is not a dot; type the dots as digits 1 to 9."
            ),
            (
                .notADot(character: 0x07, position: 1),
                "Byte 0x07 at position 1 is not a dot; type the dots as digits 1 to 9."
            ),
            (
                .notADot(character: 0xC3, position: 12),
                "Byte 0xC3 at position 12 is not a dot; type the dots as digits 1 to 9."
            ),
            (.zero(position: 2), "'0' at position 2 is not a dot; the dots are numbered 1 to 9."),
            (
                .dotUsedTwice(dot: 5),
                "Dot 5 (centre) is used twice; each dot can be used only once, and a line across an unused dot uses it."
            ),
            (.tooShort(dotCount: 3, minimum: 4), "The pattern has 3 dots; at least 4 are needed."),
            (.tooShort(dotCount: 1, minimum: 6), "The pattern has 1 dot; at least 6 are needed."),
        ]
        for (error, message) in expected { #expect(error.message == message) }
    }

    @Test func dotsAreNamedByTheKeysOfTheLayout() throws {
        // Numpad key 1 is dot 7 (bottom left): the message names the key typed.
        #expect(
            PatternError.dotUsedTwice(dot: 7).message(layout: .numpad)
                == "Dot 1 (bottom left) is used twice; each dot can be used only once, and a line across an unused dot uses it."
        )
        #expect(PatternError.dotUsedTwice(dot: 7).message(layout: .phone).hasPrefix("Dot 7 (bottom left)"))
        // Typed on a numpad, 1471 reaches key 1 again: the error says "Dot 1", not the phone's 7.
        #expect(throws: PatternError.dotUsedTwice(dot: 7)) {
            try Pattern.parse(Array("1471".utf8), layout: .numpad)
        }
    }

    @Test func placeNamesCoverEveryDot() {
        let names = (1...9).map { PatternError.placeName(of: UInt8($0)) }
        #expect(Set(names).count == 9)
        #expect(PatternError.placeName(of: 1) == "top left")
        #expect(PatternError.placeName(of: 9) == "bottom right")
        #expect(PatternError.placeName(of: 0) == "not on the grid")
    }
}
