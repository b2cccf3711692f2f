/// Every valid pattern, by depth-first search over the grid (not a filter
/// over 9^9 digit strings): 389,112 patterns of 4...9 dots.
extension Pattern {
    /// All valid patterns of 4...9 dots (389,112), shortest first, each length in lexicographic order.
    public static func allValid() -> [Pattern] {
        var result: [Pattern] = []
        result.reserveCapacity(389_112)
        for length in minimumLengthRange {
            appendCanonical(length: length, to: &result)
        }
        return result
    }

    /// All valid patterns of exactly `length` dots; empty outside 4...9.
    public static func allValid(length: Int) -> [Pattern] {
        guard minimumLengthRange.contains(length) else { return [] }
        return allCanonical(length: length)
    }

    /// All canonical dot sequences of `length` 1...9 (including the 1-3 dot
    /// ones that are too short to be valid: 9, 56, 320, as a drawing may be while it is drawn); empty otherwise.
    public static func allCanonical(length: Int) -> [Pattern] {
        var result: [Pattern] = []
        appendCanonical(length: length, to: &result)
        return result
    }

    static func appendCanonical(length: Int, to result: inout [Pattern]) {
        guard length >= 1 && length <= 9 else { return }
        var path: [UInt8] = []
        path.reserveCapacity(9)
        extend(&path, visited: 0, length: length, into: &result)
    }

    /// Extends `path` by every dot that can be drawn next. Drawing to a dot
    /// behind an unvisited one would pick that one up first, so such a step
    /// is not a separate pattern: it is already produced via the middle dot.
    private static func extend(
        _ path: inout [UInt8], visited: UInt16, length: Int,
        into result: inout [Pattern]
    ) {
        if path.count == length {
            result.append(Pattern(canonicalDots: path))
            return
        }
        for next: UInt8 in 1...9 where visited & (1 << UInt16(next)) == 0 {
            if let last = path.last, let middle = dotBetween(last, next),
                visited & (1 << UInt16(middle)) == 0
            {
                continue
            }
            path.append(next)
            extend(&path, visited: visited | (1 << UInt16(next)), length: length, into: &result)
            path.removeLast()
        }
    }
}
