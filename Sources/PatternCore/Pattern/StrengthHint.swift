/// One concrete way to make a refused shape pass the strength rules, said with the dots the person sees
/// ("Add the bottom-left dot at the end."): a refusal that only says why leaves people guessing, and the rules
/// refuse most first choices. Found by search, so following it always gives an accepted pattern.
public enum StrengthHint: Equatable, Sendable {
    /// Go on from the last dot to these dots, in this order: the fewest that make it pass.
    case addAtEnd([UInt8])
    /// Draw the pattern up to its dot `after` (the longest start that can be kept), then these dots instead of
    /// the rest: for a pattern that no added dot saves (9 dots, or every free dot refused).
    case changeEnd(after: UInt8, to: [UInt8])

    /// The hint for canonical `dots` (a drawing as the pad takes it, of any length, even 1-3 dots), or nil when
    /// they pass already or are not a canonical drawing. `minimumLength` is clamped as `weakness` does.
    public static func forDots(
        _ dots: [UInt8], minimumLength: Int = Pattern.defaultMinimumLength, rules: StrengthRules = .standard,
        model: HumanChoiceModel = .published
    ) -> StrengthHint? {
        guard let visited = visitedMask(dots) else { return nil }
        let judge = Judge(minimumLength: minimumLength, rules: rules, model: model)
        var path = dots
        defer { Pattern.zero(&path) }
        if judge.accepts(path) { return nil }
        if let tail = judge.firstAcceptedEnding(&path, visited: visited, maximum: 9 - dots.count) {
            return .addAtEnd(tail)
        }
        var keep = dots.count - 1
        while keep >= 1 {
            var start = Array(dots[0..<keep])
            defer { Pattern.zero(&start) }
            if let mask = visitedMask(start),
                let tail = judge.firstAcceptedEnding(&start, visited: mask, maximum: 9 - keep, avoiding: dots)
            {
                return .changeEnd(after: dots[keep - 1], to: tail)
            }
            keep -= 1
        }
        return nil
    }

    /// The dots drawn when the hint is followed.
    public func applied(to dots: [UInt8]) -> [UInt8] {
        switch self {
        case .addAtEnd(let tail): return dots + tail
        case .changeEnd(let after, let tail):
            guard let index = dots.firstIndex(of: after) else { return dots }
            return Array(dots[...index]) + tail
        }
    }

    /// The hint in the person's language (gettext), for the drawing window and patternctl alike.
    public var said: [UInt8] {
        switch self {
        case .addAtEnd(let tail):
            return MessageCatalogue.localized("To make it pass, add %s at the end.", StrengthHint.list(tail))
        case .changeEnd(let after, let tail):
            return MessageCatalogue.localized(
                "To make it pass, draw it up to the %s dot, then go on to %s instead.",
                StrengthHint.name(of: after), StrengthHint.list(tail))
        }
    }

    /// "the top-left dot, then the centre dot": the dots in drawing order.
    static func list(_ dots: [UInt8]) -> [UInt8] {
        var text: [UInt8] = []
        for dot in dots {
            let one = MessageCatalogue.localized("the %s dot", name(of: dot))
            text = text.isEmpty ? one : MessageCatalogue.localized("%s, then %s", text, one)
        }
        return text
    }

    /// Where a dot is on the grid, as the person sees it (dot 1 top left, whatever the keypad layout).
    static func name(of dot: UInt8) -> [UInt8] {
        switch dot {
        case 1: return MessageCatalogue.localized("top-left")
        case 2: return MessageCatalogue.localized("top-middle")
        case 3: return MessageCatalogue.localized("top-right")
        case 4: return MessageCatalogue.localized("middle-left")
        case 5: return MessageCatalogue.localized("centre")
        case 6: return MessageCatalogue.localized("middle-right")
        case 7: return MessageCatalogue.localized("bottom-left")
        case 8: return MessageCatalogue.localized("bottom-middle")
        default: return MessageCatalogue.localized("bottom-right")
        }
    }

    /// Bit d set for each dot d of a canonical drawing; nil for a dot out of 1...9, a repeated dot, or a move
    /// over a dot not yet taken (the pad would have taken it).
    static func visitedMask(_ dots: [UInt8]) -> UInt16? {
        guard !dots.isEmpty, dots.count <= 9 else { return nil }
        var visited: UInt16 = 0
        var previous: UInt8? = nil
        for dot in dots {
            guard dot >= 1 && dot <= 9, visited & (1 << UInt16(dot)) == 0 else { return nil }
            if let from = previous, let middle = Pattern.dotBetween(from, dot), visited & (1 << UInt16(middle)) == 0 {
                return nil
            }
            visited |= 1 << UInt16(dot)
            previous = dot
        }
        return visited
    }

    /// The strength rules as one configuration judges them.
    private struct Judge {
        let minimumLength: Int
        let rules: StrengthRules
        let model: HumanChoiceModel

        func accepts(_ dots: [UInt8]) -> Bool {
            Pattern(canonicalDots: dots).weakness(minimumLength: minimumLength, rules: rules, model: model) == nil
        }

        /// The first accepted ending of the fewest dots (1...`maximum`), in dot order, appended to `path` and
        /// taken off again; a whole drawing equal to `avoiding` is skipped (the refused one itself).
        func firstAcceptedEnding(
            _ path: inout [UInt8], visited: UInt16, maximum: Int, avoiding: [UInt8] = []
        ) -> [UInt8]? {
            guard maximum >= 1 else { return nil }
            let base = path.count
            for extra in 1...maximum {
                if search(&path, visited: visited, until: base + extra, avoiding: avoiding) {
                    let tail = Array(path[base...])
                    path.removeLast(extra)
                    return tail
                }
            }
            return nil
        }

        /// Depth-first over the moves the pad allows; true with the accepted drawing left in `path`.
        private func search(_ path: inout [UInt8], visited: UInt16, until length: Int, avoiding: [UInt8]) -> Bool {
            if path.count == length { return path != avoiding && accepts(path) }
            guard let last = path.last else { return false }
            for next: UInt8 in 1...9 where visited & (1 << UInt16(next)) == 0 {
                if let middle = Pattern.dotBetween(last, next), visited & (1 << UInt16(middle)) == 0 { continue }
                path.append(next)
                if search(&path, visited: visited | (1 << UInt16(next)), until: length, avoiding: avoiding) {
                    return true
                }
                path.removeLast()
            }
            return false
        }
    }
}
