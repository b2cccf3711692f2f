/// What happened to one guess.
public enum GuessOutcome: Equatable, Sendable {
    /// The pattern matched; the user's failures were reset.
    case accepted
    /// Wrong pattern. The failure was recorded and fsynced BEFORE hashing; this is the verdict for the next try.
    case rejected(verdictAfter: ThrottleVerdict)
    /// Locked out or disabled: nothing was hashed and nothing was recorded.
    case refused(ThrottleVerdict)
    /// The user has no pattern (a dummy hash of the same cost ran if `dummyHashCost` is set).
    case notEnrolled
}

/// The one place a guess is checked: takes the user's state lock, checks the verdict, records the failure and
/// fsyncs it, hashes, and resets on success, all under one flock so parallel attempts (64 sudo processes) are
/// counted one by one and none slips past a lockout.
///
/// Only well-formed guesses reach the gate: the caller parses first, and malformed or too-short input
/// (PatternError.isCountedAsGuess == false) is answered without calling `attempt`, so it is never counted.
public struct GuessGate {
    public let store: PatternStore
    public let throttle: ThrottleStore
    public let settings: ThrottleSettings
    /// Cost of the dummy hash run for users without a pattern, so timing does not reveal who is enrolled.
    /// nil: no dummy hash (callers that did not prompt).
    public var dummyHashCost: Int? = PatternHash.defaultCost
    /// Judges a pattern against a TPM record. Only the setuid helper sets it (it alone links the TPM stack);
    /// where it is nil, a TPM record answers StoreError.tpmUnavailable(code: 0) before anything is counted.
    public var tpmCheck: ((TPMRecord, [UInt8], Pattern) -> TPMGuessResult)? = nil

    public init(store: PatternStore, throttle: ThrottleStore, settings: ThrottleSettings) {
        self.store = store
        self.throttle = throttle
        self.settings = settings
    }

    /// Takes the user's state lock, checks the verdict, records the failure + fsync, verifies, resets on success.
    public func attempt(user: [UInt8], pattern: Pattern, now: Int64) throws(StoreError) -> GuessOutcome {
        // Enrollment first: an unknown name must not create a state file (no files for arbitrary names).
        guard let record = try store.record(for: user) else {
            if let cost = dummyHashCost { PatternHash.dummyVerify(cost: cost) }
            return .notEnrolled
        }
        let tpm = record.tpmRecord
        if tpm != nil && tpmCheck == nil { throw .tpmUnavailable(code: 0) }
        guard var locked = try throttle.lock(user: user, create: true) else { throw .missingDirectory }
        defer { locked.close() }

        // The throttle first, in TPM mode too: the TPM is not asked while a wait runs.
        let state = try locked.read()
        let verdict = ThrottlePolicy.verdict(state: state, now: now, settings: settings)
        guard case .allowed = verdict else { return .refused(verdict) }

        // Count the guess before the hash runs: killing sudo mid-hash must not make a free guess.
        var failed = state
        failed.failures = state.failures < ThrottleState.maximumFailures ? state.failures + 1 : state.failures
        failed.lastFailure = max(now, 0)
        try locked.write(failed)

        if let tpm, let tpmCheck {
            return try judge(tpmCheck(tpm, user, pattern), before: state, counted: failed, now: now, in: &locked)
        }
        if PatternHash.verify(pattern, against: record.hash) {
            try locked.write(.zero)
            return .accepted
        }
        return .rejected(verdictAfter: ThrottlePolicy.verdict(state: failed, now: now, settings: settings))
    }

    /// The state after the TPM's answer. The TPM keeps its own count; the throttle's becomes the larger of the
    /// two, so deleting the state file buys nothing and the waits follow the TPM's count.
    func judge(_ result: TPMGuessResult, before: ThrottleState, counted: ThrottleState, now: Int64,
               in locked: inout LockedThrottleState) throws(StoreError) -> GuessOutcome {
        switch result {
        case .right:
            try locked.write(.zero)
            return .accepted
        case .wrong(let tpmFailures):
            var after = counted
            if let tpmFailures { after.failures = min(max(after.failures, tpmFailures), ThrottleState.maximumFailures) }
            if after != counted { try locked.write(after) }
            return .rejected(verdictAfter: ThrottlePolicy.verdict(state: after, now: now, settings: settings))
        case .limitReached:
            var after = counted
            if settings.lockAfter > 0 { after.failures = max(after.failures, settings.lockAfter) }
            if after != counted { try locked.write(after) }
            return .refused(.disabled)
        case .unavailable(let code):
            // Not a guess: the failure counted before asking is taken back.
            try locked.write(before)
            throw .tpmUnavailable(code: code)
        }
    }

    /// The verdict for the user right now, without guessing (so a locked user is told before being prompted).
    public func check(user: [UInt8], now: Int64) throws(StoreError) -> ThrottleVerdict {
        return ThrottlePolicy.verdict(state: try throttle.state(for: user), now: now, settings: settings)
    }
}
