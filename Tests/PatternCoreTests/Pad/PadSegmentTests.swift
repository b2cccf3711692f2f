import Testing

@testable import PatternCore

@Suite struct PadSegmentTests {
    /// Every pixel of a segment, step by step.
    private func pixels(_ segment: PadSegment) -> [(Int64, Int64)] {
        (0...segment.steps).map { segment.point(at: $0) }
    }

    @Test func aSegmentRunsFromStartToEndOnePixelPerStep() {
        let segment = PadSegment(from: (10, 20), to: (15, 22))
        #expect(segment.steps == 5)
        let got = pixels(segment).map { "\($0.0),\($0.1)" }
        // 2 over 5 steps: offsets round(0.4 i) = 0 0 1 1 2 2 (halves away from the start).
        #expect(got == ["10,20", "11,20", "12,21", "13,21", "14,22", "15,22"])
        let back = pixels(PadSegment(from: (15, 22), to: (10, 20))).map { "\($0.0),\($0.1)" }
        #expect(back == ["15,22", "14,22", "13,21", "12,21", "11,20", "10,20"])
    }

    @Test func aPointIsASegmentOfOnePixel() {
        let segment = PadSegment(from: (-7, 9), to: (-7, 9))
        #expect(segment.steps == 0)
        #expect(segment.point(at: 0) == (-7, 9))
    }

    /// Random segments: the pixels touch (8-connected), start and end where the samples are, and stay
    /// within half a pixel of the true line.
    @Test func pixelsTouchAndFollowTheLine() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let from = (Int32(random.next(in: -300...300)), Int32(random.next(in: -300...300)))
            let to = (Int32(random.next(in: -300...300)), Int32(random.next(in: -300...300)))
            let line = pixels(PadSegment(from: from, to: to))
            #expect(line.first! == (Int64(from.0), Int64(from.1)) && line.last! == (Int64(to.0), Int64(to.1)))
            let dx = Int64(to.0) - Int64(from.0)
            let dy = Int64(to.1) - Int64(from.1)
            var touching = true
            var near = true
            for (index, pixel) in line.enumerated() {
                if index > 0 {
                    let previous = line[index - 1]
                    if abs(pixel.0 - previous.0) > 1 || abs(pixel.1 - previous.1) > 1 { touching = false }
                }
                // Distance to the line, times its length: |cross product| <= length / 2 (+ rounding slack).
                let cross = abs((pixel.0 - Int64(from.0)) * dy - (pixel.1 - Int64(from.1)) * dx)
                if 2 * cross > abs(dx) + abs(dy) { near = false }
            }
            #expect(touching && near, "\(from) to \(to)")
        }
    }

    /// The walk of `firstStep` (only steps within the radius along the longer axis) finds the same first
    /// pixel as testing every pixel.
    @Test func firstStepIsTheFirstPixelInsideTheCircle() {
        var random = SplitMix64(seed: 11)
        var entered = 0
        for _ in 0..<2000 {
            let spacing = Int32(random.next(in: 10...120))
            let grid = PadGrid(
                centerX: 0, centerY: 0, spacing: spacing, hitRadius: Int32(random.next(in: 0...Int64(spacing))))
            let reach = Int64(2 * spacing)
            let segment = PadSegment(
                from: (Int32(random.next(in: -reach...reach)), Int32(random.next(in: -reach...reach))),
                to: (Int32(random.next(in: -reach...reach)), Int32(random.next(in: -reach...reach))))
            for dot: UInt8 in 1...9 {
                let brute = (0...segment.steps).first { step in
                    let pixel = segment.point(at: step)
                    return grid.hits(dot, x: pixel.0, y: pixel.1)
                }
                #expect(segment.firstStep(into: dot, of: grid) == brute)
                if brute != nil { entered += 1 }
            }
        }
        #expect(entered > 2000)
    }

    /// The longest segments Int32 allows: exact, no overflow, and the walk stays short.
    @Test func theWholeCoordinateRangeIsExact() {
        let diagonal = PadSegment(from: (.min, .min), to: (.max, .max))
        #expect(diagonal.steps == UInt64(UInt32.max))
        #expect(diagonal.point(at: diagonal.steps) == (Int64(Int32.max), Int64(Int32.max)))
        #expect(diagonal.point(at: 1 << 31) == (0, 0))
        let steep = PadSegment(from: (.max, .min), to: (.min, .max))
        #expect(steep.point(at: steep.steps) == (Int64(Int32.min), Int64(Int32.max)))
        let shallow = PadSegment(from: (.min, 0), to: (.max, 1))
        #expect(shallow.point(at: 1 << 31) == (0, 1))
        #expect(shallow.point(at: (1 << 31) - 1) == (-1, 0))
        let grid = PadGrid(centerX: 0, centerY: 0, spacing: 100, hitRadius: 30)
        #expect(diagonal.firstStep(into: 5, of: grid) == (1 << 31) - 21)
        #expect(diagonal.firstStep(into: 9, of: grid) == (1 << 31) + 100 - 21)
        #expect(diagonal.firstStep(into: 3, of: grid) == nil)
    }
}
