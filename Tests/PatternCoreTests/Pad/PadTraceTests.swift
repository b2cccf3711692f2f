import Testing

@testable import PatternCore

/// The trace's dots as a digit string ("159").
private func digits(_ trace: PadTrace) -> String {
    trace.withDigits { String(decoding: $0, as: UTF8.self) }
}

/// A press at the first point, then the pointer samples at the others.
private func draw(_ points: [(Int32, Int32)], on grid: PadGrid = PadGridTests.grid) -> PadTrace {
    var trace = PadTrace()
    guard let first = points.first else { return trace }
    trace.begin(at: first.0, first.1, on: grid)
    for point in points.dropFirst() { trace.extend(to: point.0, point.1, on: grid) }
    return trace
}

/// The centre of a dot of the test grid.
private func at(_ dot: UInt8) -> (Int32, Int32) {
    let center = PadGridTests.grid.center(of: dot)
    return (center.x, center.y)
}

@Suite struct PadTraceTests {
    // MARK: named drawings (grid: dot 5 at (500, 400), 100 px apart, 30 px hit radius)

    @Test func aTapTakesTheDotUnderIt() {
        #expect(digits(draw([at(3)])) == "3")
        #expect(digits(draw([(628, 310)])) == "3")
        #expect(draw([(450, 350)]).count == 0)
    }

    /// Two samples, one at dot 1 and one at dot 9: the segment between them crosses 5.
    @Test func aFastSwipeOneToNineTakesTheMiddle() {
        #expect(digits(draw([at(1), at(9)])) == "159")
        #expect(digits(draw([at(9), at(1)])) == "951")
        #expect(digits(draw([at(7), at(3)])) == "753")
        // From outside the grid, across it, to outside: every dot on the way, in the order met.
        #expect(digits(draw([(300, 200), (700, 600)])) == "159")
        #expect(digits(draw([(300, 300), (700, 300)])) == "123")
        #expect(digits(draw([(500, 900), (500, -100)])) == "852")
    }

    /// The pointer goes round dot 2 (never within its circle): the line from 1 to 3 still takes 2 first.
    @Test func aJumpOverAnUntakenDotTakesIt() {
        #expect(digits(draw([at(1), at(3)])) == "123")
        #expect(digits(draw([at(1), (500, 350), at(3)])) == "123")
        #expect(digits(draw([at(1), (500, 350), (530, 340), at(3)])) == "123")
        #expect(digits(draw([at(4), (500, 460), at(6)])) == "456")
        #expect(digits(draw([at(3), (550, 450), at(7)])) == "357")
        #expect(digits(draw([at(2), (440, 400), at(8)])) == "258")
    }

    @Test func knightMovesTakeNothingBetween() {
        #expect(digits(draw([at(1), at(6)])) == "16")
        #expect(digits(draw([at(1), at(8)])) == "18")
        #expect(digits(draw([at(1), at(6), at(7)])) == "167")
        #expect(digits(draw([at(9), at(4), at(3), at(8)])) == "9438")
    }

    /// A line exactly one radius from three centres misses them all; a pixel closer takes all three.
    @Test func aPathAlongTheRimOfCirclesMissesThem() {
        #expect(draw([(350, 330), (650, 330)]).count == 0)
        #expect(draw([(370, 270), (370, 530)]).count == 0)
        #expect(digits(draw([(350, 329), (650, 329)])) == "123")
        #expect(digits(draw([(371, 530), (371, 270)])) == "741")
        // Diagonal x + y = 942 passes (521, 421), 29.7 px from dot 5's centre; x + y = 943 stays 30.4 away.
        #expect(digits(draw([(480, 462), (540, 402)])) == "5")
        #expect(draw([(480, 463), (540, 403)]).count == 0)
    }

    /// Passing over a taken dot is allowed and takes nothing (2, then 1, then across 2 to 3 gives 213).
    @Test func revisitingTakesNothingTwice() {
        #expect(digits(draw([at(2), at(1), at(3)])) == "213")
        #expect(digits(draw([at(1), at(2), at(1), at(3)])) == "123")
        #expect(digits(draw([at(5), at(1), at(5), at(9), at(5)])) == "519")
        // Gap filling only takes an UNTAKEN middle dot: 5 first, then 1 to 9 passes it.
        #expect(digits(draw([at(5), (450, 450), at(1), at(9)])) == "519")
    }

    @Test func moreThanNineDotsIsImpossible() {
        let zigzag: [(Int32, Int32)] = [
            at(1), at(3), at(9), at(7), at(1), at(9), at(3), at(7), at(5), at(2), at(8), at(4), at(6), at(1),
        ]
        let trace = draw(zigzag)
        #expect(trace.count == 9)
        #expect(digits(trace) == "123698745")
        var more = trace
        more.extend(to: 300, 300, on: PadGridTests.grid)
        more.extend(to: 700, 600, on: PadGridTests.grid)
        #expect(more.count == 9 && digits(more) == "123698745")
        #expect(more.dot(at: 9) == 0 && more.dot(at: 8) == 5 && more.dot(at: -1) == 0 && more.dot(at: .max) == 0)
    }

    @Test func aPathFarOutsideTheGridTakesNothing() {
        #expect(draw([(-100_000, -100_000), (100_000, -100_000), (100_000, 100_000)]).count == 0)
        #expect(draw([(0, 0), (1000, 0), (1000, 200), (0, 200)]).count == 0)
    }

    /// Any Int32 sample, on any grid: no trap, and the exact dots of the line through the grid.
    @Test func extremeCoordinatesNeverTrap() {
        // The diagonal y = x crosses the test grid at dots 4 (400, 400) and 8 (500, 500).
        #expect(digits(draw([(.min, .min), (.max, .max)])) == "48")
        #expect(digits(draw([(.max, .max), (.min, .min)])) == "84")
        // Nearly diagonal: near the grid y = x - 1, still through both circles.
        #expect(digits(draw([(.min, .max), (.max, .min), (.min, .min), (.max, .max - 1)])) == "48")
        let edge = PadGrid(centerX: .max, centerY: .max, spacing: .max, hitRadius: .max)
        #expect(digits(draw([(.max, .max), (.min, .min)], on: edge)) == "51")
        let values: [Int32] = [.min, .min + 1, -1, 0, 1, 400, .max - 1, .max]
        for x in values {
            for y in values {
                let grid = PadGrid(centerX: x, centerY: y, spacing: y, hitRadius: x)
                let trace = draw([(x, y), (y, x), (.min, .max), (x, x), (y, y)], on: grid)
                #expect(trace.count <= 9)
            }
        }
    }

    // MARK: the trace itself

    @Test func lastSampleFollowsThePointer() {
        var trace = PadTrace()
        #expect(trace.lastSample == nil)
        trace.begin(at: 10, 20, on: PadGridTests.grid)
        #expect(trace.lastSample?.x == 10 && trace.lastSample?.y == 20)
        trace.extend(to: -5, .max, on: PadGridTests.grid)
        #expect(trace.lastSample?.x == -5 && trace.lastSample?.y == .max)
    }

    /// Without a press, a move tests only its own point (there is no segment yet).
    @Test func extendWithoutBeginTestsThePoint() {
        var trace = PadTrace()
        trace.extend(to: 500, 400, on: PadGridTests.grid)
        #expect(digits(trace) == "5")
        trace.extend(to: 500, 200, on: PadGridTests.grid)
        #expect(digits(trace) == "52")
    }

    @Test func beginStartsAFreshTrace() {
        var trace = draw([at(1), at(9)])
        trace.begin(at: 0, 0, on: PadGridTests.grid)
        #expect(trace.count == 0 && digits(trace) == "")
        trace.extend(to: at(3).0, at(3).1, on: PadGridTests.grid)
        #expect(digits(trace) == "3")
    }

    @Test func wipeZeroesEverything() {
        var trace = draw([at(1), at(9), at(3)])
        #expect(digits(trace) == "15963")
        trace.wipe()
        #expect(trace.count == 0 && trace.lastSample == nil && trace.dot(at: 0) == 0)
        #expect((1...9).allSatisfy { !trace.isTaken(UInt8($0)) })
        withUnsafeBytes(of: trace) { raw in #expect(raw.allSatisfy { $0 == 0 }) }
    }

    @Test func withDigitsGivesTheDotsAsASCII() {
        let trace = draw([at(7), at(5), at(3), at(6)])
        let bytes = trace.withDigits { Array($0) }
        #expect(bytes == Array("7536".utf8))
        #expect(PadTrace().withDigits { $0.count } == 0)
        #expect((0..<trace.count).map { trace.dot(at: $0) } == [7, 5, 3, 6])
        #expect(trace.isTaken(5) && !trace.isTaken(1) && !trace.isTaken(0) && !trace.isTaken(10))
    }

    // MARK: against Android's per-point rules

    /// Android's LockPatternView runs detectAndAddHit on every point of a move, historical ones included
    /// (handleActionMove walks event.getHistoricalX/Y). A touch screen reports at 120-240 Hz, so a finger's
    /// points are a few pixels apart and Android in effect hit-tests the drawn path pixel by pixel. The
    /// pad polls the pointer (about 100 Hz) and sees a fast swipe as a few samples far apart. So the
    /// property that makes the pad behave like a phone: fed only the SPARSE samples, PadTrace takes exactly
    /// the dots that Android's per-point rules take when fed EVERY pixel of the same path. The polylines
    /// are random (seeded, reproducible), with straight segments through and around the grid, on grids
    /// of many sizes and radii (the radius up to half the spacing, Android's largest).
    @Test func agreesWithAndroidFedEveryPixel() {
        var random = SplitMix64(seed: 0x5041_4420_434F_5245)
        var differsFromVerticesOnly = 0
        var longTraces = 0
        let cases = 3000
        for _ in 0..<cases {
            let spacing = Int32(random.next(in: 20...160))
            let radius = Int32(random.next(in: 1...Int64(spacing / 2)))
            let grid = PadGrid(
                centerX: Int32(random.next(in: 0...2000)), centerY: Int32(random.next(in: 0...2000)),
                spacing: spacing, hitRadius: random.next(in: 0...9) == 0 ? spacing / 2 : radius)
            var vertices: [(Int32, Int32)] = []
            for _ in 0..<random.next(in: 2...7) {
                let reach: Int64
                switch random.next(in: 0...19) {
                case 0: reach = 3000
                case 1...3: reach = Int64(4 * spacing)
                default: reach = Int64(spacing + spacing / 2)
                }
                vertices.append(
                    (
                        Int32(Int64(grid.centerX) + random.next(in: -reach...reach)),
                        Int32(Int64(grid.centerY) + random.next(in: -reach...reach))
                    ))
            }
            let dense = AndroidReference.trace(densePixelsOf: vertices, on: grid)
            let sparse = draw(vertices, on: grid)
            let got = (0..<sparse.count).map { sparse.dot(at: $0) }
            #expect(got == dense, "grid \(grid), path \(vertices)")
            if AndroidReference.trace(points: vertices, on: grid) != dense { differsFromVerticesOnly += 1 }
            if got.count >= 5 { longTraces += 1 }
        }
        // The paths are ones where sampling matters: hit-testing only the samples would get many wrong.
        #expect(differsFromVerticesOnly > cases / 4, "\(differsFromVerticesOnly) of \(cases)")
        #expect(longTraces > cases / 10, "\(longTraces) of \(cases)")
    }

    /// Every trace is a canonical pattern: its digits, canonicalised as typed digits are, come back unchanged.
    @Test func everyTraceIsCanonical() throws {
        var random = SplitMix64(seed: 42)
        var checked = 0
        for _ in 0..<5000 {
            let grid = PadGridTests.grid
            var vertices: [(Int32, Int32)] = []
            for _ in 0..<random.next(in: 1...9) {
                vertices.append((Int32(random.next(in: 330...670)), Int32(random.next(in: 230...570))))
            }
            let trace = draw(vertices, on: grid)
            guard trace.count >= 1 else { continue }
            let bytes = trace.withDigits { Array($0) }
            #expect(try Pattern.canonicalDots(typed: bytes, layout: .phone) == bytes.map { $0 - 0x30 })
            if trace.count >= 4 {
                #expect(try Pattern.parse(bytes).digits == bytes)
            }
            checked += 1
        }
        #expect(checked > 4000)
    }
}

/// Android's rules, point by point, as LockPatternView applies them: detectCellHit (the first cell, in
/// row-major order, whose centre is closer than the hit radius), checkForNewHit (only a cell not yet in the
/// pattern), and detectAndAddHit's gap filling (the cell between the last one and the new one, along a row,
/// column or diagonal, if not yet in the pattern). Written from the Java, independently of PadTrace.
private enum AndroidReference {
    static func trace(points: [(Int32, Int32)], on grid: PadGrid) -> [UInt8] {
        var pattern: [UInt8] = []
        for point in points { detectAndAddHit(Int64(point.0), Int64(point.1), grid, &pattern) }
        return pattern
    }

    /// Every pixel of every segment of the polyline, in order, through detectAndAddHit. The pixels of a
    /// segment: n = the longer axis's length, and step i of n is at start + round(i * delta / n) per axis
    /// (halves away from the start), so consecutive pixels touch (checked here).
    static func trace(densePixelsOf vertices: [(Int32, Int32)], on grid: PadGrid) -> [UInt8] {
        var pattern: [UInt8] = []
        guard let first = vertices.first else { return pattern }
        detectAndAddHit(Int64(first.0), Int64(first.1), grid, &pattern)
        for (from, to) in zip(vertices, vertices.dropFirst()) {
            let x0 = Int64(from.0)
            let y0 = Int64(from.1)
            let dx = Int64(to.0) - x0
            let dy = Int64(to.1) - y0
            let n = max(abs(dx), abs(dy))
            var previous = (x0, y0)
            var touching = true
            for i in 0...n {
                let x = n == 0 ? x0 : x0 + dx.signum() * ((i * abs(dx) + n / 2) / n)
                let y = n == 0 ? y0 : y0 + dy.signum() * ((i * abs(dy) + n / 2) / n)
                if abs(x - previous.0) > 1 || abs(y - previous.1) > 1 { touching = false }
                previous = (x, y)
                detectAndAddHit(x, y, grid, &pattern)
            }
            #expect(touching && previous == (Int64(to.0), Int64(to.1)), "the pixels of \(from) to \(to)")
        }
        return pattern
    }

    static func detectAndAddHit(_ x: Int64, _ y: Int64, _ grid: PadGrid, _ pattern: inout [UInt8]) {
        guard let cell = checkForNewHit(x, y, grid, pattern) else { return }
        if let last = pattern.last {
            let (lastRow, lastColumn) = (Int(last - 1) / 3, Int(last - 1) % 3)
            let (row, column) = (Int(cell - 1) / 3, Int(cell - 1) % 3)
            let dRow = row - lastRow
            let dColumn = column - lastColumn
            if (dRow == 0 || dColumn == 0 || abs(dRow) == abs(dColumn)) && max(abs(dRow), abs(dColumn)) == 2 {
                let gap = UInt8((lastRow + dRow.signum()) * 3 + lastColumn + dColumn.signum() + 1)
                if !pattern.contains(gap) { pattern.append(gap) }
            }
        }
        pattern.append(cell)
    }

    static func checkForNewHit(_ x: Int64, _ y: Int64, _ grid: PadGrid, _ pattern: [UInt8]) -> UInt8? {
        guard let cell = detectCellHit(x, y, grid), !pattern.contains(cell) else { return nil }
        return cell
    }

    static func detectCellHit(_ x: Int64, _ y: Int64, _ grid: PadGrid) -> UInt8? {
        let radius = Int64(grid.effectiveHitRadius)
        let spacing = Int64(grid.effectiveSpacing)
        for row in 0..<3 {
            for column in 0..<3 {
                let centerX = Int64(grid.centerX) + Int64(column - 1) * spacing
                let centerY = Int64(grid.centerY) + Int64(row - 1) * spacing
                if (x - centerX) * (x - centerX) + (y - centerY) * (y - centerY) < radius * radius {
                    return UInt8(row * 3 + column + 1)
                }
            }
        }
        return nil
    }
}

/// A small seeded generator (SplitMix64), so the random paths are the same on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform enough in a small range (the modulo bias is negligible for a test's paths).
    mutating func next(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int64(next() % width)
    }
}
