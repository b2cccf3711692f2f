import PatternCore

/// What status and list report about one user: enrolment and throttle.
struct UserFacts {
    let user: String
    let record: StoreRecord?
    let state: ThrottleState
    let verdict: ThrottleVerdict
    let now: Int64
    /// Whose the pattern is (see `account`).
    let binding: Binding

    /// A record's tie to an account: the uid it carries against the uid its name has now.
    enum Binding: Equatable {
        case none
        case bound(uid: UInt32)
        case unbound
        case mismatch(recordUid: UInt32, accountUid: UInt32?)
        case unknown(String)
    }

    static func binding(of record: StoreRecord?) -> Binding {
        guard let record else { return .none }
        guard let recorded = record.uid else { return .unbound }
        do {
            try record.requireAccount()
            return .bound(uid: recorded)
        } catch {
            if case .accountMismatch(let r, let a) = error { return .mismatch(recordUid: r, accountUid: a) }
            return .unknown(error.message)
        }
    }

    /// Gathers the facts from the store and the throttle state, judged with `settings` at `now`.
    init(
        user: String, record: StoreRecord?, throttle: ThrottleStore, settings: ThrottleSettings,
        now: Int64
    ) throws(StoreError) {
        self.user = user
        self.record = record
        self.now = now
        binding = UserFacts.binding(of: record)
        state = try throttle.state(for: Array(user.utf8))
        verdict = ThrottlePolicy.verdict(state: state, now: now, settings: settings)
    }

    /// "yes" or "no".
    var enrolled: String { record == nil ? "no" : "yes" }
    /// When the pattern was set (local time, for a person), or "-".
    var setAt: String { record.map { Timestamp.local($0.setAt) } ?? "-" }
    /// The yescrypt cost of the stored hash, or "-".
    var cost: String { record?.cost.map { "\($0)" } ?? "-" }
    /// "-", "uid N", "unbound (...)" or "MISMATCH: ...": whether the pattern belongs to the account that has
    /// the name now (the module refuses a mismatch; `patternctl prune` removes it).
    var account: String {
        switch binding {
        case .none: return "-"
        case .bound(let uid): return "uid \(uid)"
        case .unbound: return "unbound (no uid yet; bound to the current account at the next store write)"
        case .mismatch(let recorded, let current):
            let now = current.map { "the account now has uid \($0)" } ?? "no such account now"
            return "MISMATCH: set for uid \(recorded), \(now); refused by the module (patternctl prune)"
        case .unknown(let why): return "unknown (\(why))"
        }
    }

    /// True unless the record is bound to the account that has the name now (or there is no record).
    var accountFlagged: Bool {
        switch binding {
        case .none, .bound: return false
        default: return true
        }
    }

    /// One word for tables and JSON: "-", "bound", "unbound", "mismatch", "unknown".
    var accountWord: String {
        switch binding {
        case .none: return "-"
        case .bound: return "bound"
        case .unbound: return "unbound"
        case .mismatch: return "mismatch"
        case .unknown: return "unknown"
        }
    }

    /// The facts as a JSON object; the fields are documented in patternctl(8)
    /// ("JSON OUTPUT") and never renamed: scripts rely on them.
    var json: JSON {
        UserFacts.json(
            user: user, setAt: record?.setAt, cost: record?.cost, failures: state.failures, verdict: verdict, now: now)
    }

    /// The JSON object of `status`, for root's facts and for the ones the helper tells a user about themself.
    static func json(
        user: String, setAt: Int64?, cost: Int?, failures: Int, verdict: ThrottleVerdict, now: Int64
    )
        -> JSON
    {
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
            ("enrolled", .bool(setAt != nil)),
            ("set", .optional(setAt.map { Timestamp.iso($0) })),
            ("cost", .optional(cost.map { Int64($0) })),
            ("failures", .integer(Int64(failures))),
            ("locked", .string(lockState)),
            ("locked_until", .optional(waitSeconds.map { Timestamp.iso(now + $0) })),
            ("wait_seconds", .optional(waitSeconds)),
        ])
    }

    /// "no", "until DATE (N s)" or "disabled".
    var locked: String { StatusLines.locked(verdict, now: now) }
}
