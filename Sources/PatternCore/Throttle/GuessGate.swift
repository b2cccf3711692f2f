import CPatternSystem

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
    /// The pattern matched the record read at the start, but the store no longer holds that record (removed
    /// or changed while the hash ran): refused, and the failure recorded for it stays counted.
    case revoked
}

/// The one place a guess is checked. The user's state lock is held twice, briefly, and never while hashing:
///
/// 1. lock -> read the user's store record (what the store says NOW) -> verdict -> record the failure and
///    fsync it -> unlock. Parallel attempts (64 sudo processes) are counted one by one here, so exactly
///    `deny` of them get past a lockout, and killing su mid-hash never makes a free guess.
/// 2. hash, unlocked: a stopped su or sudo (SIGSTOP by the user who started it) holds no lock.
/// 3. only on a match: lock -> read the record again and accept only if it is the very same record (a
///    pattern removed or changed while hashing is refused) -> clear the failure -> unlock.
///
/// A TPM record (the setuid helper sets `tpmCheck`) goes the same way: the throttle first (the TPM is not asked
/// while a wait runs), the TPM asked in step 2, then its answer settled under the lock (`settle`).
///
/// Every lock wait is bounded (`SafeFile.lockWaitMilliseconds`): `StoreError.lockBusy`, fail closed.
/// Only well-formed guesses reach the gate: the caller parses first, and malformed or too-short input
/// (a `PatternError`, as Android does not count a pattern under 4 dots) is never given to `attempt`: not counted.
public struct GuessGate {
    public let store: PatternStore
    public let throttle: ThrottleStore
    public let settings: ThrottleSettings
    /// Cost of the dummy hash run for users without a pattern, so timing does not reveal who is enrolled.
    /// nil: no dummy hash (callers that did not prompt).
    public var dummyHashCost: Int? = PatternHash.defaultCost
    /// Judges a pattern against a TPM record. Only the setuid helper sets it (it alone links the TPM stack);
    /// where it is nil (the module, which hands TPM records to the helper where it reads them), a TPM record
    /// answers StoreError.heldByTPM before anything is counted.
    public var tpmCheck: ((TPMRecord, [UInt8], Pattern) -> TPMGuessResult)? = nil

    public init(store: PatternStore, throttle: ThrottleStore, settings: ThrottleSettings) {
        self.store = store
        self.throttle = throttle
        self.settings = settings
    }

    /// Checks one guess: count under the lock, hash without it, accept under the lock (see the type).
    public func attempt(user: [UInt8], pattern: Pattern, now: Int64) throws(StoreError) -> GuessOutcome {
        var unseen: UnseenFailures? = nil
        return try attempt(user: user, pattern: pattern, now: now, origin: nil, markSeen: false, unseen: &unseen)
    }

    /// `attempt`, also keeping the user's attempt record: with an `origin`, the guess is listed in the record
    /// in step 1, under the lock, just before it is counted. On a match (step 3) this guess's entry is taken
    /// out again, `unseen` receives the failures the person has not been told about (nil if none), and with
    /// `markSeen` they are marked seen.
    public func attempt(
        user: [UInt8], pattern: Pattern, now: Int64, origin: AttemptOrigin?, markSeen: Bool,
        unseen: inout UnseenFailures?
    ) throws(StoreError) -> GuessOutcome {
        unseen = nil
        // Enrollment first, unlocked: an unknown name must not create a state file (no files for arbitrary
        // names). The record that is verified is read again under the lock below.
        guard try store.boundRecord(for: user) != nil else {
            if let cost = dummyHashCost { PatternHash.dummyVerify(cost: cost) }
            return .notEnrolled
        }

        // A guess that could not be counted is not verified: refused before any file is created or written
        // when the caller's hard file-size limit leaves no room for a state record.
        try ThrottleStore.requireRoomForRecord()
        // Nor one the caller's CPU time limit would kill mid-check (the count would then stay).
        try GuessGate.requireTimeForCheck()
        // Read (or made) before the lock: the repeated-guess tag's key. nil: every guess is counted.
        let repeatKey = store.repeatKey()

        // 1. Under the lock: the record as the store holds it now, the verdict, the failure counted.
        let first = try withStateLock(user) {
            (locked) throws(StoreError) -> FirstStep<(StoreRecord, CountedGuess, [UInt8]?)> in
            guard let record = try store.boundRecord(for: user) else { return .answered(.notEnrolled) }
            if record.tpmRecord != nil && tpmCheck == nil { throw .heldByTPM }
            let state = try locked.read(normalisedAt: now)
            let verdict = self.verdict(state, now: now)
            guard case .allowed = verdict else { return .answered(.refused(verdict)) }
            var attempts = try recordedAttempts(user: user)
            let tag = repeatKey.map { RepeatedGuess.tag(key: $0, user: user, record: record, pattern: pattern) }
            // One of the last distinct wrong patterns again, within the window: "wrong", not counted, not
            // listed, not hashed, the TPM not asked (RepeatedGuess).
            if let tag, attempts.isRepeat(tag, at: now) { return .answered(.rejected(verdictAfter: verdict)) }
            // List the guess first: a write the caller's limits cut short (file size, full disk) then refuses
            // the guess before it is counted or hashed, so nobody can guess unlisted.
            if let origin {
                attempts.add(origin.failure(at: max(now, 0)))
                try throttle.replaceAttempts(attempts, for: user)
            }
            // Count the guess before the hash runs: killing sudo mid-hash must not make a free guess.
            let count = CountedGuess(counting: state, at: now)
            try locked.write(count.counted)
            return .counted((record, count, tag))
        }
        let record: StoreRecord
        let count: CountedGuess
        let tag: [UInt8]?
        switch first {
        case .answered(let outcome): return outcome
        case .counted(let step): (record, count, tag) = step
        }

        // 2. The TPM's answer (it keeps its own count), or the hash, with no lock held.
        if let tpm = record.tpmRecord, let tpmCheck {
            return try settle(
                tpmCheck(tpm, user, pattern), user: user, record: record, count: count, now: now, origin: origin,
                markSeen: markSeen, tag: tag, unseen: &unseen)
        }
        let matched: Bool
        do throws(HashError) { matched = try PatternHash.matches(pattern, against: record.hash) } catch {
            // No hash came out (no memory under the caller's RLIMIT_AS, a setting libcrypt refuses): nothing was
            // compared, so this was no guess. Its count and record entry are taken back, as for an unavailable TPM.
            try takeBack(user: user, count: count, now: now, origin: origin)
            throw .hash(error)
        }
        guard matched else {
            if let tag { rememberWrong(tag, user: user, now: now) }
            return .rejected(verdictAfter: verdict(count.counted, now: now))
        }

        // 3. A match counts only for the record the store still holds.
        return try withStateLock(user) { (locked) throws(StoreError) -> GuessOutcome in
            guard let current = try store.record(for: user), current == record else { return .revoked }
            // Failures recorded by other attempts while this one hashed stay counted; only this one's is undone.
            try locked.write(count.forgiven(from: try locked.read()))
            // Not a failure after all: take this guess's entry out (others listed meanwhile stay), then tell.
            try withdraw(origin, user: user, now: now, markSeen: markSeen, unseen: &unseen)
            return .accepted
        }
    }

    /// After a wrong guess: its tag joins the remembered ones a repeat is recognised by. Best effort, under the
    /// lock: when it cannot be written the repeat is simply counted.
    func rememberWrong(_ tag: [UInt8], user: [UInt8], now: Int64) {
        guard let opened = try? throttle.lock(user: user, create: false) else { return }
        var locked = opened
        defer { locked.close() }
        remember(tag, user: user, now: now)
    }

    /// Writes `tag` into the user's attempt record (the caller holds the state lock).
    private func remember(_ tag: [UInt8], user: [UInt8], now: Int64) {
        guard var attempts = try? recordedAttempts(user: user) else { return }
        attempts.rememberWrong(tag, at: max(now, 0))
        try? throttle.replaceAttempts(attempts, for: user)
    }

    /// The TPM's answer, settled under the lock. The throttle's count becomes the larger of its own and the
    /// TPM's, so deleting the state file buys nothing and the waits follow the TPM's count; "unavailable" takes
    /// back this attempt's failure and its attempt-record entry (it never reached the TPM), "unanswered" keeps
    /// them (it may have: the throttle never counts less than the TPM).
    func settle(
        _ result: TPMGuessResult, user: [UInt8], record: StoreRecord, count: CountedGuess, now: Int64,
        origin: AttemptOrigin?, markSeen: Bool, tag: [UInt8]?, unseen: inout UnseenFailures?
    ) throws(StoreError) -> GuessOutcome {
        try withStateLock(user) { (locked) throws(StoreError) -> GuessOutcome in
            let state = try locked.read()
            switch result {
            case .right:
                guard let current = try store.record(for: user), current == record else { return .revoked }
                try locked.write(count.forgiven(from: state))
                try withdraw(origin, user: user, now: now, markSeen: markSeen, unseen: &unseen)
                return .accepted
            case .wrong(let tpmFailures):
                var after = state
                if let tpmFailures {
                    after.failures = min(max(after.failures, tpmFailures), ThrottleState.maximumFailures)
                }
                if after != state { try locked.write(after) }
                // Typed again, it is answered without asking the TPM (RepeatedGuess).
                if let tag { remember(tag, user: user, now: now) }
                return .rejected(verdictAfter: verdict(after, now: now))
            case .limitReached:
                var after = state
                if settings.lockAfter > 0 { after.failures = max(after.failures, settings.lockAfter) }
                if after != state { try locked.write(after) }
                return .refused(.disabled)
            case .unanswered(let code):
                // The TPM may have judged and counted it: the count and the listing stay, whatever the answer was.
                throw .tpmUnavailable(code: code)
            case .unavailable(let code):
                try takeBack(count, from: state, locked: locked, user: user, now: now, origin: origin)
                throw .tpmUnavailable(code: code)
            }
        }
    }

    /// Undoes step 1 for an attempt that turned out to be no guess (see the other `takeBack`), taking the lock.
    private func takeBack(user: [UInt8], count: CountedGuess, now: Int64, origin: AttemptOrigin?) throws(StoreError) {
        try withStateLock(user) { (locked) throws(StoreError) in
            try takeBack(count, from: try locked.read(), locked: locked, user: user, now: now, origin: origin)
        }
    }

    /// Undoes step 1 for an attempt that turned out to be no guess, under the lock: the count taken back
    /// (CountedGuess.takenBack), its attempt-record entry withdrawn.
    private func takeBack(
        _ count: CountedGuess, from state: ThrottleState, locked: LockedThrottleState, user: [UInt8], now: Int64,
        origin: AttemptOrigin?
    ) throws(StoreError) {
        try locked.write(count.takenBack(from: state))
        var ignored: UnseenFailures? = nil
        try withdraw(origin, user: user, now: now, markSeen: false, unseen: &ignored)
    }

    /// The CPU time a check may need at most: as long as the module waits for the helper
    /// (HelperClient.moduleDeadlineMilliseconds, which is above this layer: HelperClientTests holds the two
    /// equal), so a check the caller's CPU limit allows is never cut short by it before the deadline would.
    public static let checkCPUSeconds: Int64 = 5

    /// Throws `cpuTimeLimit` when this process's RLIMIT_CPU (soft: SIGXCPU ends su or sudo there; the helper
    /// raises its soft limit to the hard one first) leaves less than `checkCPUSeconds` of CPU time: a check
    /// killed mid-hash would keep its count, a right pattern counted as wrong. Checked before anything is counted.
    static func requireTimeForCheck() throws(StoreError) {
        var left: Int64 = 0
        guard pattern_cpu_seconds_left(&left) == 1 else { return }
        if left < checkCPUSeconds { throw .cpuTimeLimit(secondsLeft: left) }
    }

    /// Takes this guess's entry out of the attempt record (others listed meanwhile stay), as on a match, and
    /// forgets a remembered wrong guess (a success was tried since).
    private func withdraw(
        _ origin: AttemptOrigin?, user: [UInt8], now: Int64, markSeen: Bool,
        unseen: inout UnseenFailures?
    ) throws(StoreError) {
        var attempts = try recordedAttempts(user: user)
        let hadTag = attempts.forgetWrongGuesses()
        guard let origin else {
            if hadTag { try throttle.replaceAttempts(attempts, for: user) }
            return
        }
        attempts.withdraw(origin.failure(at: max(now, 0)))
        unseen = attempts.unseenSummary
        if markSeen { attempts.unseen = 0 }
        try throttle.replaceAttempts(attempts, for: user)
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
    /// The same counting for a secret that is not the stored pattern: the helper's enroll checks the account
    /// password this way (PAM, which may take seconds, runs unlocked in step 2). No store record is involved,
    /// so there is nothing to revoke; the caller has decided the user may have a state file.
    public func countedAttempt(user: [UInt8], now: Int64, verify: () -> Bool) throws(StoreError) -> GuessOutcome {
        try ThrottleStore.requireRoomForRecord()
        try GuessGate.requireTimeForCheck()
        let first = try withStateLock(user) { (locked) throws(StoreError) -> FirstStep<CountedGuess> in
            let state = try locked.read(normalisedAt: now)
            let verdict = self.verdict(state, now: now)
            guard case .allowed = verdict else { return .answered(.refused(verdict)) }
            let count = CountedGuess(counting: state, at: now)
            try locked.write(count.counted)
            return .counted(count)
        }
        let count: CountedGuess
        switch first {
        case .answered(let outcome): return outcome
        case .counted(let counted): count = counted
        }
        guard verify() else { return .rejected(verdictAfter: verdict(count.counted, now: now)) }
        return try withStateLock(user) { (locked) throws(StoreError) -> GuessOutcome in
            try locked.write(count.forgiven(from: try locked.read()))
            return .accepted
        }
    }

    /// A last failure in the future is rewritten as `now` (bounded lock; no file is created).
    public func check(user: [UInt8], now: Int64) throws(StoreError) -> ThrottleVerdict {
        verdict(try throttle.currentState(for: user, now: now), now: now)
    }

    private func verdict(_ state: ThrottleState, now: Int64) -> ThrottleVerdict {
        ThrottlePolicy.verdict(state: state, now: now, settings: settings)
    }

    /// Runs `body` holding the user's state lock (bounded wait; the state file made when missing), released
    /// however `body` ends.
    private func withStateLock<Result>(
        _ user: [UInt8], _ body: (LockedThrottleState) throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
        guard var locked = try throttle.lock(user: user, create: true) else { throw .missingDirectory }
        defer { locked.close() }
        return try body(locked)
    }

    /// What step 1 came to: an answer with nothing hashed, or the guess counted (with what step 2 needs).
    private enum FirstStep<Counted> {
        case answered(GuessOutcome)
        case counted(Counted)
    }
}

/// One guess's failure, counted before the guess is checked: the state it was counted on and the state it
/// made. Taking it back leaves the failures other attempts counted meanwhile.
struct CountedGuess: Equatable {
    let before: ThrottleState
    let counted: ThrottleState

    /// `state` with one more failure (at most ThrottleState.maximumFailures), the last one now.
    init(counting state: ThrottleState, at now: Int64) {
        var failed = state
        failed.failures = state.failures < ThrottleState.maximumFailures ? state.failures + 1 : state.failures
        failed.lastFailure = max(now, 0)
        (before, counted) = (state, failed)
    }

    /// The right pattern: `current` without this failure; the reset to zero when nobody else wrote since.
    func forgiven(from current: ThrottleState) -> ThrottleState { uncounted(from: current, untouched: .zero) }

    /// No guess after all (no hash came out, the TPM unavailable): `current` without this failure; the state
    /// before it when nobody else wrote since.
    func takenBack(from current: ThrottleState) -> ThrottleState { uncounted(from: current, untouched: before) }

    private func uncounted(from current: ThrottleState, untouched: ThrottleState) -> ThrottleState {
        current == counted
            ? untouched : ThrottleState(failures: max(current.failures - 1, 0), lastFailure: current.lastFailure)
    }
}
