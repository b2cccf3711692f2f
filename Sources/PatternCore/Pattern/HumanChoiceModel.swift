/// What people choose, learnt from patterns collected in published user studies (Tools/strength-table derives
/// it; `HumanChoiceTable.swift` holds the shipped one). Two parts, both closed under the 8 symmetries of the
/// grid, since a rotated or mirrored choice is as easy to guess:
/// - `commonShapes`: the shapes (a pattern and its images) that more than one person chose;
/// - `costs`: a Markov model of drawing (where people start, which move follows which dot, how many dots they
///   use), as costs in quarter bits; a pattern whose total cost is at most `likelyCost` is among the few
///   hundred most likely ones, which an attacker who models people tries first.
/// Plain bytes and integers: the module and the helper run it as Embedded Swift.
public struct HumanChoiceModel: Sendable {
    /// One number per shape: the smallest of its images' digits read as a decimal number (1235789), ascending.
    public let commonShapes: [UInt32]
    /// `startCount` start costs (dot 1...9), then `moveCount` move costs (from * 9 + to, dots 0-based), then
    /// `lengthCount` length costs (4...9 dots).
    public let costs: [UInt8]
    /// The largest total cost that is still refused as likely.
    public let likelyCost: Int

    public static let startCount = 9
    public static let moveCount = 81
    public static let lengthCount = 6
    public static let costCount = startCount + moveCount + lengthCount

    public init(commonShapes: [UInt32], costs: [UInt8], likelyCost: Int) {
        self.commonShapes = commonShapes
        self.costs = costs
        self.likelyCost = likelyCost
    }

    /// Whether the pattern's shape is one that several people chose.
    public func isCommonShape(_ pattern: Pattern) -> Bool {
        let key = HumanChoiceModel.shapeKey(pattern)
        var low = 0
        var high = commonShapes.count
        while low < high {
            let middle = low + (high - low) / 2
            if commonShapes[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < commonShapes.count && commonShapes[low] == key
    }

    /// Whether the model rates the pattern among the most likely ones.
    public func isLikely(_ pattern: Pattern) -> Bool {
        guard let cost = cost(of: pattern) else { return false }
        return cost <= likelyCost
    }

    /// The pattern's cost in quarter bits (lower: more likely); nil for a table of the wrong size or a dot out
    /// of range (never a trap).
    public func cost(of pattern: Pattern) -> Int? {
        let dots = pattern.dots
        let lengthIndex = dots.count - Pattern.minimumLengthRange.lowerBound
        guard costs.count == HumanChoiceModel.costCount, let first = dots.first,
            lengthIndex >= 0, lengthIndex < HumanChoiceModel.lengthCount
        else { return nil }
        guard let start = HumanChoiceModel.dotIndex(first) else { return nil }
        var total = Int(costs[start])
        total += Int(costs[HumanChoiceModel.startCount + HumanChoiceModel.moveCount + lengthIndex])
        var previous = start
        for dot in dots.dropFirst() {
            guard let next = HumanChoiceModel.dotIndex(dot) else { return nil }
            total += Int(costs[HumanChoiceModel.startCount + previous * 9 + next])
            previous = next
        }
        return total
    }

    /// The number that names a pattern's shape: the smallest of its images under the 8 symmetries, its digits
    /// read as a decimal number (at most 987654321, so it fits 32 bits).
    public static func shapeKey(_ pattern: Pattern) -> UInt32 {
        var smallest = UInt32.max
        for symmetry in Symmetry.allCases {
            var key: UInt32 = 0
            for dot in pattern.dots { key = key &* 10 &+ UInt32(symmetry.apply(toDot: dot)) }
            smallest = min(smallest, key)
        }
        return smallest
    }

    /// A dot 1...9 as 0...8.
    private static func dotIndex(_ dot: UInt8) -> Int? {
        guard dot >= 1 && dot <= 9 else { return nil }
        return Int(dot) - 1
    }
}
