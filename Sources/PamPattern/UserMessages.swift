import PatternCoreEmbedded

/// What the person at the prompt is told. Plain sentences, no secrets.
enum UserMessages {
    /// "45 seconds", "1 minute", "2 minutes 5 seconds", "3 hours 2 minutes".
    static func duration(_ seconds: Int64) -> String {
        let s = seconds < 1 ? 1 : seconds
        if s < 60 { return plural(s, "second") }
        if s < 3600 {
            let rest = s % 60
            return rest == 0 ? plural(s / 60, "minute") : plural(s / 60, "minute") + " " + plural(rest, "second")
        }
        let minutes = (s % 3600) / 60
        return minutes == 0 ? plural(s / 3600, "hour") : plural(s / 3600, "hour") + " " + plural(minutes, "minute")
    }

    static func plural(_ count: Int64, _ word: String) -> String {
        return count == 1 ? "1 \(word)" : "\(count) \(word)s"
    }

    /// Shown instead of a prompt while the throttle refuses.
    static func locked(_ verdict: ThrottleVerdict) -> String {
        switch verdict {
        case .wait(let secondsLeft):
            return "Too many wrong patterns: try again in \(duration(secondsLeft)). Your password still works."
        case .disabled:
            return "Your pattern is disabled after too many wrong tries; an administrator can re-enable it (patternctl reset). Your password still works."
        case .allowed:
            return "Your pattern cannot be used right now. Your password still works."
        }
    }

    /// Shown for an empty answer with `empty_fails`: the pattern is required here, not optional.
    static let emptyRefused = "A pattern is required."

    /// Shown when the pattern was changed or removed while it was being checked.
    static let revoked = "Pattern not accepted: it was changed or removed just now. Your password still works."

    /// Shown after a wrong pattern.
    static func wrong(_ verdictAfter: ThrottleVerdict) -> String {
        switch verdictAfter {
        case .allowed(let left):
            if left <= 0 { return "Wrong pattern." }
            return left == 1 ? "Wrong pattern. 1 try left before a wait."
                             : "Wrong pattern. \(left) tries left before a wait."
        case .wait(let secondsLeft):
            return "Wrong pattern. Too many wrong patterns: the next try is possible in \(duration(secondsLeft)). Your password still works."
        case .disabled:
            return "Wrong pattern. Your pattern is now disabled after too many wrong tries; an administrator can re-enable it. Your password still works."
        }
    }

    /// Shown for any answer that is not a pattern (a wrong character, a dot used twice, too few or too many
    /// dots). One fixed sentence that never depends on what was typed: a password typed out of habit must
    /// not be quoted back, not even one character, position or dot number. `patternctl show`, run on
    /// purpose, explains an answer in detail.
    static let malformed = "Not a pattern: type the dots of your pattern as digits 1-9, each dot once."
}
