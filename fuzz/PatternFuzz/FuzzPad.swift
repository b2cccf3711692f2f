import PatternCore

/// Pad input: a grid, then pointer operations, run through PadTrace.
///
/// Byte 0 picks the encoding (bit 0): 0 = screen-sized (grid centre 2 x Int16, spacing and hit radius one
/// byte each, points 2 x Int16), 1 = anything (grid 4 x Int32, points 2 x Int32), little-endian. Each
/// operation is one byte (low 2 bits: 0-1 extend, 2 begin, 3 wipe) and one point (ignored by wipe).
///
/// Properties after every operation: at most 9 dots, each 1...9, none twice, and `isTaken` says the same;
/// the trace is canonical (no line between two consecutive dots jumps an untaken dot, and from 4 dots on
/// `Pattern.parse` of its digits gives those digits back); `withDigits` and `dot(at:)` agree and are 0
/// outside; `lastSample` is the last point; `begin` takes exactly the dot `PadGrid.dot(at:)` names;
/// `extend` only appends. For a segment of at most 4096 pixels, one extend to its end takes exactly what
/// extends to each of its pixels in turn take (the segment walk against the per-point rule).
enum FuzzPad {
    /// The longest segment checked pixel by pixel.
    static let densePixels: Int64 = 4096

    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let control = data.first else { return }
        var reader = Reader(data: data, position: 1, wide: control & 1 == 1)
        guard let grid = reader.grid() else { return }
        var trace = PadTrace()
        while let operation = reader.byte(), let point = reader.point() {
            let before = trace
            switch operation & 3 {
            case 2:
                trace.begin(at: point.x, point.y, on: grid)
                let dot = grid.dot(at: point.x, point.y)
                require(trace.count == (dot == 0 ? 0 : 1) && trace.dot(at: 0) == dot, "begin took \(dots(trace))")
                requireSample(trace, point)
            case 3:
                trace.wipe()
                require(trace.count == 0 && trace.lastSample == nil, "wipe left a trace")
                require(withUnsafeBytes(of: trace) { $0.allSatisfy { $0 == 0 } }, "wipe left a byte")
            default:
                trace.extend(to: point.x, point.y, on: grid)
                requireSample(trace, point)
                require(dots(trace).starts(with: dots(before)), "extend changed \(dots(before)) to \(dots(trace))")
                if let from = before.lastSample { checkDense(before, from: from, to: point, grid, expected: trace) }
            }
            check(trace)
        }
    }

    static func dots(_ trace: PadTrace) -> [UInt8] { (0..<trace.count).map { trace.dot(at: $0) } }

    static func requireSample(_ trace: PadTrace, _ point: (x: Int32, y: Int32)) {
        let sample = trace.lastSample
        require(sample?.x == point.x && sample?.y == point.y, "lastSample is not the last point")
    }

    static func check(_ trace: PadTrace) {
        let dots = dots(trace)
        require(dots.count <= 9, "\(dots.count) dots")
        require(trace.dot(at: -1) == 0 && trace.dot(at: dots.count) == 0 && trace.dot(at: .max) == 0, "dot outside")
        var seen: UInt16 = 0
        for (index, dot) in dots.enumerated() {
            require(dot >= 1 && dot <= 9, "dot \(dot)")
            require(seen & (1 << UInt16(dot)) == 0, "dot \(dot) twice in \(dots)")
            if index > 0, let middle = between(dots[index - 1], dot) {
                require(seen & (1 << UInt16(middle)) != 0, "\(dots) jumps over untaken \(middle)")
            }
            seen |= 1 << UInt16(dot)
        }
        for dot: UInt8 in 0...10 {
            require(trace.isTaken(dot) == (dot >= 1 && dot <= 9 && seen & (1 << UInt16(dot)) != 0), "isTaken(\(dot))")
        }
        let digits = trace.withDigits { Array($0) }
        require(digits == dots.map { $0 + 0x30 }, "withDigits \(digits) for \(dots)")
        if dots.count >= 4 {
            require((try? Pattern.parse(digits))?.digits == digits, "\(dots) is not canonical")
        }
    }

    /// The dot halfway between two dots, if the grid has one there.
    static func between(_ a: UInt8, _ b: UInt8) -> UInt8? {
        let rowSum = Int(a - 1) / 3 + Int(b - 1) / 3
        let columnSum = Int(a - 1) % 3 + Int(b - 1) % 3
        guard rowSum % 2 == 0 && columnSum % 2 == 0 else { return nil }
        return UInt8(rowSum / 2 * 3 + columnSum / 2 + 1)
    }

    /// Feeds the pixels of a short segment one extend each to a copy of the trace before it, and requires
    /// the same dots as the single extend. The pixels: step i of n (the longer axis's length) is at
    /// start + round(i * delta / n) per axis, halves away from the start.
    static func checkDense(
        _ before: PadTrace, from: (x: Int32, y: Int32), to: (x: Int32, y: Int32), _ grid: PadGrid,
        expected: PadTrace
    ) {
        let dx = Int64(to.x) - Int64(from.x)
        let dy = Int64(to.y) - Int64(from.y)
        let n = max(abs(dx), abs(dy))
        guard n > 0 && n <= densePixels else { return }
        var dense = before
        for i in 1...n {
            let x = Int64(from.x) + dx.signum() * ((i * abs(dx) + n / 2) / n)
            let y = Int64(from.y) + dy.signum() * ((i * abs(dy) + n / 2) / n)
            dense.extend(to: Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y), on: grid)
        }
        require(dots(dense) == dots(expected), "segment took \(dots(expected)), its pixels \(dots(dense))")
    }

    struct Reader {
        let data: UnsafeBufferPointer<UInt8>
        var position: Int
        let wide: Bool

        mutating func byte() -> UInt8? {
            guard position < data.count else { return nil }
            position += 1
            return data[position - 1]
        }

        /// A little-endian signed integer of `count` bytes (2 or 4), sign-extended.
        mutating func integer(_ count: Int) -> Int32? {
            guard data.count - position >= count else { return nil }
            var value: UInt32 = 0
            for index in 0..<count { value |= UInt32(data[position + index]) << (8 * index) }
            position += count
            let shift = UInt32(32 - 8 * count)
            return Int32(bitPattern: value << shift) >> shift
        }

        mutating func grid() -> PadGrid? {
            if wide {
                guard let x = integer(4), let y = integer(4), let spacing = integer(4), let radius = integer(4)
                else { return nil }
                return PadGrid(centerX: x, centerY: y, spacing: spacing, hitRadius: radius)
            }
            guard let x = integer(2), let y = integer(2), let spacing = byte(), let radius = byte() else { return nil }
            return PadGrid(centerX: x, centerY: y, spacing: Int32(spacing), hitRadius: Int32(radius))
        }

        mutating func point() -> (x: Int32, y: Int32)? {
            guard let x = integer(wide ? 4 : 2), let y = integer(wide ? 4 : 2) else { return nil }
            return (x, y)
        }
    }
}
