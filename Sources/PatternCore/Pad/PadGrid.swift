/// Where the 9 dots of a drawing pad are on screen, in pixels, and which dot a pointer position hits.
///
/// The dots are numbered like the pattern (1 2 3 / 4 5 6 / 7 8 9) around dot 5 at (centerX, centerY).
/// Any Int32 value is accepted; the hit rules read two of them clamped (`effectiveSpacing`,
/// `effectiveHitRadius`) and compute in Int64, so no input can trap or overflow.
public struct PadGrid: Sendable, Equatable {
    /// Pixel centre of dot 5.
    public var centerX: Int32
    public var centerY: Int32
    /// Pixels between neighbouring dot centres.
    public var spacing: Int32
    /// A pointer closer than this to a dot's centre hits it.
    public var hitRadius: Int32

    /// The largest spacing the hit rules use: a grid of 2 x 8192 pixels is wider than any X11 screen
    /// (coordinates are 16-bit there), and the bound keeps the pixel walk of a segment short.
    public static let maximumSpacing: Int32 = 8192

    public init(centerX: Int32, centerY: Int32, spacing: Int32, hitRadius: Int32) {
        self.centerX = centerX
        self.centerY = centerY
        self.spacing = spacing
        self.hitRadius = hitRadius
    }

    /// `spacing` brought into 0...maximumSpacing (a negative spacing is 0: every dot at the centre).
    public var effectiveSpacing: Int32 { min(max(spacing, 0), Self.maximumSpacing) }

    /// `hitRadius` brought into 0...effectiveSpacing / 2, so two hit circles never overlap and a point
    /// hits at most one dot. Android's largest radius is the same half cell (mDotHitMaxRadius).
    public var effectiveHitRadius: Int32 { min(max(hitRadius, 0), effectiveSpacing / 2) }

    /// The pixel centre of dot 1...9; (centerX, centerY) for anything else. A centre beyond Int32 (a grid
    /// placed at the edge of the coordinate range) is clamped to it; the hit rules use the exact one.
    public func center(of dot: UInt8) -> (x: Int32, y: Int32) {
        let (x, y) = exactCenter(of: dot)
        return (Self.clamped(x), Self.clamped(y))
    }

    /// The dot whose hit circle holds (x, y), 0 if none. A point exactly `hitRadius` away misses, as in
    /// Android's detectCellHit (distance squared `<` the radius squared).
    public func dot(at x: Int32, _ y: Int32) -> UInt8 {
        for dot: UInt8 in 1...9 where hits(dot, x: Int64(x), y: Int64(y)) { return dot }
        return 0
    }

    /// The centre of dot 1...9 (the grid centre for anything else), exact.
    func exactCenter(of dot: UInt8) -> (x: Int64, y: Int64) {
        let x = Int64(centerX)
        let y = Int64(centerY)
        guard dot >= 1 && dot <= 9 else { return (x, y) }
        let step = Int64(effectiveSpacing)
        return (
            x + Int64(Pattern.column(of: dot) - 1) * step,
            y + Int64(Pattern.row(of: dot) - 1) * step
        )
    }

    /// True if (x, y) lies strictly inside the hit circle of dot 1...9. Coordinates may be anywhere an
    /// Int32 difference reaches: both offsets are bounded by the radius before they are squared.
    func hits(_ dot: UInt8, x: Int64, y: Int64) -> Bool {
        let radius = Int64(effectiveHitRadius)
        let center = exactCenter(of: dot)
        let dx = x - center.x
        let dy = y - center.y
        guard dx > -radius && dx < radius && dy > -radius && dy < radius else { return false }
        return dx * dx + dy * dy < radius * radius
    }

    static func clamped(_ value: Int64) -> Int32 {
        Int32(min(max(value, Int64(Int32.min)), Int64(Int32.max)))
    }
}
