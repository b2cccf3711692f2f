import Testing

@testable import PatternCore

@Suite struct KeypadLayoutTests {
    @Test func optionValues() {
        #expect(KeypadLayout(optionValue: Array("phone".utf8)) == .phone)
        #expect(KeypadLayout(optionValue: Array("numpad".utf8)) == .numpad)
        #expect(KeypadLayout(optionValue: Array("Numpad".utf8)) == nil)
        #expect(KeypadLayout(optionValue: Array("phone ".utf8)) == nil)
        #expect(KeypadLayout(optionValue: []) == nil)
    }

    @Test func phoneKeysAreDots() {
        for key: UInt8 in 1...9 { #expect(KeypadLayout.phone.dot(forKey: key) == key) }
    }

    @Test func numpadSwapsTopAndBottomRows() {
        let expected: [UInt8: UInt8] = [7: 1, 8: 2, 9: 3, 4: 4, 5: 5, 6: 6, 1: 7, 2: 8, 3: 9]
        for (key, dot) in expected {
            #expect(KeypadLayout.numpad.dot(forKey: key) == dot)
            #expect(KeypadLayout.numpad.key(forDot: dot) == key)
        }
    }

    @Test func nonKeysHaveNoDot() {
        for layout in [KeypadLayout.phone, .numpad] {
            #expect(layout.dot(forKey: 0) == nil)
            #expect(layout.dot(forKey: 10) == nil)
            #expect(layout.dot(forKey: 0x31) == nil)  // ASCII, not a key value
        }
    }

    @Test func numpadInputMeansTheSameDrawing() throws {
        let numpad = try Pattern.parse(Array("7415369".utf8), layout: .numpad)
        #expect(numpad.digitString == "1475963")
        #expect(numpad == (try Pattern.parse(Array("1475963".utf8), layout: .phone)))
    }

    @Test func keysRoundTripInEveryLayout() {
        // What a person is shown (keyString) parses back to the same pattern in their layout.
        for pattern in Pattern.allValid(length: 5) {
            for layout in [KeypadLayout.phone, .numpad] {
                #expect((try? Pattern.parse(pattern.keyDigits(layout: layout), layout: layout)) == pattern)
            }
        }
        let z = Pattern(canonicalDots: [1, 2, 3, 5, 7, 8, 9])
        #expect(z.keyString(layout: .phone) == "1235789")
        #expect(z.keyString(layout: .numpad) == "7895123")
    }

    @Test func numpadCanonicalisesInDotSpace() throws {
        // Numpad 7-9 is the top row, dots 1-3: the line picks up dot 2.
        #expect(try Pattern.parse(Array("7956".utf8), layout: .numpad).dots == [1, 2, 3, 5, 6])
    }
}
