/// Why a pattern is too easy to guess to be enrolled. Each case is a shape an
/// attacker tries first; all of them look through the 8 symmetries of the
/// grid, because a rotated or mirrored shape is about as guessable.
public enum PatternWeakness: Equatable, Sendable {
    /// Fewer dots than the configured minimum (clamped to 4...9).
    case tooShort(dotCount: Int, minimum: Int)
    /// One of the most frequent patterns in published sets (Aviv et al., Loge),
    /// or a rotation or mirror image of one.
    case commonPattern
    /// Consecutive numbers like a PIN (1234, 98765, 123456789), in keypad
    /// order or a rotation or mirror of it (147258369 reads columns).
    case sequentialDots
    /// Just walks round the edge of the grid (a box, 1236987), possibly with a
    /// full ring ending or starting in the centre (a spiral, 123698745).
    case ringWalk
    /// Drawn with very few straight strokes: at most 2 (L, V, 7 and other
    /// one-bend shapes), or 3 when it has 6 or more dots (Z, N, U, C...).
    /// Letter shapes alone cover over 10% of real patterns.
    case fewStrokes(strokes: Int)

    /// Drawn the way most people draw theirs (a usual start, the usual moves, a usual length): the model of
    /// people's choices (`HumanChoiceModel`) rates it among the most likely patterns.
    case likelyChoice

    /// Why the pattern is refused, as a gettext msgid and its arguments: patternctl says it in the user's
    /// language, `reason` in English.
    public var template: (format: StaticString, arguments: [[UInt8]]) {
        switch self {
        case .tooShort(let dotCount, let minimum):
            return (
                translatable("It has only %s dots; at least %s are required."),
                [TextCodec.decimal(Int64(dotCount)), TextCodec.decimal(Int64(minimum))]
            )
        case .commonPattern:
            return (
                translatable(
                    "It is one of the most common patterns (or a rotation or mirror image of one), among the first an attacker tries."
                ), []
            )
        case .sequentialDots:
            return (
                translatable(
                    "Its dots are consecutive numbers, like a PIN such as 1234, read across the grid in some direction."
                ), []
            )
        case .ringWalk:
            return (translatable("It only walks around the edge of the grid (a box or a spiral)."), [])
        case .fewStrokes(let strokes):
            return (
                translatable(
                    "It is drawn with only %s straight strokes, a simple shape or letter (like L, V, Z, N, U or C)."),
                [TextCodec.decimal(Int64(strokes))]
            )
        case .likelyChoice:
            return (
                translatable(
                    "It starts, turns and ends the way most people's patterns do, so an attacker who guesses the likeliest patterns first tries it early."
                ), []
            )
        }
    }

    /// Why the pattern is refused, in English (the log, the tests).
    public var reason: String {
        let (format, arguments) = template
        let filled = format.withUTF8Buffer { MessageFormat.fill(Array($0), arguments) }
        return String(decoding: filled, as: UTF8.self)
    }
}

/// How much the strength rules refuse when a pattern is set (`strength=` in pam_pattern.conf). Each level
/// refuses what the one below it does, and more.
public enum StrengthRules: Int, Sendable, CaseIterable {
    /// Only patterns shorter than `minlen` (Android's rule).
    case lengthOnly = 0
    /// Also the simple shapes: the published most common patterns, PIN-like runs, walks round the edge,
    /// letters drawn with few strokes.
    case shapes = 1
    /// Also every shape that several people chose in published studies (`HumanChoiceModel.commonShapes`).
    case commonShapes = 2
    /// Also the patterns a model of people's drawing rates most likely (`HumanChoiceModel.likelyCost`).
    case likely = 3

    /// The default: it meets the figures in pam_pattern.conf(5).
    public static let standard = StrengthRules.likely

    /// The level for a configured number, clamped to the levels there are (never traps).
    public init(level: Int) {
        self = StrengthRules(rawValue: min(max(level, 0), StrengthRules.likely.rawValue)) ?? .standard
    }
}

extension Pattern {
    /// Why this pattern is too weak to enroll, or nil if it is acceptable.
    /// Checks, in order: length, then as far as `rules` go: the published common list, sequential dots,
    /// ring walks, few strokes; the shapes many people chose; the likely ones. `minimumLength` is clamped to
    /// 4...9.
    public func weakness(
        minimumLength: Int = 4, rules: StrengthRules = .standard, model: HumanChoiceModel = .published
    ) -> PatternWeakness? {
        let minimum = Pattern.clampedMinimumLength(minimumLength)
        if dots.count < minimum { return .tooShort(dotCount: dots.count, minimum: minimum) }
        guard rules.rawValue >= StrengthRules.shapes.rawValue else { return nil }
        // A pattern that looks random is never refused, whatever the table learnt (two people in the studies
        // drew the same knight-move example): none of the shape rules or the model's likely ones is one.
        if looksRandom { return nil }
        if isCommonPattern { return .commonPattern }
        if isSequential { return .sequentialDots }
        if isRingWalk { return .ringWalk }
        let strokes = strokeCount
        if strokes <= 2 || (strokes <= 3 && dots.count >= 6) { return .fewStrokes(strokes: strokes) }
        guard rules.rawValue >= StrengthRules.commonShapes.rawValue else { return nil }
        if model.isCommonShape(self) { return .commonPattern }
        guard rules.rawValue >= StrengthRules.likely.rawValue else { return nil }
        if model.isLikely(self) { return .likelyChoice }
        return nil
    }

    /// The most frequent patterns in published sets (Aviv et al.,
    /// ACSAC 2015): the Z, the M, two hooks, the L, the S,
    /// a diagonal-and-column triangle, and a box missing its last side.
    /// Kept short on purpose: the shape rules below catch the families.
    static let commonPatterns: [[UInt8]] = [
        [1, 2, 3, 5, 7, 8, 9],
        [7, 4, 1, 5, 3, 6, 9],
        [1, 2, 3, 6, 9],
        [1, 2, 5, 8, 9],
        [1, 4, 7, 8, 9],
        [1, 2, 3, 6, 5, 4, 7, 8, 9],
        [1, 5, 9, 6, 3, 7],
        [1, 2, 3, 6, 9, 8, 7, 4],
    ]

    /// In the common list under some symmetry.
    var isCommonPattern: Bool {
        for symmetry in Symmetry.allCases {
            let image = applying(symmetry).dots
            for common in Pattern.commonPatterns where common == image { return true }
        }
        return false
    }

    /// Consecutive ascending or descending dot numbers under some symmetry.
    var isSequential: Bool {
        for symmetry in Symmetry.allCases {
            let image = applying(symmetry).dots
            if Pattern.hasConstantStep(image, 1) || Pattern.hasConstantStep(image, -1) { return true }
        }
        return false
    }

    private static func hasConstantStep(_ dots: [UInt8], _ step: Int) -> Bool {
        guard dots.count >= 2 else { return false }
        for i in 1..<dots.count where Int(dots[i]) - Int(dots[i - 1]) != step { return false }
        return true
    }

    /// The outer dots in ring order, clockwise from the top left.
    private static let ring: [UInt8] = [1, 2, 3, 6, 9, 8, 7, 4]

    /// Walks the ring in one direction (any start), or is a full ring with the
    /// centre before or after it.
    var isRingWalk: Bool {
        var walk = dots
        if walk.count == 9 {
            // A spiral: the centre must be at one end, the ring the rest.
            if walk.first == 5 { walk.removeFirst() } else if walk.last == 5 { walk.removeLast() } else { return false }
        }
        guard walk.count >= 2 else { return false }
        var positions: [Int] = []
        for dot in walk {
            guard let index = Pattern.ring.firstIndex(of: dot) else { return false }  // the centre
            positions.append(index)
        }
        for direction in [1, 7] {  // +1 clockwise, +7 == -1 anticlockwise (mod 8)
            var ok = true
            for i in 1..<positions.count where (positions[i - 1] + direction) % 8 != positions[i] {
                ok = false
                break
            }
            if ok { return true }
        }
        return false
    }

    /// Three or more knight moves (1-6, 2-9, ...: a move that passes no dot and is no straight line of the grid).
    var looksRandom: Bool {
        var knightMoves = 0
        for (from, to) in zip(dots, dots.dropFirst()) {
            let rows = abs(Pattern.row(of: to) - Pattern.row(of: from))
            let columns = abs(Pattern.column(of: to) - Pattern.column(of: from))
            if rows * columns == 2 { knightMoves += 1 }
        }
        return knightMoves >= 3
    }

    /// How many straight strokes draw the pattern: moves in the same direction
    /// one after another (1-2-3) are one stroke. Knight moves are strokes too.
    var strokeCount: Int {
        guard dots.count >= 2 else { return dots.count == 1 ? 1 : 0 }
        var strokes = 1
        var previous = Pattern.direction(dots[0], dots[1])
        for i in 1..<(dots.count - 1) {
            let current = Pattern.direction(dots[i], dots[i + 1])
            if current != previous { strokes += 1 }
            previous = current
        }
        return strokes
    }

    /// The unit direction of a move (1-3, passing a visited 2, is the same
    /// direction as 1-2).
    private static func direction(_ a: UInt8, _ b: UInt8) -> Int {
        var dr = row(of: b) - row(of: a)
        var dc = column(of: b) - column(of: a)
        if dr % 2 == 0 && dc % 2 == 0 {
            dr /= 2
            dc /= 2
        }
        // Encode (dr, dc) in -2...2 as one comparable number.
        return (dr + 2) * 5 + (dc + 2)
    }
}
