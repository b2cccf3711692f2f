/// The protocol between pam_pattern_helper (setuid root) and its callers: the module when it does not run as
/// root, and patternctl for self-service. Both sides use these types, so encoder and decoder cannot drift.
/// man/pam_pattern_helper.8 documents it for people.
///
///     pam_pattern_helper OPERATION USER        (argv: exactly these two arguments)
///     stdin:  the operation's fields, each ended by one NUL byte, then end of file
///     stdout: one verdict line, e.g. "wrong allowed 3\n" (`authenticate`: the check's line, then the guess's)
///     exit:   HelperExit (the kind of the verdict; the line carries the details)
///
/// Nothing on the command line or stdin changes policy: paths, throttle and minimum length come from the
/// system configuration only. USER must be the caller's real uid's name (root may name anyone).
public enum HelperOperation: Equatable, Sendable, NamedByWord {
    /// Is USER enrolled, and may they guess now? No input. Verdicts: allowed, locked, notEnrolled.
    case check
    /// One guess: the pattern as canonical digits ('1'...'9', the grid's phone numbering), then, optionally, the
    /// caller's PAM service and terminal (what the person used, for the attempt record only: each cut and made
    /// printable there, never used for any decision; a module from before they were sent sends one field). Counted exactly as the module counts it (recorded before
    /// the hash). Verdicts: accepted, wrong, locked, notEnrolled, malformed.
    case verify
    /// `check`, then, when the answer is "allowed N", one `verify` in the same run: the module's one call per
    /// authentication through the helper (one exec, not two). The check's line is written at once, before any
    /// input is read; then the helper waits at most `HelperRequest.guessWaitSeconds` for verify's fields (the
    /// person is being asked meanwhile), holding no file and no lock. Input, then end of file: served as `verify`,
    /// its line second and its exit status. End of file with no input: no guess, exit with the check's status.
    /// No input in time: "expired" (nothing read, nothing counted; the caller may send the guess as a `verify`).
    case authenticate
    /// USER's own facts for `patternctl status`. No input. Verdict: status (also for a user without a pattern:
    /// their failures count wrong passwords given for a first pattern).
    case status
    /// Change USER's pattern: two fields, the current pattern and the new one (canonical digits). The new one
    /// is checked first (minlen and strength, not counted: malformed, weak); then the current one is a guess,
    /// counted like a login (wrong, locked); then the new one is hashed at the system's cost and stored, and the
    /// failures are reset. Verdicts: accepted, malformed, weak, wrong, locked, notEnrolled.
    case set
    /// Remove USER's pattern: one field, the current pattern, a counted guess. Verdicts: accepted, malformed,
    /// wrong, locked, notEnrolled.
    case remove
    /// A new pattern for USER after the account password: a first one, or one in place of a forgotten one. Two
    /// fields, USER's account password and the new pattern. Refused when self_enroll is no (refused policy). The
    /// new pattern is checked first (not counted); then the password is checked by PAM service "patternctl", run
    /// by the helper itself as root: for a first pattern as a guess through the same throttle (recorded before
    /// PAM runs, reset on success); for a forgotten one not counted by the pattern's throttle, and the new
    /// pattern replaces the old one unless it changed meanwhile (refused enrolled).
    /// Verdicts: accepted, malformed, weak, wrong, locked, refused.
    case enroll
    /// After a successful authentication by the password (the module's `reset_on_success` line, not root): one
    /// field, USER's account password as the stack holds it (PAM_AUTHTOK). USER's pattern failures are cleared
    /// only when the helper itself finds the password right (PAM service "patternctl", as `enroll` checks it),
    /// never on the caller's word that the stack succeeded. Nothing counted to clear: "accepted" at once, no
    /// PAM run. A disabled pattern (lock_after) is kept: "locked disabled", no PAM run. A wrong password
    /// changes nothing and is not counted against the pattern (as `enroll`'s for a forgotten pattern: PAM's
    /// delay limits it): "wrong" with the throttle's verdict now. Verdicts: accepted, wrong, locked.
    case passwordReset
    /// Root only: enrol USER's pattern (one field, as for verify) in the TPM: a new PIN Fail index whose limit is
    /// lock_after, the store line becoming a "$tpm2$" record (an earlier index of USER's is deleted after).
    /// Verdicts: accepted (done), malformed, unavailable (no TPM, NV full, ...: nothing changed).
    case tpmEnroll
    /// Root only: delete USER's store line, then its TPM index. Verdicts: accepted, not-enrolled (no TPM
    /// record), unavailable.
    case tpmRemove
    /// Root only (USER is the caller, root): delete the NV indexes in pam_pattern's handle range that no line
    /// of the store names (left by a killed enrolment). Never an index a line names, never one outside the
    /// range, never while an enrolment is between defining its index and writing its line. No input.
    /// Verdicts: pruned N, tpm-refused, unavailable.
    case tpmPrune

    /// Operations only root may call (the store changes; self-service goes through patternctl's own checks).
    public var isRootOnly: Bool {
        switch self {
        case .check, .verify, .authenticate, .status, .set, .remove, .enroll, .passwordReset: return false
        case .tpmEnroll, .tpmRemove, .tpmPrune: return true
        }
    }

    /// The argv word.
    public var word: [UInt8] {
        switch self {
        case .check: return Array("check".utf8)
        case .verify: return Array("verify".utf8)
        case .authenticate: return Array("authenticate".utf8)
        case .status: return Array("status".utf8)
        case .set: return Array("set".utf8)
        case .remove: return Array("remove".utf8)
        case .enroll: return Array("enroll".utf8)
        case .passwordReset: return Array("password-reset".utf8)
        case .tpmEnroll: return Array("tpm-enroll".utf8)
        case .tpmRemove: return Array("tpm-remove".utf8)
        case .tpmPrune: return Array("tpm-prune".utf8)
        }
    }

    /// How many NUL-ended fields the operation reads from stdin.
    public var fieldCount: Int { fieldLimits.count }

    /// Every shape of input the operation takes, the full one first: `verify` also takes the pattern alone.
    /// `authenticate` reads verify's, after its check.
    public var acceptedFieldLimits: [[Int]] {
        if self == .authenticate { return HelperOperation.verify.acceptedFieldLimits }
        var shapes = [fieldLimits]
        if self == .verify { shapes.append([HelperRequest.maximumFieldBytes]) }
        return shapes
    }

    /// The longest each field may be: patterns as typed (Pattern.maximumInputBytes), a password up to
    /// `maximumPasswordBytes`.
    public var fieldLimits: [Int] {
        // Built, not returned as array literals from the switch: Embedded Swift at -Osize returned another
        // case's literal (verify got enroll's limits; seen with the helper, fine in normal Swift).
        let count: Int
        switch self {
        case .check, .status, .tpmRemove, .tpmPrune: count = 0
        case .remove, .tpmEnroll, .passwordReset: count = 1
        case .set, .enroll: count = 2
        case .verify, .authenticate: count = 3
        }
        var limits = [Int](repeating: HelperRequest.maximumFieldBytes, count: count)
        if self == .enroll || self == .passwordReset { limits[0] = HelperRequest.maximumPasswordBytes }
        if self == .verify || self == .authenticate {
            limits[1] = AttemptRecord.maximumFieldBytes
            limits[2] = AttemptRecord.maximumFieldBytes
        }
        return limits
    }
}

/// The helper's exit status: fixed numbers, part of the protocol.
public enum HelperExit: Int32, Equatable, Sendable {
    /// verify: the right pattern (failures reset). check: enrolled and allowed to guess.
    case success = 0
    /// verify: a wrong pattern, counted before the hash.
    case wrongPattern = 1
    /// The throttle refuses (wait running, or disabled): nothing hashed, nothing counted.
    case locked = 2
    /// USER has no pattern.
    case notEnrolled = 3
    /// The field is not a pattern under the system's rules (e.g. shorter than minlen): not counted.
    case malformed = 4
    /// The store, throttle state or configuration is unusable (details in the helper's syslog lines).
    case unavailable = 5
    /// The call itself is refused: wrong argv, unknown operation, USER is not the caller, a tty on stdin,
    /// missing, extra or oversized input. Nothing read, nothing counted.
    case refused = 6
    /// authenticate: no guess came within HelperRequest.guessWaitSeconds after the check; nothing counted.
    case expired = 7
}

/// Why a call was refused (the word after "refused" on the verdict line).
public enum HelperRefusal: Equatable, Sendable, NamedByWord {
    /// argv is not exactly OPERATION USER, or the operation is unknown.
    case usage
    /// USER is not the caller's real user (and the caller is not root), or not a valid user name.
    case user
    /// stdin is a terminal.
    case tty
    /// stdin is not exactly the operation's NUL-ended fields: missing, unterminated, extra or oversized.
    case input
    /// enroll while the configuration says self_enroll = no.
    case policy
    /// enroll for a user who got a pattern meanwhile (a first one), or whose forgotten one changed meanwhile.
    case enrolled

    /// The call itself was not served (usage, user, tty, input); policy and enrolled answer an enroll.
    public var refusesTheCall: Bool { self != .policy && self != .enrolled }

    public var word: [UInt8] {
        switch self {
        case .usage: return Array("usage".utf8)
        case .user: return Array("user".utf8)
        case .tty: return Array("tty".utf8)
        case .input: return Array("input".utf8)
        case .policy: return Array("policy".utf8)
        case .enrolled: return Array("enrolled".utf8)
        }
    }
}

/// Why the TPM would not take (or give up) a pattern, as the helper tells its caller.
public enum TPMProblem: Equatable, Sendable, NamedByWord {
    /// No TPM: `tpm = yes` and none present, or it cannot be opened.
    case absent
    /// The TPM's owner hierarchy has a password: enrolment needs owner authorization, and pam_pattern keeps
    /// no password.
    case ownerAuthorization
    /// No NV space or no free handle left for another index.
    case full
    /// Any other TPM error (the helper's syslog line names it).
    case failed
    /// The TPM is there but did not answer one step within its conversation's deadline (the helper's syslog
    /// line names the step); nothing was kept.
    case tooSlow
    /// The sweep waited in vain for an enrolment into the TPM to end (it holds the TPM index lock).
    case busy
    /// The user has put a new pattern into the TPM themselves as often as EnrolmentRecord allows in the last
    /// hour (root is not limited); refused before anything is counted or sent to the TPM.
    case tooOften

    public var word: [UInt8] {
        switch self {
        case .absent: return Array("no-tpm".utf8)
        case .ownerAuthorization: return Array("owner-auth".utf8)
        case .full: return Array("nv-full".utf8)
        case .failed: return Array("error".utf8)
        case .tooSlow: return Array("too-slow".utf8)
        case .busy: return Array("busy".utf8)
        case .tooOften: return Array("too-often".utf8)
        }
    }

}

/// A user's own facts, as `status` reports them.
public struct UserStatus: Equatable, Sendable {
    /// When the pattern was set (seconds since the epoch); nil without a pattern.
    public var setAt: Int64?
    /// Its yescrypt cost; nil without a pattern.
    public var cost: Int?
    /// Failures counted since the last success or reset.
    public var failures: Int
    /// What the throttle says now.
    public var verdict: ThrottleVerdict
    /// A new pattern of the user's own would go into the TPM more often than EnrolmentRecord allows: patternctl
    /// says so before it asks for (and counts) the current pattern or the password.
    public var enrolmentsRefused: Bool

    public init(setAt: Int64?, cost: Int?, failures: Int, verdict: ThrottleVerdict, enrolmentsRefused: Bool = false) {
        self.setAt = setAt
        self.cost = cost
        self.failures = failures
        self.verdict = verdict
        self.enrolmentsRefused = enrolmentsRefused
    }
}

/// The helper's answer: the exit status plus one line on stdout. The module turns it into the same AuthOutcome
/// as the in-process path, so the person sees the same messages either way.
public enum HelperVerdict: Equatable, Sendable {
    /// "accepted": verify matched.
    case accepted
    /// "allowed N": check, enrolled, N free tries before a wait.
    case allowed(freeAttemptsLeft: Int)
    /// "wrong allowed N" | "wrong wait S" | "wrong disabled": counted; the verdict for the next try.
    case wrong(ThrottleVerdict)
    /// "locked wait S" | "locked disabled".
    case locked(ThrottleVerdict)
    /// "not-enrolled".
    case notEnrolled
    /// "malformed minlen M": the system's minimum length is M.
    case malformed(minimumLength: Int)
    /// "weak": set/enroll: the new pattern is too easy to guess (not counted).
    case weak
    /// "status SETAT COST FAILURES allowed N|wait S|disabled [too-often]": the user's own facts (too-often: their
    /// own enrolments into the TPM are refused now, UserStatus.enrolmentsRefused); SETAT and COST are "-"
    /// when the user has no pattern.
    case status(UserStatus)
    /// "unavailable".
    case unavailable
    /// "tpm-refused no-tpm|owner-auth|nv-full|error": a pattern could not be put into (or taken out of) the TPM;
    /// nothing changed.
    case tpmRefused(TPMProblem)
    /// "pruned N": tpm-prune deleted N orphaned indexes.
    case pruned(Int)
    /// "refused usage|user|tty|input".
    case refused(HelperRefusal)
    /// "expired": authenticate waited for the guess in vain; it never saw one.
    case expired

    /// The exit status that goes with the line.
    public var exit: HelperExit {
        switch self {
        case .accepted, .allowed: return .success
        case .wrong: return .wrongPattern
        case .locked: return .locked
        case .notEnrolled: return .notEnrolled
        case .malformed, .weak: return .malformed
        case .status, .pruned: return .success
        case .unavailable, .tpmRefused: return .unavailable
        case .refused: return .refused
        case .expired: return .expired
        }
    }

    /// The verdict line, newline included.
    public var line: [UInt8] {
        var out: [UInt8] = []
        switch self {
        case .accepted: out.append(contentsOf: "accepted".utf8)
        case .allowed(let left):
            out.append(contentsOf: "allowed ".utf8)
            out.append(contentsOf: HelperVerdict.decimal(Int64(left)))
        case .wrong(let after):
            out.append(contentsOf: "wrong ".utf8)
            out.append(contentsOf: HelperVerdict.encode(after))
        case .locked(let verdict):
            out.append(contentsOf: "locked ".utf8)
            out.append(contentsOf: HelperVerdict.encode(verdict))
        case .notEnrolled: out.append(contentsOf: "not-enrolled".utf8)
        case .malformed(let minimum):
            out.append(contentsOf: "malformed minlen ".utf8)
            out.append(contentsOf: HelperVerdict.decimal(Int64(minimum)))
        case .weak: out.append(contentsOf: "weak".utf8)
        case .status(let facts):
            out.append(contentsOf: "status ".utf8)
            if let setAt = facts.setAt {
                out.append(contentsOf: HelperVerdict.decimal(setAt))
            } else {
                out.append(0x2D)
            }
            out.append(0x20)
            if let cost = facts.cost {
                out.append(contentsOf: HelperVerdict.decimal(Int64(cost)))
            } else {
                out.append(0x2D)
            }
            out.append(0x20)
            out.append(contentsOf: HelperVerdict.decimal(Int64(facts.failures)))
            out.append(0x20)
            out.append(contentsOf: HelperVerdict.encode(facts.verdict))
            if facts.enrolmentsRefused { out.append(contentsOf: " too-often".utf8) }
        case .unavailable: out.append(contentsOf: "unavailable".utf8)
        case .tpmRefused(let problem):
            out.append(contentsOf: "tpm-refused ".utf8)
            out.append(contentsOf: problem.word)
        case .pruned(let count):
            out.append(contentsOf: "pruned ".utf8)
            out.append(contentsOf: HelperVerdict.decimal(Int64(count)))
        case .refused(let why):
            out.append(contentsOf: "refused ".utf8)
            out.append(contentsOf: why.word)
        case .expired: out.append(contentsOf: "expired".utf8)
        }
        out.append(0x0A)
        return out
    }

    /// The longest verdict line a caller needs to read.
    public static let maximumLineBytes = 64

    /// Decodes what a caller got: exit status and everything read from stdout. nil unless the output is exactly
    /// one well-formed line whose kind matches the exit status (a caller treats nil as "unavailable").
    public static func decode(exitStatus: Int32, output: [UInt8]) -> HelperVerdict? {
        guard output.count <= maximumLineBytes, output.last == 0x0A else { return nil }
        let body = output.dropLast()
        guard !body.contains(0x0A) else { return nil }
        let words = body.split(separator: 0x20, omittingEmptySubsequences: false)
        guard let first = words.first else { return nil }
        let rest = Array(words.dropFirst())
        let verdict: HelperVerdict
        if first.elementsEqual("accepted".utf8) && rest.isEmpty {
            verdict = .accepted
        } else if first.elementsEqual("allowed".utf8) && rest.count == 1, let n = number(rest[0]) {
            verdict = .allowed(freeAttemptsLeft: Int(n))
        } else if first.elementsEqual("wrong".utf8), let after = throttle(rest) {
            verdict = .wrong(after)
        } else if first.elementsEqual("locked".utf8), let now = throttle(rest) {
            // "locked allowed N" is a contradiction.
            if case .allowed = now { return nil }
            verdict = .locked(now)
        } else if first.elementsEqual("not-enrolled".utf8) && rest.isEmpty {
            verdict = .notEnrolled
        } else if first.elementsEqual("malformed".utf8) && rest.count == 2 && rest[0].elementsEqual("minlen".utf8),
            let m = number(rest[1]), Pattern.minimumLengthRange.contains(Int(m))
        {
            verdict = .malformed(minimumLength: Int(m))
        } else if first.elementsEqual("weak".utf8) && rest.isEmpty {
            verdict = .weak
        } else if first.elementsEqual("status".utf8) && rest.count >= 4, let failures = number(rest[2]),
            case let refused = rest[rest.count - 1].elementsEqual("too-often".utf8),
            let now = throttle(Array(rest[3..<(rest.count - (refused ? 1 : 0))]))
        {
            // Both "-" (no pattern), or a time and a cost that is a number or "-" (the TPM holds the pattern).
            let noCost = rest[1].elementsEqual("-".utf8)
            let none = rest[0].elementsEqual("-".utf8) && noCost
            let setAt = number(rest[0])
            let cost = number(rest[1])
            guard none || (setAt != nil && (cost != nil || noCost)) else { return nil }
            verdict = .status(
                UserStatus(
                    setAt: setAt, cost: cost.map { Int($0) }, failures: Int(failures), verdict: now,
                    enrolmentsRefused: refused))
        } else if first.elementsEqual("unavailable".utf8) && rest.isEmpty {
            verdict = .unavailable
        } else if first.elementsEqual("tpm-refused".utf8) && rest.count == 1, let problem = TPMProblem(word: rest[0]) {
            verdict = .tpmRefused(problem)
        } else if first.elementsEqual("pruned".utf8) && rest.count == 1, let n = number(rest[0]) {
            verdict = .pruned(Int(n))
        } else if first.elementsEqual("refused".utf8) && rest.count == 1, let why = HelperRefusal(word: rest[0]) {
            verdict = .refused(why)
        } else if first.elementsEqual("expired".utf8) && rest.isEmpty {
            verdict = .expired
        } else {
            return nil
        }
        return verdict.exit.rawValue == exitStatus ? verdict : nil
    }

    static func encode(_ verdict: ThrottleVerdict) -> [UInt8] {
        switch verdict {
        case .allowed(let left): return Array("allowed ".utf8) + decimal(Int64(left))
        case .wait(let seconds): return Array("wait ".utf8) + decimal(seconds)
        case .disabled: return Array("disabled".utf8)
        }
    }

    static func throttle(_ words: [ArraySlice<UInt8>]) -> ThrottleVerdict? {
        guard let kind = words.first else { return nil }
        if kind.elementsEqual("disabled".utf8) { return words.count == 1 ? .disabled : nil }
        guard words.count == 2, let n = number(words[1]) else { return nil }
        if kind.elementsEqual("allowed".utf8) { return .allowed(freeAttemptsLeft: Int(n)) }
        if kind.elementsEqual("wait".utf8) { return .wait(secondsLeft: n) }
        return nil
    }

    /// Plain decimal, 1 to 12 digits (no sign, no leading zeros but "0").
    static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
        TextCodec.parseDecimal(bytes, leadingZeros: false, maximumDigits: 12)
    }

    /// Negative values are written as 0 (the throttle never produces them); huge ones are capped to 12 digits.
    static func decimal(_ value: Int64) -> [UInt8] { TextCodec.decimal(min(value, 999_999_999_999)) }
}

/// A parsed call: what the helper checks before it touches any file.
public struct HelperRequest: Equatable, Sendable {
    public let operation: HelperOperation
    public let user: [UInt8]
    /// The operation's fields, NULs removed.
    public let fields: [[UInt8]]

    /// Where the module looks for the helper: fixed at build time, never taken from a caller or pam.d.
    public static let installedPath: [UInt8] = Array("/usr/sbin/pam_pattern_helper".utf8)
    /// The most stdin bytes a call may send (every field included); the helper reads one byte more to see
    /// whether the caller sent too much.
    public static let maximumInputBytes = 512
    /// The longest field (a pattern as typed is at most Pattern.maximumInputBytes).
    public static let maximumFieldBytes = Pattern.maximumInputBytes
    /// The longest password enroll accepts (PAM_MAX_RESP_SIZE is 512; the whole input stays within 512).
    public static let maximumPasswordBytes = 400
    /// How long `authenticate` waits for the guess after its check: a person drawing or typing at a prompt,
    /// with time to think. A helper waiting holds nothing (no file, no lock); past this it answers "expired"
    /// and exits, and the module sends a late guess as a `verify` of its own.
    public static let guessWaitSeconds: Int32 = 120
    /// How long any other operation waits for its input to end: every caller writes it all before the helper
    /// starts (pattern_run_helper), so this only ends a caller that holds stdin open without writing.
    public static let inputWaitSeconds: Int32 = 10

    public init(operation: HelperOperation, user: [UInt8], fields: [[UInt8]]) {
        self.operation = operation
        self.user = user
        self.fields = fields
    }

    /// The operation and user from argv (without argv[0]). Refused: wrong count, unknown operation, a user name
    /// no store line can hold.
    public static func parseArguments(_ arguments: [[UInt8]]) -> Result<(HelperOperation, [UInt8]), HelperRefusalError>
    {
        guard arguments.count == 2, let operation = HelperOperation(word: arguments[0]) else {
            return .failure(HelperRefusalError(refusal: .usage))
        }
        guard StoreRecord.isValidUserName(arguments[1]) else { return .failure(HelperRefusalError(refusal: .user)) }
        return .success((operation, arguments[1]))
    }

    /// Splits stdin into exactly `count` NUL-ended fields. nil: too long, a field too long, a missing or extra
    /// field, bytes after the last NUL (unterminated or extra input).
    public static func parseFields(_ input: [UInt8], count: Int) -> [[UInt8]]? {
        parseFields(input, limits: [Int](repeating: maximumFieldBytes, count: count))
    }

    /// Splits stdin into one NUL-ended field per entry of `limits`, each at most that long. nil as above.
    public static func parseFields(_ input: [UInt8], limits: [Int]) -> [[UInt8]]? {
        guard input.count <= maximumInputBytes else { return nil }
        var fields: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in input {
            if byte == 0 {
                guard fields.count < limits.count else { return nil }
                fields.append(current)
                current = []
            } else {
                guard fields.count < limits.count, current.count < limits[fields.count] else { return nil }
                current.append(byte)
            }
        }
        guard current.isEmpty, fields.count == limits.count else { return nil }
        return fields
    }

    /// The stdin bytes for `fields` (what a caller writes).
    public static func encodeFields(_ fields: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            out.append(contentsOf: field)
            out.append(0)
        }
        return out
    }
}

/// A refusal as a typed error (Embedded Swift: Result needs an Error type).
public struct HelperRefusalError: Error, Equatable, Sendable {
    public let refusal: HelperRefusal
    public init(refusal: HelperRefusal) { self.refusal = refusal }
}

/// Why a caller got no usable verdict from the helper. A caller fails closed on every one of these (the module:
/// PAM_AUTHINFO_UNAVAIL, never a counted or accepted guess).
public enum HelperFailure: Error, Equatable, Sendable {
    /// fork, pipe or exec failed before the helper ran (errno); exit 127 from the child means exec failed.
    case couldNotRun(errno: Int32)
    /// A signal ended the helper.
    case killed(signal: Int32)
    /// The exit status and line do not form a verdict of the protocol (a wrong or missing binary).
    case unexpectedAnswer(exitStatus: Int32)
    /// The helper refused the call.
    case refused(HelperRefusal)
    /// The helper found the store, state or configuration unusable.
    case unavailable
    /// The helper gave no answer within the caller's deadline (HelperClient): it was killed and reaped.
    case timedOut(milliseconds: Int32)

    /// The sentence as a gettext msgid and its arguments: the module logs it in English (`message`), patternctl
    /// says it in the user's language; one text for both.
    public var template: (format: StaticString, arguments: [[UInt8]]) {
        switch self {
        case .couldNotRun(let code):
            return (translatable("could not run pam_pattern_helper (errno %s)"), [TextCodec.decimal(Int64(code))])
        case .killed(let signal):
            return (translatable("pam_pattern_helper was killed by signal %s"), [TextCodec.decimal(Int64(signal))])
        case .unexpectedAnswer(let status):
            if status == 127 {
                return (
                    translatable("pam_pattern_helper could not be executed (exit 127: missing or not executable?)"), []
                )
            }
            return (
                translatable("pam_pattern_helper gave no valid verdict (exit %s)"), [TextCodec.decimal(Int64(status))]
            )
        case .refused(let why): return (translatable("pam_pattern_helper refused the call (%s)"), [why.word])
        case .unavailable:
            return (translatable("pam_pattern_helper found the store or state unusable (see its syslog lines)"), [])
        case .timedOut(let milliseconds):
            return (
                translatable("pam_pattern_helper gave no answer within %s seconds and was killed"),
                [TextCodec.decimal(Int64(milliseconds / 1000))]
            )
        }
    }

    /// The sentence in English, for the log.
    public var message: String {
        let (format, arguments) = template
        let filled = format.withUTF8Buffer { MessageFormat.fill(Array($0), arguments) }
        return String(decoding: filled, as: UTF8.self)
    }
}
