import Glibc
import PatternCore

/// The attacker the figures are judged against: knows the rules and what people chose (a training set), and
/// guesses the accepted patterns most often chosen first, ties broken by a Markov model of the training set
/// (start and moves, add-one smoothing, no symmetries: the attacker's own model, not the one the rules use).
struct GuessingAttack {
    let guesses: [Pattern]

    init(training: [Pattern], accepted: [Pattern], guessCount: Int) {
        var counts: [Pattern: Int] = [:]
        for pattern in training { counts[pattern, default: 0] += 1 }
        var starts = [Int](repeating: 0, count: 9)
        var moves = [Int](repeating: 0, count: 81)
        var movesFrom = [Int](repeating: 0, count: 9)
        for pattern in training {
            let dots = pattern.dots.map { Int($0) - 1 }
            starts[dots[0]] += 1
            for (from, to) in zip(dots, dots.dropFirst()) {
                moves[from * 9 + to] += 1
                movesFrom[from] += 1
            }
        }
        func likelihood(_ pattern: Pattern) -> Double {
            let dots = pattern.dots.map { Int($0) - 1 }
            var sum = log(Double(starts[dots[0]] + 1) / Double(training.count + 9))
            for (from, to) in zip(dots, dots.dropFirst()) {
                sum += log(Double(moves[from * 9 + to] + 1) / Double(movesFrom[from] + 9))
            }
            return sum
        }
        let ranked = accepted.map { (pattern: $0, count: counts[$0] ?? 0, likelihood: likelihood($0)) }
            .sorted { ($0.count, $0.likelihood) > ($1.count, $1.likelihood) }
        guesses = ranked.prefix(guessCount).map(\.pattern)
    }

    /// The share of `targets` found among the first `count` guesses.
    func openedShare(of targets: [Pattern], within count: Int) -> Double {
        guard !targets.isEmpty else { return 0 }
        let tried = Set(guesses.prefix(count))
        return Double(targets.filter { tried.contains($0) }.count) / Double(targets.count)
    }
}
