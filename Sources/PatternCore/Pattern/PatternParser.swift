/// Turning typed bytes into a canonical pattern, by Android's rules.
extension Pattern {
    /// ASCII space and '-' may separate dots ("1-2-3-6", "1 5 9 6") and are ignored.
    @inline(__always)
    static func isSeparator(_ byte: UInt8) -> Bool {
        return byte == 0x20 || byte == 0x2D
    }

    /// Parses typed digits into a canonical pattern of at least `minimumLength`
    /// dots (clamped to 4...9). Errors, in order: too long (before anything
    /// else), a character that is not a dot or '0' (first one wins), empty,
    /// a dot used twice, too short (counted on the canonical pattern).
    public static func parse<Input: Collection>(
        _ input: Input, layout: KeypadLayout = .phone,
        minimumLength: Int = 4
    ) throws(PatternError) -> Pattern
    where Input.Element == UInt8 {
        var dots = try canonicalDots(typed: input, layout: layout)
        let minimum = clampedMinimumLength(minimumLength)
        guard dots.count >= minimum else {
            let count = dots.count
            Pattern.zero(&dots)
            throw .tooShort(dotCount: count, minimum: minimum)
        }
        return Pattern(canonicalDots: dots)
    }

    /// Everything `parse` does except the length minimum: the canonical dots of
    /// typed input, which may be 1-3 dots long. Internal so tests can check
    /// canonicalisation of short inputs ("213") while the public minimum stays 4.
    static func canonicalDots<Input: Collection>(
        typed input: Input,
        layout: KeypadLayout
    ) throws(PatternError) -> [UInt8]
    where Input.Element == UInt8 {
        // Cap first: a hostile caller cannot make us scan megabytes.
        let byteCount = input.count
        guard byteCount <= maximumInputBytes else { throw .tooLong(byteCount: byteCount) }

        // Pass 1: the characters. A typo anywhere is reported as a typo, even
        // when a rule would also be broken earlier in the input.
        var keys: [UInt8] = []
        keys.reserveCapacity(byteCount)
        // The typed keys are the pattern (or a password typed out of habit): zeroed before they are freed.
        defer { Pattern.zero(&keys) }
        var position = 0
        for byte in input {
            position += 1
            if isSeparator(byte) { continue }
            if byte == 0x30 { throw .zero(position: position) }
            guard byte >= 0x31 && byte <= 0x39,
                let dot = layout.dot(forKey: byte &- 0x30)
            else {
                throw .notADot(character: byte, position: position)
            }
            keys.append(dot)
        }
        guard !keys.isEmpty else { throw .empty }

        // Pass 2: the drawing rules.
        return try canonicalDots(drawn: keys)
    }

    /// Applies Android's rules to dots (1...9) in the order they were drawn:
    /// a line over an unvisited dot picks it up; over a visited dot it simply
    /// passes; reaching a visited dot is an error.
    static func canonicalDots(drawn: [UInt8]) throws(PatternError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(9)
        do throws(PatternError) {
            try appendCanonical(drawn, to: &result)
        } catch {
            Pattern.zero(&result)
            throw error
        }
        return result
    }

    /// The drawing rules of `canonicalDots(drawn:)`, appending to `result`.
    static func appendCanonical(_ drawn: [UInt8], to result: inout [UInt8]) throws(PatternError) {
        var visited: UInt16 = 0  // bit d set = dot d used
        var previous: UInt8? = nil
        for dot in drawn {
            guard dot >= 1 && dot <= 9 else {
                throw .notADot(character: dot &+ 0x30, position: result.count + 1)
            }
            if let from = previous, let middle = dotBetween(from, dot),
                visited & (1 << UInt16(middle)) == 0
            {
                visited |= 1 << UInt16(middle)
                result.append(middle)
            }
            guard visited & (1 << UInt16(dot)) == 0 else { throw .dotUsedTwice(dot: dot) }
            visited |= 1 << UInt16(dot)
            result.append(dot)
            previous = dot
        }
    }
}
