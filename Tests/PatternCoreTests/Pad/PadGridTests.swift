import Testing

@testable import PatternCore

@Suite struct PadGridTests {
    /// Dot 5 at (500, 400), 100 px apart, hit within 30 px.
    static let grid = PadGrid(centerX: 500, centerY: 400, spacing: 100, hitRadius: 30)

    @Test func centersFollowThePhoneNumbering() {
        let expected: [(Int32, Int32)] = [
            (400, 300), (500, 300), (600, 300), (400, 400), (500, 400), (600, 400), (400, 500), (500, 500),
            (600, 500),
        ]
        for (index, center) in expected.enumerated() {
            let got = Self.grid.center(of: UInt8(index + 1))
            #expect(got.x == center.0 && got.y == center.1, "dot \(index + 1)")
        }
        for notADot: UInt8 in [0, 10, 255] {
            let got = Self.grid.center(of: notADot)
            #expect(got.x == 500 && got.y == 400)
        }
    }

    @Test func eachCenterHitsItsOwnDot() {
        for dot: UInt8 in 1...9 {
            let center = Self.grid.center(of: dot)
            #expect(Self.grid.dot(at: center.x, center.y) == dot)
        }
    }

    /// The hit circle is open, as Android's detectCellHit (`<` the radius squared): 29 px hits, 30 misses.
    @Test func theRimOfTheCircleMisses() {
        #expect(Self.grid.dot(at: 629, 300) == 3)
        #expect(Self.grid.dot(at: 630, 300) == 0)
        #expect(Self.grid.dot(at: 400, 271) == 1)
        #expect(Self.grid.dot(at: 400, 270) == 0)
        // 21^2 + 21^2 = 882 < 900 hits; 22^2 + 21^2 = 925 misses.
        #expect(Self.grid.dot(at: 521, 421) == 5)
        #expect(Self.grid.dot(at: 522, 421) == 0)
    }

    @Test func betweenTheDotsNothingHits() {
        #expect(Self.grid.dot(at: 450, 300) == 0)
        #expect(Self.grid.dot(at: 450, 450) == 0)
        #expect(Self.grid.dot(at: 0, 0) == 0)
    }

    /// Circles never overlap: the radius is at most half the spacing, so a point hits at most one dot.
    @Test func theRadiusIsAtMostHalfTheSpacing() {
        let wide = PadGrid(centerX: 0, centerY: 0, spacing: 100, hitRadius: 500)
        #expect(wide.effectiveHitRadius == 50)
        #expect(wide.dot(at: 49, 0) == 5)
        #expect(wide.dot(at: 50, 0) == 0)
        #expect(wide.dot(at: 51, 0) == 6)
        #expect(PadGrid(centerX: 0, centerY: 0, spacing: 101, hitRadius: 500).effectiveHitRadius == 50)
        #expect(PadGrid(centerX: 0, centerY: 0, spacing: 100, hitRadius: -5).effectiveHitRadius == 0)
        #expect(PadGrid(centerX: 0, centerY: 0, spacing: 100, hitRadius: 0).dot(at: 0, 0) == 0)
    }

    @Test func spacingIsClampedToTheScreenSizedRange() {
        #expect(PadGrid(centerX: 0, centerY: 0, spacing: -100, hitRadius: 10).effectiveSpacing == 0)
        #expect(PadGrid(centerX: 0, centerY: 0, spacing: .max, hitRadius: 10).effectiveSpacing == 8192)
        #expect(PadGrid(centerX: 0, centerY: 0, spacing: 8192, hitRadius: .max).effectiveHitRadius == 4096)
    }

    /// A grid at the edge of the coordinate range: centres are clamped to Int32, hit tests stay exact.
    @Test func extremeValuesNeverTrap() {
        let edge = PadGrid(centerX: .max, centerY: .min, spacing: .max, hitRadius: .max)
        let three = edge.center(of: 3)
        #expect(three.x == .max && three.y == .min)
        #expect(edge.center(of: 7).x == Int32.max - 8192 && edge.center(of: 7).y == Int32.min + 8192)
        #expect(edge.dot(at: .max, .min) == 5)
        #expect(edge.dot(at: Int32.max - 8192, .min) == 4)
        #expect(edge.dot(at: .min, .max) == 0)
        for x: Int32 in [.min, -1, 0, 1, .max] {
            for y: Int32 in [.min, -1, 0, 1, .max] {
                _ = PadGrid(centerX: x, centerY: y, spacing: x, hitRadius: y).dot(at: y, x)
                _ = PadGrid(centerX: x, centerY: y, spacing: y, hitRadius: x).center(of: 9)
            }
        }
    }
}
