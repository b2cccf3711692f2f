import PatternCore

/// `status`'s lines in plain words, the same for root's view and a user's own (through the helper): how slow the
/// hash is rather than its cost alone, and one failure count with what it means under the throttle in force.
/// Labels stay English, like every key of status, so scripts can read them in any locale; a line's value starts
/// with its fact (a date, a number) so `failures: 3 ...` still reads as a count.
enum StatusLines {
    static func lines(
        user: String, setAt: Int64?, cost: Int?, failures: Int, verdict: ThrottleVerdict, now: Int64,
        throttle: ThrottleSettings
    ) -> [String] {
        // No pattern: said plainly, without the lines that only mean something for one.
        guard let setAt else {
            return [
                "user: \(user)",
                "enrolled: no",
                "pattern: none yet ('patternctl set' makes one; until then the password is asked)",
                "failures: \(self.failures(failures, enrolled: false, throttle: throttle))",
                "locked: \(locked(verdict, now: now))",
            ]
        }
        return [
            "user: \(user)",
            "enrolled: yes",
            "set: \(Timestamp.local(setAt))",
            "hash: \(hash(enrolled: true, cost: cost))",
            "failures: \(self.failures(failures, enrolled: true, throttle: throttle))",
            "locked: \(locked(verdict, now: now))",
        ]
    }

    /// "yescrypt with 64 MiB of memory per check (cost 7)": what each guess costs anyone, the attacker included
    /// (yescrypt's time grows with its memory, 2^(cost-1) MiB); "held by the TPM" for a TPM record; "-".
    static func hash(enrolled: Bool, cost: Int?) -> String {
        guard enrolled else { return "-" }
        guard let cost else { return "held by the TPM (it counts the wrong tries itself)" }
        return "yescrypt with \(1 << (max(cost, 1) - 1)) MiB of memory per check (cost \(cost))"
    }

    /// "3 wrong tries since the last success (a wait begins at 5; disabled at 20)"; "0" alone when nothing
    /// counts against a person without a pattern.
    static func failures(_ count: Int, enrolled: Bool, throttle: ThrottleSettings) -> String {
        if !enrolled && count == 0 { return "0" }
        var rules = "a wait begins at \(max(throttle.deny, 1))"
        if throttle.lockAfter > 0 { rules += "; disabled at \(throttle.lockAfter)" }
        // Without a pattern the count is of wrong account passwords given to set a first one.
        let one = count == 1
        let what =
            enrolled
            ? (one ? "wrong try" : "wrong tries")
            : (one ? "wrong password given to set a first pattern" : "wrong passwords given to set a first pattern")
        return "\(count) \(what) since the last success (\(rules))"
    }

    /// "no", "until DATE (N s)" or "disabled".
    static func locked(_ verdict: ThrottleVerdict, now: Int64) -> String {
        switch verdict {
        case .allowed: return "no"
        case .wait(let seconds): return "until \(Timestamp.local(now + seconds)) (\(seconds) s)"
        case .disabled: return "disabled"
        }
    }
}
