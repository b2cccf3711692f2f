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

    public init(store: PatternStore, throttle: ThrottleStore, settings: ThrottleSettings) {
        self.store = store
        self.throttle = throttle
        self.settings = settings
    }

    /// Takes the user's state lock, checks the verdict, records the failure + fsync, verifies, resets on success.
    public func attempt(user: [UInt8], pattern: Pattern, now: Int64) throws(StoreError) -> GuessOutcome {
        var unseen: (count: Int, last: FailedAttempt)? = nil
        return try attempt(user: user, pattern: pattern, now: now, origin: nil, markSeen: false, unseen: &unseen)
    }

    /// `attempt`, also keeping the user's attempt record: with an `origin`, a failure is added to the record
    /// under the same lock, right after it is counted and before the hash. On success `unseen` receives the
    /// failures the person has not been told about (nil if none); with `markSeen` they are then marked seen.
    public func attempt(user: [UInt8], pattern: Pattern, now: Int64, origin: AttemptOrigin?, markSeen: Bool,
                        unseen: inout (count: Int, last: FailedAttempt)?) throws(StoreError) -> GuessOutcome {
        unseen = nil
        // Enrollment first: an unknown name must not create a state file (no files for arbitrary names).
        guard let record = try store.record(for: user) else {
            if let cost = dummyHashCost { PatternHash.dummyVerify(cost: cost) }
            return .notEnrolled
        }
        guard var locked = try throttle.lock(user: user, create: true) else { throw .missingDirectory }
        defer { locked.close() }

        let state = try locked.read()
        let verdict = ThrottlePolicy.verdict(state: state, now: now, settings: settings)
        guard case .allowed = verdict else { return .refused(verdict) }

        // List the guess in the attempt record first: a write the caller's limits cut short (file size, full
        // disk) then refuses the guess before it is counted or hashed, so nobody can guess unlisted.
        var before = AttemptRecord.empty
        if let origin {
            before = try recordedAttempts(user: user)
            var after = before
            after.add(origin.failure(at: max(now, 0)))
            try throttle.replaceAttempts(after, for: user)
        }
        // Count the guess before the hash runs: killing sudo mid-hash must not make a free guess.
        var failed = state
        failed.failures = state.failures < ThrottleState.maximumFailures ? state.failures + 1 : state.failures
        failed.lastFailure = max(now, 0)
        try locked.write(failed)

        if PatternHash.verify(pattern, against: record.hash) {
            if origin != nil {
                // Not a failure after all: the record as it was, its failures marked seen once told.
                unseen = before.unseenSummary
                if markSeen { before.unseen = 0 }
                try throttle.replaceAttempts(before, for: user)
            }
            try locked.write(.zero)
            return .accepted
        }
        return .rejected(verdictAfter: ThrottlePolicy.verdict(state: failed, now: now, settings: settings))
    }

    /// The user's attempt record, read under the state lock. A malformed one is started afresh: it is history
    /// for the person and the admin, and must not lock anyone out (an unsafe one still fails closed).
    private func recordedAttempts(user: [UInt8]) throws(StoreError) -> AttemptRecord {
        do {
            return try throttle.attempts(for: user)
        } catch {
            if case .malformedAttemptRecord = error { return .empty }
            throw error
        }
    }

    /// The verdict for the user right now, without guessing (so a locked user is told before being prompted).
    public func check(user: [UInt8], now: Int64) throws(StoreError) -> ThrottleVerdict {
        return ThrottlePolicy.verdict(state: try throttle.state(for: user), now: now, settings: settings)
    }
}
