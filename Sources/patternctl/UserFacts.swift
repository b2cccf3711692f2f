import PatternCore

/// What status and list report about one user: enrolment and throttle.
struct UserFacts {
    let user: String
    let record: StoreRecord?
    let state: ThrottleState
    let verdict: ThrottleVerdict
    let now: Int64

    /// Gathers the facts from the store and the throttle state, judged with `settings` at `now`.
    init(user: String, record: StoreRecord?, throttle: ThrottleStore, settings: ThrottleSettings,
         now: Int64) throws(StoreError) {
        self.user = user
        self.record = record
        self.now = now
        state = try throttle.state(for: Array(user.utf8))
        verdict = ThrottlePolicy.verdict(state: state, now: now, settings: settings)
    }

    /// "yes" or "no".
    var enrolled: String { record == nil ? "no" : "yes" }
    /// When the pattern was set (UTC ISO-8601), or "-".
    var setAt: String { record.map { Timestamp.format($0.setAt) } ?? "-" }
    /// The yescrypt cost of the stored hash, or "-".
    var cost: String { record?.cost.map { "\($0)" } ?? "-" }
    /// The facts as a JSON object; the fields are documented in patternctl(8)
    /// ("JSON OUTPUT") and never renamed: scripts rely on them.
    var json: JSON {
        let waitSeconds: Int64?
        let lockState: String
        switch verdict {
        case .allowed:
            lockState = "no"
            waitSeconds = nil
        case .wait(let seconds):
            lockState = "wait"
            waitSeconds = seconds
        case .disabled:
            lockState = "disabled"
            waitSeconds = nil
        }
        return .object([
            ("user", .string(user)),
            ("enrolled", .bool(record != nil)),
            ("set", .optional(record.map { Timestamp.format($0.setAt) })),
            ("cost", .optional(record?.cost.map { Int64($0) })),
            ("failures", .integer(Int64(state.failures))),
            ("locked", .string(lockState)),
            ("locked_until", .optional(waitSeconds.map { Timestamp.format(now + $0) })),
            ("wait_seconds", .optional(waitSeconds)),
        ])
    }

    /// "no", "until DATE (N s)" or "disabled".
    var locked: String {
        switch verdict {
        case .allowed: return "no"
        case .wait(let seconds): return "until \(Timestamp.format(now + seconds)) (\(seconds) s)"
        case .disabled: return "disabled"
        }
    }
}
