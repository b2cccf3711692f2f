import PatternCore

/// Tries and waits in the words the module uses at the prompt ("4 tries left before a wait", "try again in
/// 4 minutes 54 seconds"), so a person reads one style from sudo, a screen locker and patternctl.
enum WaitText {
    /// "4 minutes 54 seconds": the module's msgids, so one translation serves both.
    static func duration(_ seconds: Int64) -> String {
        let words = DurationWords(seconds: seconds)
        let larger = count(words.unit, words.count)
        return words.rest == 0 ? larger : localized("%1$s %2$s", larger, count(words.restUnit, words.rest))
    }

    static func count(_ unit: DurationWords.Unit, _ n: Int64) -> String {
        switch unit {
        case .second: return localizedPlural("%s second", "%s seconds", Int(n), "\(n)")
        case .minute: return localizedPlural("%s minute", "%s minutes", Int(n), "\(n)")
        case .hour: return localizedPlural("%s hour", "%s hours", Int(n), "\(n)")
        }
    }

    /// After a wrong try that is still free: "4 tries left before a wait".
    static func triesLeft(_ left: Int) -> String {
        localizedPlural("%s try left before a wait", "%s tries left before a wait", left, "\(left)")
    }

    /// Why nothing may be tried now.
    static func locked(_ verdict: ThrottleVerdict) -> String {
        switch verdict {
        case .allowed: return localized("not locked")
        case .wait(let seconds): return localized("too many wrong tries: try again in %s", duration(seconds))
        case .disabled:
            return localized(
                "your pattern is disabled after too many wrong tries; an administrator can re-enable it (patternctl reset)"
            )
        }
    }
}
