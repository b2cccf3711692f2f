import CPatternHelper
import CPatternSystem
import PatternCoreEmbedded
import PatternTPM

/// A user managing their own pattern through the helper (patternctl without root): status, set (change),
/// remove, enroll (a first pattern). What a direct caller cannot get around, because it is decided here, as
/// root, from the system's settings only:
/// - the current pattern (set, remove) is a guess through GuessGate: counted before the hash, throttled,
///   reset on success, the same state file sudo and login use;
/// - the account password (enroll) is checked by PAM as root, only when self_enroll is yes: for a first
///   pattern through GuessGate (recorded before PAM runs); for a forgotten one without the pattern's throttle;
/// - the new pattern obeys minlen and the strength rules (no --allow-weak for users) and is hashed at the
///   configured cost.
/// Typing the new pattern twice is patternctl's typo guard, not a rule: a direct caller sends it once.
struct SelfService {
    let options: PatternSettings
    /// HelperService's gate (its TPM check included, so a pattern held by the TPM opens a change too).
    let gate: GuessGate
    let now: () -> Int64
    /// Whether a new pattern put into the TPM counts against the user's EnrolmentRecord (not for root).
    let enrolmentsLimited: Bool

    /// `status`: the user's facts, also for a user without a pattern.
    func status(user: [UInt8]) throws(StoreError) -> HelperVerdict {
        let record = try gate.store.record(for: user)
        let state = try gate.throttle.state(for: user)
        return .status(
            UserStatus(
                setAt: record?.setAt, cost: record.flatMap { PatternHash.cost(ofHash: $0.hash) },
                failures: state.failures,
                verdict: ThrottlePolicy.verdict(state: state, now: now(), settings: options.throttle),
                enrolmentsRefused: try tooOften(user: user, inTPM: enrolsInTPM ?? false)))
    }

    /// `set`: the new pattern checked first (not counted), then the current one as a counted guess.
    func set(user: [UInt8], fields: [[UInt8]]) throws(StoreError) -> HelperVerdict {
        guard fields.count == 2 else { return .refused(.input) }
        let new: Pattern
        switch SelfService.newPattern(fields[1], minimum: minimum, rules: options.strength) {
        case .success(let pattern): new = pattern
        case .failure(let refusal): return refusal.verdict
        }
        guard let current = currentPattern(fields[0]) else { return .malformed(minimumLength: minimum) }
        guard let inTPM = enrolsInTPM else { return .tpmRefused(.absent) }
        // Before the guess: a refusal here counts nothing.
        if try tooOften(user: user, inTPM: inTPM) { return .tpmRefused(.tooOften) }
        let verdict = try guess(gate, user: user, current: current)
        guard verdict == .accepted else { return verdict }
        let stored = try save(new, user: user, inTPM: inTPM)
        if stored == .accepted {
            // A new pattern starts with a clean slate: the old one's failures are not told as the new one's.
            try gate.throttle.reset(user: user)
            HelperLog.notice(HelperLog.line("pattern changed by user ", user))
        }
        return stored
    }

    /// `remove`: the current pattern as a counted guess, then the line, then its TPM index.
    func remove(user: [UInt8], fields: [[UInt8]]) throws(StoreError) -> HelperVerdict {
        guard let field = fields.first, let current = currentPattern(field) else {
            return .malformed(minimumLength: minimum)
        }
        let verdict = try guess(gate, user: user, current: current)
        guard verdict == .accepted else { return verdict }
        let old = try gate.store.record(for: user)
        do {
            let indexLock = try SelfService.indexLock(for: old?.tpmRecord, store: gate.store)
            defer { indexLock?.release() }
            guard let old, try gate.store.removeIfUnchanged(old) else { return .notEnrolled }
            // The line first: from then on the pattern opens nothing, whatever the TPM does.
            if let index = old.tpmRecord { HelperTPMEnrolment.removeIndex(of: index, user: user, options: options) }
        }
        // After the index lock: its hold covers no wait for the state lock.
        try gate.throttle.reset(user: user)
        HelperLog.notice(HelperLog.line("pattern removed by user ", user))
        return .accepted
    }

    /// `enroll`: a new pattern after the account password (checked by PAM): a first pattern, or a new one for a
    /// person who forgot theirs. The password is the stronger secret, so it may replace the pattern; self_enroll
    /// = no turns both off. A first pattern's password is counted like a guess (GuessGate); a forgotten pattern's
    /// is not counted against the pattern (that would lock the pattern it replaces, and a locked pattern is the
    /// usual reason to come here): PAM's own delay and its modules (pam_faillock) limit password guesses, as
    /// for su.
    func enroll(user: [UInt8], fields: [[UInt8]]) throws(StoreError) -> HelperVerdict {
        guard fields.count == 2 else { return .refused(.input) }
        guard options.selfEnroll else { return .refused(.policy) }
        let forgotten = try gate.store.record(for: user)
        let new: Pattern
        switch SelfService.newPattern(fields[1], minimum: minimum, rules: options.strength) {
        case .success(let pattern): new = pattern
        case .failure(let refusal): return refusal.verdict
        }
        guard let inTPM = enrolsInTPM else { return .tpmRefused(.absent) }
        // Before the password: a refusal here counts nothing.
        if try tooOften(user: user, inTPM: inTPM) { return .tpmRefused(.tooOften) }
        if let forgotten { return try replace(forgotten, with: new, user: user, password: fields[0], inTPM: inTPM) }
        let outcome = try gate.countedAttempt(user: user, now: now()) { passwordMatches(user: user, fields[0]) }
        switch outcome {
        case .accepted: break
        case .rejected(let after):
            HelperLog.notice(HelperLog.line("wrong password for a first pattern for user ", user))
            return .wrong(after)
        case .refused(let verdict): return .locked(verdict)
        case .notEnrolled, .revoked: return .unavailable  // no store record is involved: cannot happen
        }
        // A set raced in meanwhile (root, or another enroll): keep it, do not overwrite.
        if try gate.store.record(for: user) != nil { return .refused(.enrolled) }
        let stored = try save(new, user: user, inTPM: inTPM)
        if stored == .accepted { HelperLog.notice(HelperLog.line("first pattern set by user ", user)) }
        return stored
    }

    /// `enroll` for a person who forgot their pattern: the password, then `new` in place of `forgotten` (only if
    /// the store still holds it), with a clean slate. The throttle neither refuses nor counts the password, and
    /// no pattern guess is made: "wrong" carries no tries left.
    func replace(
        _ forgotten: StoreRecord, with new: Pattern, user: [UInt8], password: [UInt8], inTPM: Bool
    ) throws(StoreError) -> HelperVerdict {
        guard passwordMatches(user: user, password) else {
            HelperLog.notice(HelperLog.line("wrong password for a forgotten pattern for user ", user))
            return .wrong(.allowed(freeAttemptsLeft: 0))
        }
        // Changed meanwhile (root, or the person's own change): that one stays.
        if try gate.store.record(for: user) != forgotten { return .refused(.enrolled) }
        let stored = try save(new, user: user, inTPM: inTPM)
        guard stored == .accepted else { return stored }
        // The forgotten pattern's failures and lock are not the new one's.
        try gate.throttle.reset(user: user)
        HelperLog.notice(HelperLog.line("forgotten pattern replaced after the password by user ", user))
        return stored
    }

    /// `password-reset`: the stack's password after a successful authentication at a locker (the module as the
    /// person, through its `reset_on_success` line). The caller's word that the stack succeeded is worth
    /// nothing (any program the person runs can call this), so the password is checked here, by PAM as root,
    /// and only a right one clears the failures. Looked at first, without PAM: a clean slate (the usual case,
    /// a pattern success reset it already) or a disabled pattern costs no password check. A wrong password is
    /// not counted against the pattern and changes nothing: as for a forgotten pattern, PAM's own delay and
    /// modules limit password guesses, and a run is no faster than unix_chkpwd's (an exec, a PAM stack, a hash).
    func passwordReset(user: [UInt8], fields: [[UInt8]]) throws(StoreError) -> HelperVerdict {
        guard let password = fields.first, fields.count == 1 else { return .refused(.input) }
        switch try PasswordReset.pending(user: user, throttle: gate.throttle, settings: options.throttle) {
        case .nothingToReset: return .accepted
        case .disabled: return .locked(.disabled)
        case .cleared: break
        }
        guard !password.isEmpty, passwordMatches(user: user, password) else {
            HelperLog.notice(HelperLog.line("wrong password for a reset of the pattern's failures for user ", user))
            return .wrong(try gate.check(user: user, now: now()))
        }
        switch try PasswordReset.clear(user: user, throttle: gate.throttle, settings: options.throttle) {
        case .nothingToReset: return .accepted
        case .disabled: return .locked(.disabled)
        case .cleared(let failures):
            HelperLog.notice(
                HelperLog.line("pattern failures (\(failures)) cleared after the password of user ", user))
            return .accepted
        }
    }

    var minimum: Int { Pattern.clampedMinimumLength(options.minimumLength) }

    /// Whether a new pattern for `user` would go into the TPM more often than EnrolmentRecord allows (root's
    /// never does). Only looks: `save` counts it.
    func tooOften(user: [UInt8], inTPM: Bool) throws(StoreError) -> Bool {
        guard inTPM && enrolmentsLimited else { return false }
        return !(try gate.throttle.enrolments(for: user).allows(at: now()))
    }

    /// Whether a new pattern goes into the TPM (`tpm` in the system's configuration, and whether the TPM that
    /// tpm_tcti names is there); nil when `tpm = yes` finds none (refused before anything is counted).
    var enrolsInTPM: Bool? { options.tpmMode.enrolsInTPM(present: TPMMode.isPresent(tcti: options.tpmTCTI)) }

    /// Stores `new` as the user's pattern: in the TPM, or as a yescrypt hash at the system's cost (an index the
    /// old record had is deleted after the line is replaced).
    func save(_ new: Pattern, user: [UInt8], inTPM: Bool) throws(StoreError) -> HelperVerdict {
        if inTPM {
            // Counted before the index is defined (a killed or failed enrolment counts too), and only one of
            // two racing for the last one goes on.
            if enrolmentsLimited, try !gate.throttle.recordEnrolment(for: user, now: now()) {
                return .tpmRefused(.tooOften)
            }
            return HelperTPMEnrolment.enroll(new, user: user, options: options, now: now())
        }
        let old = try gate.store.record(for: user)?.tpmRecord
        let indexLock = try SelfService.indexLock(for: old, store: gate.store)
        defer { indexLock?.release() }
        try gate.store.save(
            StoreRecord(user: user, hash: try newHash(new), setAt: now()))
        if let old { HelperTPMEnrolment.removeIndex(of: old, user: user, options: options) }
        return .accepted
    }

    /// When a line naming a TPM index is replaced or removed, the TPM index lock (shared: removals hold up only
    /// an enrolment or the sweep) from before the line changes until the index is deleted: held as real uid
    /// root, so the caller cannot kill the helper in between and leave an index no line names, and under the
    /// hold's watchdog (TPMIndexHold). nil when there is no index to delete.
    static func indexLock(for old: TPMRecord?, store: PatternStore) throws(StoreError) -> TPMIndexHold? {
        guard old != nil else { return nil }
        return try TPMIndexHold(store: store, exclusive: false)
    }

    /// The new pattern's hash at the system's cost; a hash that fails is answered like an unusable store.
    func newHash(_ pattern: Pattern) throws(StoreError) -> [UInt8] {
        do throws(HashError) { return try PatternHash.make(for: pattern, cost: options.cost) } catch {
            throw .hash(error)
        }
    }

    /// The current pattern as sent (canonical digits); nil when it is not a pattern at all (not counted).
    func currentPattern(_ field: [UInt8]) -> Pattern? {
        // Any length the grid allows: a pattern set under an older, shorter minlen must still open the change.
        try? Pattern.parse(field, layout: .phone, minimumLength: Pattern.minimumLengthRange.lowerBound)
    }

    /// `field` as a new pattern under minlen `minimum` and the strength rules (nothing counted): for a user's own
    /// new pattern and root's TPM enrolment alike, so a pattern held by the TPM is never weaker than a hashed one.
    static func newPattern(
        _ field: [UInt8], minimum: Int, rules: StrengthRules
    ) -> Result<Pattern, NewPatternRefusal> {
        let pattern: Pattern
        do throws(PatternError) {
            pattern = try Pattern.parse(field, layout: .phone, minimumLength: minimum)
        } catch {
            return .failure(NewPatternRefusal(verdict: .malformed(minimumLength: minimum)))
        }
        if pattern.weakness(minimumLength: minimum, rules: rules) != nil {
            return .failure(NewPatternRefusal(verdict: .weak))
        }
        return .success(pattern)
    }

    /// The current pattern as a counted guess.
    func guess(_ gate: GuessGate, user: [UInt8], current: Pattern) throws(StoreError) -> HelperVerdict {
        let outcome = try gate.attempt(user: user, pattern: current, now: now())
        return HelperVerdict(outcome, user: user, wrongText: "wrong current pattern for user ")
    }

    /// PAM service "patternctl" for `user` with `password`; the copies handed to C are wiped afterwards.
    func passwordMatches(user: [UInt8], _ password: [UInt8]) -> Bool {
        var name = user.map { CChar(bitPattern: $0) } + [0]
        var secret = password.map { CChar(bitPattern: $0) } + [0]
        defer {
            secret.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) }
            name.removeAll()
        }
        let code = name.withUnsafeBufferPointer { namePointer in
            secret.withUnsafeBufferPointer { secretPointer in
                pattern_helper_check_password(namePointer.baseAddress, secretPointer.baseAddress)
            }
        }
        return code == 0
    }
}

/// Why a new pattern was refused, as the verdict to send (a typed error for Result in Embedded Swift).
struct NewPatternRefusal: Error {
    let verdict: HelperVerdict
}
