import PatternCore

extension PatternWeakness {
    /// Why the pattern is refused (the core's `template`), in the user's language.
    var said: String {
        let (format, arguments) = template
        return localized(format, arguments: arguments.map { String(decoding: $0, as: UTF8.self) })
    }

    /// Why `pattern` is refused, then one concrete way to make this shape pass (StrengthHint, the words the
    /// drawing window shows too).
    func said(for pattern: Pattern, minimumLength: Int, rules: StrengthRules) -> String {
        guard let hint = StrengthHint.forDots(pattern.dots, minimumLength: minimumLength, rules: rules) else {
            return said
        }
        return said + " " + String(decoding: hint.said, as: UTF8.self)
    }
}
