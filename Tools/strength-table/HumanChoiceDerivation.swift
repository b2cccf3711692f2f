import Glibc
import PatternCore

/// How the shipped `HumanChoiceModel` is learnt from people's patterns: the one derivation, used both for the
/// table the project ships (`derive`) and, fold by fold, for the cross-validated figures (`figures`).
enum HumanChoiceDerivation {
    /// The share of all 389,112 patterns the default rules may refuse; the likely cut is set so that every rule
    /// together stays within it (the target is at most 1 %).
    static let refusedShareLimit = 0.0095
    /// How often a shape must have been chosen to be refused as common.
    static let commonShapeMinimumChoices = 2

    /// The model learnt from `patterns`; `all` is every valid pattern (`Pattern.allValid()`).
    static func model(from patterns: [Pattern], all: [Pattern]) -> HumanChoiceModel {
        let shapes = commonShapes(patterns)
        let costs = markovCosts(patterns)
        let provisional = HumanChoiceModel(commonShapes: shapes, costs: costs, likelyCost: -1)
        return HumanChoiceModel(
            commonShapes: shapes, costs: costs, likelyCost: likelyCost(provisional, all: all))
    }

    /// The shapes (patterns up to the 8 symmetries) chosen at least `commonShapeMinimumChoices` times.
    static func commonShapes(_ patterns: [Pattern]) -> [UInt32] {
        var counts: [UInt32: Int] = [:]
        for pattern in patterns { counts[HumanChoiceModel.shapeKey(pattern), default: 0] += 1 }
        return counts.filter { $0.value >= commonShapeMinimumChoices }.map(\.key).sorted()
    }

    /// Start, move and length costs in quarter bits, counted over all 8 images of every pattern (so the model
    /// treats a rotated or mirrored pattern alike), with add-one smoothing.
    static func markovCosts(_ patterns: [Pattern]) -> [UInt8] {
        var starts = [Int](repeating: 0, count: 9)
        var moves = [Int](repeating: 0, count: 81)
        var movesFrom = [Int](repeating: 0, count: 9)
        var lengths = [Int](repeating: 0, count: HumanChoiceModel.lengthCount)
        var total = 0
        for pattern in patterns {
            for symmetry in Symmetry.allCases {
                let dots = pattern.applying(symmetry).dots.map { Int($0) - 1 }
                total += 1
                starts[dots[0]] += 1
                lengths[dots.count - 4] += 1
                for (from, to) in zip(dots, dots.dropFirst()) {
                    moves[from * 9 + to] += 1
                    movesFrom[from] += 1
                }
            }
        }
        var costs: [UInt8] = []
        for start in 0..<9 { costs.append(cost(starts[start], of: total, outcomes: 9)) }
        for move in 0..<81 { costs.append(cost(moves[move], of: movesFrom[move / 9], outcomes: 9)) }
        for length in lengths { costs.append(cost(length, of: total, outcomes: HumanChoiceModel.lengthCount)) }
        return costs
    }

    /// -log2 of a smoothed frequency, in quarter bits, at most 255.
    static func cost(_ count: Int, of total: Int, outcomes: Int) -> UInt8 {
        let probability = Double(count + 1) / Double(total + outcomes)
        let quarterBits = (-log2(probability) * 4).rounded()
        return UInt8(min(max(quarterBits, 0), 255))
    }

    /// The largest cost at which the rules refuse at most `refusedShareLimit` of all patterns in all.
    static func likelyCost(_ model: HumanChoiceModel, all: [Pattern]) -> Int {
        var refusedWithoutModel = 0
        var patternsAtCost: [Int: Int] = [:]
        for pattern in all {
            if pattern.weakness(rules: .commonShapes, model: model) != nil {
                refusedWithoutModel += 1
            } else if let cost = model.cost(of: pattern) {
                patternsAtCost[cost, default: 0] += 1
            }
        }
        let budget = Int(Double(all.count) * refusedShareLimit) - refusedWithoutModel
        var refused = 0
        var cut = -1
        for cost in patternsAtCost.keys.sorted() {
            guard let count = patternsAtCost[cost], refused + count <= budget else { break }
            refused += count
            cut = cost
        }
        return cut
    }
}
