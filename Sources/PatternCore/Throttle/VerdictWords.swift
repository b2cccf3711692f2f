/// The throttle's verdict on a person's pattern as they are told it. The module says these at the prompt
/// (with the way out for a forgotten pattern after them); the pad reads them back (ModuleWords) and says them
/// again in the person's language, counting a wait down: one home for each sentence.
public enum VerdictWords {
    /// Why no pattern may be tried now.
    public static func locked(_ verdict: ThrottleVerdict) -> [UInt8] {
        switch verdict {
        case .wait(let secondsLeft):
            return localized(
                "Too many wrong patterns: try again in %s. Your password still works.",
                DurationWords(seconds: secondsLeft).said)
        case .disabled:
            return localized(
                "Your pattern is disabled after too many wrong tries; an administrator can re-enable it (patternctl reset). Your password still works."
            )
        case .allowed:
            return localized("Your pattern cannot be used right now. Your password still works.")
        }
    }

    /// After a wrong pattern: what the verdict has become.
    public static func wrong(_ verdictAfter: ThrottleVerdict) -> [UInt8] {
        switch verdictAfter {
        case .allowed(let left):
            if left <= 0 { return localized("Wrong pattern.") }
            return localizedPlural(
                "Wrong pattern. %s try left before a wait.",
                "Wrong pattern. %s tries left before a wait.", Int64(left), TextCodec.decimal(Int64(left)))
        case .wait(let secondsLeft):
            return localized(
                "Wrong pattern. Too many wrong patterns: try again in %s. Your password still works.",
                DurationWords(seconds: secondsLeft).said)
        case .disabled:
            return localized(
                "Wrong pattern. Your pattern is now disabled after too many wrong tries; an administrator can re-enable it. Your password still works."
            )
        }
    }
}
