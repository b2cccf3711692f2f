import PatternCore

/// Tries and waits in the words the module uses at the prompt ("4 tries left before a wait", "try again in
/// 4 minutes 54 seconds"), so a person reads one style from sudo, a screen locker and patternctl.
enum WaitText {
    /// "4 minutes 54 seconds": the core's wording of a wait, the module's msgids, so one translation serves both.
    static func duration(_ seconds: Int64) -> String {
        String(decoding: DurationWords(seconds: seconds).said, as: UTF8.self)
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
