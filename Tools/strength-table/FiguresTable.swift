import PatternCore

/// The figures as one markdown table, a row per level of `strength=`.
enum FiguresTable {
    static func markdown(_ figures: [StrengthRules: CrossValidation.Figures], patterns: Int, shuffles: Int) -> String {
        var out = """
            Strength rules against an attacker who knows people's choices: \(patterns) patterns, \
            \(CrossValidation.foldCount)-fold cross-validated (\(shuffles) shuffle\(shuffles == 1 ? "" : "s")); \
            the attacker guesses the accepted patterns the training folds chose most often, ties by their Markov model.

            | strength= | opened in 20 guesses | worst fold | opened in 30 | people's choices refused | all patterns refused |
            |---|---|---|---|---|---|

            """
        for rules in StrengthRules.allCases {
            guard let f = figures[rules] else { continue }
            let in20 = f.opened.map { $0[0] }
            let in30 = f.opened.map { $0[1] }
            out += "| \(rules.rawValue) | \(percent(mean(in20))) | \(percent(in20.max() ?? 0)) | "
            out += "\(percent(mean(in30))) | \(percent(mean(f.refusedChoices))) | \(percent(mean(f.refusedAll), 3)) |\n"
        }
        return out
    }

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

    static func percent(_ share: Double, _ decimals: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let value = (share * 100 * scale).rounded() / scale
        return "\(value) %"
    }
}
