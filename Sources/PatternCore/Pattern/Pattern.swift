import CPatternSystem

/// A valid, canonical unlock pattern: the dots in drawing order.
///
/// Dots are numbered like a phone keypad (1 2 3 / 4 5 6 / 7 8 9). Canonical
/// means every dot a line passed over while unvisited is listed, so typed
/// "1379" and "1235789" give equal patterns. Build one with `parse`, or take
/// one from `allValid()`; the initialiser is internal so the invariant holds.
public struct Pattern: Hashable, Sendable {
    /// Canonical dots, values 1...9 in drawing order, none repeated.
    public let dots: [UInt8]

    /// Typed input longer than this is refused before looking at it (a pattern
    /// has at most 9 dots; the rest is room for separators).
    public static let maximumInputBytes = 64

    /// Android's minimum (MIN_LOCK_PATTERN_SIZE).
    public static let defaultMinimumLength = 4

    /// The range a configured minimum length is clamped to (4...9: a 3x3 pattern has at most 9 dots); the
    /// option table's `minlen` takes it from here.
    public static let minimumLengthRange: ClosedRange<Int> = 4...9

    /// Trusts the caller that `dots` is canonical (parser, enumeration, symmetries).
    init(canonicalDots: [UInt8]) {
        self.dots = canonicalDots
    }

    /// A configured minimum brought into 4...9, so no setting can allow
    /// 1-3 dot patterns or demand the impossible (never traps).
    public static func clampedMinimumLength(_ minimumLength: Int) -> Int {
        return min(max(minimumLength, minimumLengthRange.lowerBound), minimumLengthRange.upperBound)
    }

    /// Zeroes the dots in place (explicit_bzero), in every copy of this pattern (they share the storage), so
    /// the pattern does not stay in the host's freed memory. Call it when the pattern is no longer needed; the
    /// pattern is empty-valued (all zero dots) afterwards.
    public func wipe() {
        dots.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            pattern_secure_zero(UnsafeMutableRawPointer(mutating: base), buffer.count)
        }
    }

    /// Zeroes a byte array through explicit_bzero.
    static func zero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in pattern_secure_zero(buffer.baseAddress, buffer.count) }
    }

    /// The canonical dots as ASCII digits '1'...'9'.
    public var digits: [UInt8] {
        return dots.map { $0 &+ 0x30 }
    }

    /// The canonical dots as a string of digits, e.g. "1235789". For people only.
    public var digitString: String {
        return String(decoding: digits, as: UTF8.self)
    }
}

// Grid geometry shared by the parser, enumeration, symmetries and drawing.
extension Pattern {
    /// Row 0...2 of a dot 1...9.
    @inline(__always)
    static func row(of dot: UInt8) -> Int { Int((dot &- 1) / 3) }

    /// Column 0...2 of a dot 1...9.
    @inline(__always)
    static func column(of dot: UInt8) -> Int { Int((dot &- 1) % 3) }

    /// The dot at row and column 0...2.
    @inline(__always)
    static func dot(row: Int, column: Int) -> UInt8 { UInt8(truncatingIfNeeded: row * 3 + column + 1) }

    /// The dot a straight line from `a` to `b` passes over (1-3 passes 2,
    /// 1-9 passes 5, ...), or nil for neighbours and knight moves.
    /// Both arguments must be dots 1...9.
    static func dotBetween(_ a: UInt8, _ b: UInt8) -> UInt8? {
        let rowSum = row(of: a) + row(of: b)
        let columnSum = column(of: a) + column(of: b)
        // A grid point lies halfway exactly when both coordinate sums are even.
        guard rowSum % 2 == 0, columnSum % 2 == 0, a != b else { return nil }
        return dot(row: rowSum / 2, column: columnSum / 2)
    }
}
