import PatternCore

/// The figures of the strength rules, cross-validated: the people's patterns are split into `foldCount`
/// parts; for each, the rules are learnt from the other parts (HumanChoiceDerivation) and the attacker
/// (GuessingAttack) trained on them too, and the held-out part's accepted patterns are attacked. Repeated over
/// `shuffles` random splits (a fixed seed: the same figures every run).
struct CrossValidation {
    static let foldCount = 5
    static let guessCounts = [20, 30]

    struct Figures {
        /// Per fold: the share of accepted held-out patterns opened within each of `guessCounts`.
        var opened: [[Double]] = []
        /// Per fold: the share of held-out people's choices refused.
        var refusedChoices: [Double] = []
        /// Per fold: the share of all patterns refused.
        var refusedAll: [Double] = []
    }

    let patterns: [Pattern]
    let all: [Pattern]
    let shuffles: Int

    /// The figures for each level of `StrengthRules`.
    func run() -> [StrengthRules: Figures] {
        var figures: [StrengthRules: Figures] = [:]
        var random = SeededShuffle(seed: 2026)
        for _ in 0..<shuffles {
            var order = Array(patterns.indices)
            for i in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(i, Int(random.next() % UInt64(i + 1)))
            }
            for fold in 0..<CrossValidation.foldCount {
                var training: [Pattern] = []
                var heldOut: [Pattern] = []
                for (position, index) in order.enumerated() {
                    if position % CrossValidation.foldCount == fold {
                        heldOut.append(patterns[index])
                    } else {
                        training.append(patterns[index])
                    }
                }
                let model = HumanChoiceDerivation.model(from: training, all: all)
                for rules in StrengthRules.allCases {
                    let refused = Set(all.filter { $0.weakness(rules: rules, model: model) != nil })
                    let accepted = all.filter { !refused.contains($0) }
                    let targets = heldOut.filter { !refused.contains($0) }
                    let attack = GuessingAttack(
                        training: training, accepted: accepted, guessCount: CrossValidation.guessCounts.max() ?? 0)
                    figures[rules, default: Figures()].opened.append(
                        CrossValidation.guessCounts.map { attack.openedShare(of: targets, within: $0) })
                    figures[rules, default: Figures()].refusedChoices.append(
                        Double(heldOut.count - targets.count) / Double(heldOut.count))
                    figures[rules, default: Figures()].refusedAll.append(Double(refused.count) / Double(all.count))
                }
            }
        }
        return figures
    }
}

/// Knuth's MMIX linear congruential generator, seeded, so the folds are the same in every run (a shuffle needs
/// nothing better).
struct SeededShuffle {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
