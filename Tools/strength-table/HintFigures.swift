import PatternCore

/// How well the refusal's hint (StrengthHint) helps on people's own first choices: of the patterns the default
/// rules refuse, the share that passes once the hint is followed (the aim: all), and how many dots it adds.
enum HintFigures {
    static func markdown(_ patterns: [Pattern]) -> String {
        var refused = 0
        var passes = 0
        var addedAtEnd = 0
        var endChanged = 0
        var dotsAdded = 0
        for pattern in patterns where pattern.weakness() != nil {
            refused += 1
            guard let hint = StrengthHint.forDots(pattern.dots) else { continue }
            if StrengthPreview(dots: hint.applied(to: pattern.dots)) == .accepted { passes += 1 }
            switch hint {
            case .addAtEnd(let tail):
                addedAtEnd += 1
                dotsAdded += tail.count
            case .changeEnd: endChanged += 1
            }
        }
        let share = refused == 0 ? 1 : Double(passes) / Double(refused)
        let mean = addedAtEnd == 0 ? 0 : Double(dotsAdded) / Double(addedAtEnd)
        return """
            The refusal's hint on people's choices (strength=\(StrengthRules.standard.rawValue)): \(refused) of \
            \(patterns.count) refused; following the hint passes for \(passes) (\(FiguresTable.percent(share))); \
            \(addedAtEnd) add dots at the end (\((mean * 100).rounded() / 100) on average), \(endChanged) change the end.

            """
    }
}
