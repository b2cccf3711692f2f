import CPatternSystem
import PatternCoreEmbedded

/// Where the store is read and a guess is judged: in this process when the module runs as root (sudo, su,
/// login), or by the setuid pam_pattern_helper when it does not (screen lockers run PAM as the user and cannot
/// read the root-only store). Both give the same answers, so Authenticator has one flow for both.
enum GuessService {
    case inProcess(store: PatternStore, gate: GuessGate)
    /// The helper obeys the system's settings only; the module's store=, state=, deny=, unlock_time=,
    /// lock_after= and minlen= do not reach it. After an "allowed" check the same helper run waits for the guess
    /// (`session`, HelperOperation.authenticate): one exec per authentication. `finish` ends it if no guess came.
    case helper(HelperClient, session: HelperSession?)

    /// In-process for root, the helper otherwise.
    static func forCurrentProcess(options: PatternSettings) -> GuessService {
        if geteuid() != 0 {
            return .helper(
                HelperClient(deadlineMilliseconds: HelperClient.moduleDeadlineMilliseconds), session: nil)
        }
        let store = PatternStore(path: options.storePath)
        let gate = GuessGate(
            store: store, throttle: ThrottleStore(directory: options.stateDirectory),
            settings: options.throttle)
        return .inProcess(store: store, gate: gate)
    }

    /// Before prompting: not enrolled, or the throttle's verdict now.
    enum Enrollment {
        case notEnrolled
        case enrolled(ThrottleVerdict)
    }

    /// Why the service could not answer; the module fails closed (PAM_AUTHINFO_UNAVAIL).
    enum Failure: Error {
        case store(StoreError)
        case helper(HelperFailure)
    }

    /// The one place the module decides where a user's guess is judged: reading the record in process (root),
    /// a pattern held by the TPM sends this service to the helper from here on, for the check and the guess
    /// alike (only the helper links the TPM stack: sudo and login never map libtss2).
    mutating func enrollment(user: [UInt8], now: Int64) throws(Failure) -> Enrollment {
        switch self {
        case .inProcess(let store, let gate):
            do throws(StoreError) {
                guard let record = try store.boundRecord(for: user) else { return .notEnrolled }
                if record.tpmRecord == nil { return .enrolled(try gate.check(user: user, now: now)) }
            } catch { throw .store(error) }
            let client = HelperClient(deadlineMilliseconds: HelperClient.moduleDeadlineMilliseconds)
            self = .helper(client, session: nil)
            return try enrollment(user: user, now: now)
        case .helper(let client, let open):
            // One check per authentication; a session left open by an earlier one would be ended here.
            open?.close()
            self = .helper(client, session: nil)
            switch client.startAuthentication(user: user) {
            case .allowed(let left, let session):
                self = .helper(client, session: session)
                return .enrolled(.allowed(freeAttemptsLeft: left))
            case .answered(let answer): return try GuessService.enrollment(answer)
            case .unsupported: return try GuessService.enrollment(client.call(.check, user: user, fields: []))
            }
        }
    }

    /// Ends a helper run still waiting for a guess (none was sent: an empty or malformed answer, a failed
    /// conversation). Called once the authentication is over, whatever its outcome.
    mutating func finish() {
        guard case .helper(let client, let session?) = self else { return }
        self = .helper(client, session: nil)
        session.close()
    }

    /// The helper's answer to a check.
    static func enrollment(_ answer: Result<HelperVerdict, HelperFailure>) throws(Failure) -> Enrollment {
        switch answer {
        case .failure(let failure): throw .helper(failure)
        case .success(.notEnrolled): return .notEnrolled
        case .success(.allowed(let left)): return .enrolled(.allowed(freeAttemptsLeft: left))
        case .success(.locked(let verdict)): return .enrolled(verdict)
        case .success(let other): throw .helper(.unexpectedAnswer(exitStatus: other.exit.rawValue))
        }
    }

    /// `origin`, `markSeen`, `unseen`: the attempt record (GuessGate.attempt). The helper keeps the record
    /// itself and tells no unseen failures, so `unseen` stays nil there.
    mutating func attempt(
        user: [UInt8], pattern: Pattern, now: Int64, origin: AttemptOrigin, markSeen: Bool,
        unseen: inout UnseenFailures?
    ) throws(Failure) -> GuessAnswer {
        unseen = nil
        switch self {
        case .inProcess(_, let gate):
            do throws(StoreError) {
                return .judged(
                    try gate.attempt(
                        user: user, pattern: pattern, now: now, origin: origin,
                        markSeen: markSeen, unseen: &unseen))
            } catch { throw .store(error) }
        case .helper(let client, let session):
            self = .helper(client, session: nil)
            var digits = pattern.digits
            defer { digits.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
            // The fields are built at each call, not kept: once a call returns, `digits` is the only holder of its
            // bytes again, so the defer above zeroes them in place.
            let answer: Result<HelperVerdict, HelperFailure>
            switch session?.verify(fields: [digits, origin.service, origin.tty]) {
            case .answered(let given): answer = given
            // No session, or its helper stopped waiting before the guess (HelperRequest.guessWaitSeconds).
            case .notSeen, nil: answer = client.call(.verify, user: user, fields: [digits, origin.service, origin.tty])
            }
            switch answer {
            case .failure(let failure): throw .helper(failure)
            case .success(let verdict):
                guard let guess = verdict.guess else {
                    throw .helper(.unexpectedAnswer(exitStatus: verdict.exit.rawValue))
                }
                return guess
            }
        }
    }
}
