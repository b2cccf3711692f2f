import PatternCoreEmbedded
import PatternTPM

/// The helper's one dispatch: every operation, on the store and throttle named by the system's settings (a
/// user's own status, set, remove and enroll are SelfService's). `verify` goes through GuessGate, the module's
/// own gate: same state files and schedule, the failure recorded and fsynced before the hash, so a guess
/// through the helper counts exactly like one through sudo or login.
struct HelperService {
    let options: PatternSettings
    let now: () -> Int64
    /// Whether a new pattern put into the TPM counts against the user's EnrolmentRecord: yes unless the
    /// caller is root.
    var enrolmentsLimited = true

    /// Where a guess through `verify` came from, as its caller says (the module: its PAM service and tty). Only
    /// written to the attempt record, cut and made printable there (AttemptRecord.field); nothing decides on it.
    /// `verify`'s fields after the pattern: service and tty, or none (both then unknown).
    static func origin(_ fields: [[UInt8]]) -> AttemptOrigin {
        guard fields.count == 3 else { return AttemptOrigin(service: [], tty: [], remoteHost: []) }
        return AttemptOrigin(service: fields[1], tty: fields[2], remoteHost: [])
    }

    func serve(_ operation: HelperOperation, user: [UInt8], fields: [[UInt8]]) -> HelperVerdict {
        let store = PatternStore(path: options.storePath)
        var gate = GuessGate(
            store: store, throttle: ThrottleStore(directory: options.stateDirectory),
            settings: options.throttle)
        // Patterns held by the TPM: the helper is the only process that talks to it, through the TPM the
        // system's configuration names (tpm_tcti; /dev/tpmrm0 by default).
        gate.tpmCheck = TPMGuessCheck.make(tcti: String(decoding: options.tpmTCTI, as: UTF8.self), store: store)
        do throws(StoreError) {
            // The dummy hash hides from a caller whether a user has a pattern; users may know that of themselves
            // (status says it), so their own operations skip it.
            var ownGate = gate
            ownGate.dummyHashCost = nil
            let own = SelfService(options: options, gate: ownGate, now: now, enrolmentsLimited: enrolmentsLimited)
            switch operation {
            case .status: return try own.status(user: user)
            case .set: return try own.set(user: user, fields: fields)
            case .remove: return try own.remove(user: user, fields: fields)
            case .enroll: return try own.enroll(user: user, fields: fields)
            case .passwordReset: return try own.passwordReset(user: user, fields: fields)
            case .check, .authenticate:  // authenticate's first half (HelperMain.authenticate serves the guess)
                guard try store.boundRecord(for: user) != nil else { return .notEnrolled }
                let verdict = try gate.check(user: user, now: now())
                if case .allowed(let left) = verdict { return .allowed(freeAttemptsLeft: left) }
                return .locked(verdict)
            case .verify:
                guard let typed = fields.first else { return .refused(.input) }
                let minimum = Pattern.clampedMinimumLength(options.minimumLength)
                // The caller maps keys to dots itself (layout is presentation); the minimum length is policy.
                guard let pattern = try? Pattern.parse(typed, layout: .phone, minimumLength: minimum) else {
                    return .malformed(minimumLength: minimum)
                }
                // Listed in the user's attempt record like any failure, under the program and tty the caller
                // names. A success here ends the run of failures as one anywhere does: the next notice (at su or
                // login) counts from the last success, whichever program it was at.
                var unseen: UnseenFailures? = nil
                let outcome = try gate.attempt(
                    user: user, pattern: pattern, now: now(), origin: HelperService.origin(fields),
                    markSeen: true, unseen: &unseen)
                return HelperVerdict(outcome, user: user, wrongText: "wrong pattern for user ")
            case .tpmEnroll:
                guard let typed = fields.first else { return .refused(.input) }
                return HelperTPMEnrolment.enroll(user: user, typed: typed, options: options, now: now())
            case .tpmRemove:
                return HelperTPMEnrolment.remove(user: user, options: options)
            case .tpmPrune:
                return HelperTPMEnrolment.prune(options: options)
            }
        } catch {
            if case .tpmUnavailable(let code) = error {
                HelperLog.notice(HelperLog.line(HelperService.tpmCheckProblem(code), user))
                return .unavailable
            }
            HelperLog.critical("pattern store or state unusable: \(error.message)")
            return .unavailable
        }
    }

    /// The syslog line's start for a TPM check that gave no verdict: the deadline (a TPM that is there but slow)
    /// named as such, anything else with its code and tpm2-tss's description.
    static func tpmCheckProblem(_ code: UInt32) -> String {
        let deadline =
            "the TPM answered too slowly (the check's deadline, \(TPMLockBounds.checkMilliseconds) ms, passed"
        if code == TPMFailure.unanswered {
            return "TPM check: the guess went out and no answer came back (the check's deadline, "
                + "\(TPMLockBounds.checkMilliseconds) ms, passed, or the connection broke): it stays counted, for user "
        }
        if code == TPMFailure.tooSlow { return "TPM check: \(deadline); nothing counted) for user " }
        let failure = TPMFailure(code: code)
        return "TPM unavailable (\(failure.hexCode): \(failure.description); nothing counted) for user "
    }
}
