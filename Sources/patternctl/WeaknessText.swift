import PatternCore

extension PatternWeakness {
    /// Why the pattern is refused (the core's `template`), in the user's language.
    var said: String {
        let (format, arguments) = template
        return localized(format, arguments: arguments.map { String(decoding: $0, as: UTF8.self) })
    }
}
