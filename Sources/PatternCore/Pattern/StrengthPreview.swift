/// Whether a drawing would pass the strength rules, as the drawing window shows it live while the new pattern
/// is drawn (a word under the grid and the trail's colour), before anything is sent: the rules themselves
/// (`weakness`) in four short verdicts. Cheap: a few hundred comparisons, once per dot taken.
public enum StrengthPreview: Equatable, Sendable {
    case accepted
    /// Fewer dots than the minimum.
    case tooShort
    /// Among the shapes people choose most (the published list, the shapes many chose, the likely ones).
    case commonShape
    /// A simple shape: dots in a row, a walk round the edge, a letter of few strokes.
    case simpleShape

    /// The verdict on canonical `dots` (a drawing as the pad takes it, of any length); a drawing that is not
    /// canonical is judged too short (it cannot be sent as it is).
    public init(
        dots: [UInt8], minimumLength: Int = Pattern.defaultMinimumLength, rules: StrengthRules = .standard,
        model: HumanChoiceModel = .published
    ) {
        guard StrengthHint.visitedMask(dots) != nil, dots.count >= Pattern.clampedMinimumLength(minimumLength) else {
            self = .tooShort
            return
        }
        switch Pattern(canonicalDots: dots).weakness(minimumLength: minimumLength, rules: rules, model: model) {
        case nil: self = .accepted
        case .tooShort?: self = .tooShort
        case .commonPattern?, .likelyChoice?: self = .commonShape
        case .sequentialDots?, .ringWalk?, .fewStrokes?: self = .simpleShape
        }
    }

    /// The verdict in the person's language.
    public var said: [UInt8] {
        switch self {
        case .accepted: return MessageCatalogue.localized("Strong enough")
        case .tooShort: return MessageCatalogue.localized("Too short")
        case .commonShape: return MessageCatalogue.localized("Too common a shape")
        case .simpleShape: return MessageCatalogue.localized("Too simple a shape")
        }
    }
}
