import CPatternSystem

/// The dots one drawing on a pad has taken, in drawing order, by Android's hit rules (AOSP
/// frameworks/base, core/java/com/android/internal/widget/LockPatternView.java: handleActionDown,
/// handleActionMove, detectAndAddHit, checkForNewHit, detectCellHit). A press starts a fresh trace and
/// takes the dot under it. Every dot has a hit circle (`PadGrid.effectiveHitRadius`, open: a point exactly
/// on the rim misses); a dot is taken when the pointer's path enters its circle. Between two pointer
/// samples the path is the digital straight line of `PadSegment`, walked pixel by pixel, because Android
/// runs detectAndAddHit on every historical touch point (a touch screen reports at 120-240 Hz, a few
/// pixels apart) while a pad that polls the pointer sees a fast swipe as a few samples far apart: 1 to 9
/// in one segment gives 1, 5, 9, and the circles of one segment are taken in the order it enters them.
/// When a new dot lies two cells from the last one in a row, column or diagonal and the dot between is
/// not taken yet, that dot is taken first (detectAndAddHit's gap filling: 1 then 3 gives 1, 2, 3), exactly
/// the rule `Pattern.parse` applies to typed digits, so a trace's digits are always a canonical pattern.
/// No dot twice; at most 9. The whole state is inline (no heap): the pad can keep it in one locked page
/// and `wipe` it.
public struct PadTrace: Sendable {
    /// Dots taken, in order; slots at and after `storedCount` are 0.
    private var slots: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var storedCount: UInt8 = 0
    /// Bit d set = dot d taken.
    private var taken: UInt16 = 0
    private var sampleX: Int32 = 0
    private var sampleY: Int32 = 0
    private var hasSample = false

    public init() {}

    /// Dots taken, 0...9.
    public var count: Int { Int(storedCount) }

    /// The dot at `index` (1...9) for index < count, 0 otherwise.
    public func dot(at index: Int) -> UInt8 {
        guard index >= 0 && index < count else { return 0 }
        // Read in place: withUnsafeBytes(of:) on a non-mutating self may copy the dots to the stack.
        switch index {
        case 0: return slots.0
        case 1: return slots.1
        case 2: return slots.2
        case 3: return slots.3
        case 4: return slots.4
        case 5: return slots.5
        case 6: return slots.6
        case 7: return slots.7
        default: return slots.8
        }
    }

    /// True if dot 1...9 is in the trace (a pad lights it).
    public func isTaken(_ dot: UInt8) -> Bool {
        dot >= 1 && dot <= 9 && taken & (1 << UInt16(dot)) != 0
    }

    /// The last pointer position given to `begin` or `extend` (where the trailing line ends), nil before
    /// the first and after `wipe`.
    public var lastSample: (x: Int32, y: Int32)? {
        hasSample ? (sampleX, sampleY) : nil
    }

    /// A fresh press at (x, y): forgets the previous drawing, then takes the dot under the pointer, if any.
    public mutating func begin(at x: Int32, _ y: Int32, on grid: PadGrid) {
        wipe()
        take(grid.dot(at: x, y))
        sampleX = x
        sampleY = y
        hasSample = true
    }

    /// The pointer moved to (x, y): takes every dot the segment from the last sample enters, in the order
    /// it enters them. Without a last sample (no `begin` since the last wipe) only (x, y) is hit-tested.
    public mutating func extend(to x: Int32, _ y: Int32, on grid: PadGrid) {
        let from = lastSample ?? (x, y)
        sampleX = x
        sampleY = y
        hasSample = true
        guard storedCount < 9 else { return }
        let segment = PadSegment(from: from, to: (x, y))
        // The first step into each dot's circle; dots already taken cannot change the trace.
        var entries: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (.max, .max, .max, .max, .max, .max, .max, .max, .max)
        withUnsafeMutableBytes(of: &entries) { raw in
            let entry = raw.bindMemory(to: UInt64.self)
            for dot: UInt8 in 1...9 where !isTaken(dot) {
                entry[Int(dot) - 1] = segment.firstStep(into: dot, of: grid) ?? .max
            }
            // Circles never overlap, so no two dots share a first step: take them earliest first.
            while true {
                var next = 0
                for index in 0..<9 where entry[index] < entry[next] { next = index }
                guard entry[next] != .max else { return }
                entry[next] = .max
                take(UInt8(next + 1))
            }
        }
    }

    /// The trace as ASCII digits '1'...'9' (`count` bytes), in a local buffer that is wiped when `body`
    /// returns. `body` must not keep the pointer.
    public func withDigits<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var digits = slots
        return withUnsafeMutableBytes(of: &digits) { raw in
            defer { pattern_secure_zero(raw.baseAddress, raw.count) }
            for index in 0..<count { raw[index] = raw[index] &+ 0x30 }
            let bytes = raw.bindMemory(to: UInt8.self)
            return body(UnsafeBufferPointer(rebasing: bytes[0..<count]))
        }
    }

    /// Zeroes every slot, the taken set and the last sample (explicit_bzero); count is 0 afterwards.
    public mutating func wipe() {
        withUnsafeMutableBytes(of: &self) { raw in pattern_secure_zero(raw.baseAddress, raw.count) }
    }

    /// Takes dot 1...9 unless it is taken (checkForNewHit), the untaken dot between it and the last dot
    /// first (detectAndAddHit's gap filling, `Pattern.dotBetween`). 0 (no dot) does nothing.
    private mutating func take(_ newDot: UInt8) {
        guard newDot >= 1 && newDot <= 9 && !isTaken(newDot) else { return }
        let last = dot(at: count - 1)
        if last != 0, let middle = Pattern.dotBetween(last, newDot), !isTaken(middle) { append(middle) }
        append(newDot)
    }

    private mutating func append(_ dot: UInt8) {
        guard storedCount < 9 else { return }
        let index = Int(storedCount)
        withUnsafeMutableBytes(of: &slots) { $0[index] = dot }
        storedCount += 1
        taken |= 1 << UInt16(dot)
    }
}
