/// The 8 symmetries of the square grid. A rotated or mirrored pattern is as
/// easy to guess as the original, so the strength check looks through them.
public enum Symmetry: CaseIterable, Sendable {
    /// Leaves every dot in place.
    case identity
    /// A quarter turn clockwise (1 -> 3).
    case rotate90
    /// A half turn (1 -> 9).
    case rotate180
    /// A quarter turn anticlockwise (1 -> 7).
    case rotate270
    /// Mirror in the vertical middle line (1 <-> 3).
    case mirrorLeftRight
    /// Mirror in the horizontal middle line (1 <-> 7).
    case mirrorTopBottom
    /// Mirror in the 1-5-9 diagonal (2 <-> 4).
    case mirrorMainDiagonal
    /// Mirror in the 3-5-7 diagonal (2 <-> 6).
    case mirrorAntiDiagonal

    /// Where this symmetry moves a dot (1...9). Other values come back unchanged.
    public func apply(toDot dot: UInt8) -> UInt8 {
        guard dot >= 1 && dot <= 9 else { return dot }
        let r = Pattern.row(of: dot)
        let c = Pattern.column(of: dot)
        switch self {
        case .identity: return dot
        case .rotate90: return Pattern.dot(row: c, column: 2 - r)
        case .rotate180: return Pattern.dot(row: 2 - r, column: 2 - c)
        case .rotate270: return Pattern.dot(row: 2 - c, column: r)
        case .mirrorLeftRight: return Pattern.dot(row: r, column: 2 - c)
        case .mirrorTopBottom: return Pattern.dot(row: 2 - r, column: c)
        case .mirrorMainDiagonal: return Pattern.dot(row: c, column: r)
        case .mirrorAntiDiagonal: return Pattern.dot(row: 2 - c, column: 2 - r)
        }
    }

    /// The symmetry that undoes this one.
    public var inverse: Symmetry {
        switch self {
        case .rotate90: return .rotate270
        case .rotate270: return .rotate90
        default: return self  // half turn and mirrors undo themselves
        }
    }
}

extension Pattern {
    /// The pattern rotated or mirrored. Symmetries keep straight lines straight
    /// and midpoints midpoints, so the result is again canonical and valid.
    public func applying(_ symmetry: Symmetry) -> Pattern {
        return Pattern(canonicalDots: dots.map { symmetry.apply(toDot: $0) })
    }

    /// The distinct images of this pattern under the 8 symmetries (itself first).
    public var symmetricVariants: [Pattern] {
        var result: [Pattern] = []
        for symmetry in Symmetry.allCases {
            let image = applying(symmetry)
            if !result.contains(image) { result.append(image) }
        }
        return result
    }
}
