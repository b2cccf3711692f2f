import CPatternSystem

/// The one caller of pam_pattern_helper, for the module (when it does not run as root, and for TPM records) and
/// for patternctl (self-service, root's TPM work): the helper from its fixed path with an empty environment, the
/// fields on a pipe (HelperProtocol.swift), the answer decoded, all within a deadline (pattern_run_helper).
public struct HelperClient: Sendable {
    /// How long the module waits for the helper. Another user's stopped or stuck helper (one holding the TPM)
    /// can delay a login by this much at most; then the helper is killed and the stack goes on to the password.
    /// It leaves room for the longest honest check: a TPM check (its wait for the TPM, 3 s, and its deadline,
    /// 1.5 s, TPMLockBounds), or a yescrypt
    /// cost-9 hash (0.47 s on an idle 2-core machine, ~2 s under a load of 4 per core), about 2.5 s.
    public static let moduleDeadlineMilliseconds: Int32 = 5000
    /// How long patternctl waits for the helper: set hashes twice (the current pattern, then the new one, at
    /// costs up to 11) and may wait 5 s for the store lock; enroll runs PAM (pam_unix delays a wrong password by
    /// 2 s); a change of a pattern held by the TPM may wait for the TPM's locks behind stopped holders
    /// (TPMLockBounds: about 47 s at worst). Nobody else waits on patternctl, so this bound only keeps a stuck
    /// helper from hanging the command.
    public static let commandDeadlineMilliseconds: Int32 = 60000

    /// HelperRequest.installedPath; only the tests' own builds differ, and they change the file, not this.
    public let path: [UInt8]
    /// The wait after which the helper is killed (HelperFailure.timedOut).
    public let deadlineMilliseconds: Int32

    public init(path: [UInt8] = HelperRequest.installedPath, deadlineMilliseconds: Int32) {
        self.path = path
        self.deadlineMilliseconds = deadlineMilliseconds
    }

    /// The helper's verdict, or why there is none. Verdicts that say the call could not be served (unavailable,
    /// a refused call) are failures; every other verdict is the caller's to judge (nothing was changed unless
    /// the verdict says so).
    public func call(
        _ operation: HelperOperation, user: [UInt8], fields: [[UInt8]]
    ) -> Result<
        HelperVerdict, HelperFailure
    > {
        var input = HelperRequest.encodeFields(fields)
        defer { input.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
        var output = [UInt8](repeating: 0, count: HelperVerdict.maximumLineBytes + 1)
        var outputLength = 0
        var status: Int32 = 0
        let deadline = deadlineMilliseconds
        let ran = withArguments(operation, user: user) { path, argv in
            input.withUnsafeBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    pattern_run_helper(
                        path, argv, inputBuffer.baseAddress, inputBuffer.count,
                        outputBuffer.baseAddress, outputBuffer.count, &outputLength, deadline, &status)
                }
            }
        }
        return HelperClient.answer(
            ran: ran, status: status, output: Array(output.prefix(outputLength)), deadline: deadline)
    }

    /// How `authenticate` began (HelperSession).
    public enum AuthenticationStart {
        /// "allowed N": the helper waits for the guess; the session must be finished (verify or close).
        case allowed(freeAttemptsLeft: Int, HelperSession)
        /// Any other answer to the check (locked, not enrolled), the run over, as `call(.check)` gives it.
        case answered(Result<HelperVerdict, HelperFailure>)
        /// No session could be had (no pidfd here): make the calls one by one, `check` then `verify`.
        case unsupported
    }

    /// `authenticate`: the check now, the guess later in the same run (one exec per authentication).
    public func startAuthentication(user: [UInt8]) -> AuthenticationStart {
        var line = [UInt8](repeating: 0, count: HelperVerdict.maximumLineBytes + 1)
        var lineLength = 0
        var session: OpaquePointer? = nil
        let deadline = deadlineMilliseconds
        let ran = withArguments(.authenticate, user: user) { path, argv in
            line.withUnsafeMutableBufferPointer { lineBuffer in
                pattern_helper_session_start(
                    path, argv, lineBuffer.baseAddress, lineBuffer.count, &lineLength, deadline, &session)
            }
        }
        switch ran {
        case PATTERN_HELPER_EXITED: break
        case PATTERN_HELPER_TIMED_OUT: return .answered(.failure(.timedOut(milliseconds: deadline)))
        default:
            let code = pattern_errno()
            if code == ENOSYS || code == EPERM || code == EMFILE || code == ENFILE { return .unsupported }
            return .answered(.failure(.couldNotRun(errno: code)))
        }
        guard let session else { return .answered(.failure(.couldNotRun(errno: EIO))) }
        let opened = HelperSession(handle: session, deadlineMilliseconds: deadline)
        let first = Array(line.prefix(lineLength))
        if case .allowed(let left) = HelperVerdict.decode(exitStatus: HelperExit.success.rawValue, output: first) {
            return .allowed(freeAttemptsLeft: left, opened)
        }
        // The run ends with that line: read what is left (nothing) and the exit status that goes with it.
        return .answered(opened.finish(fields: nil, before: first).answer)
    }

    /// argv for `operation` and `user`, as C strings, for `body`; PATTERN_HELPER_NOT_RUN (errno EINVAL) when a NUL
    /// is in them.
    func withArguments(
        _ operation: HelperOperation, user: [UInt8],
        _ body: (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> pattern_helper_run
    ) -> pattern_helper_run {
        guard var cPath = SystemCall.cString(path), var cOperation = SystemCall.cString(operation.word),
            var cUser = SystemCall.cString(user)
        else {
            pattern_set_errno(EINVAL)
            return PATTERN_HELPER_NOT_RUN
        }
        return cPath.withUnsafeMutableBufferPointer { pathBuffer in
            cOperation.withUnsafeMutableBufferPointer { operationBuffer in
                cUser.withUnsafeMutableBufferPointer { userBuffer in
                    var argv: [UnsafeMutablePointer<CChar>?] = [
                        pathBuffer.baseAddress, operationBuffer.baseAddress, userBuffer.baseAddress, nil,
                    ]
                    return argv.withUnsafeMutableBufferPointer { argvBuffer in
                        body(pathBuffer.baseAddress, argvBuffer.baseAddress)
                    }
                }
            }
        }
    }

    /// The one mapping of what a run came to (pattern_helper_run) onto a verdict or a failure.
    static func answer(
        ran: pattern_helper_run, status: Int32, output: [UInt8], deadline: Int32
    ) -> Result<
        HelperVerdict, HelperFailure
    > {
        switch ran {
        case PATTERN_HELPER_EXITED: break
        case PATTERN_HELPER_SIGNALLED: return .failure(.killed(signal: status))
        case PATTERN_HELPER_TIMED_OUT: return .failure(.timedOut(milliseconds: deadline))
        // The child reaped by someone else: without its exit status no verdict is trusted.
        case PATTERN_HELPER_REAPED_ELSEWHERE: return .failure(.couldNotRun(errno: ECHILD))
        default: return .failure(.couldNotRun(errno: pattern_errno()))
        }
        guard let verdict = HelperVerdict.decode(exitStatus: status, output: output) else {
            return .failure(.unexpectedAnswer(exitStatus: status))
        }
        switch verdict {
        case .unavailable: return .failure(.unavailable)
        case .refused(let why) where why.refusesTheCall: return .failure(.refused(why))
        default: return .success(verdict)
        }
    }
}
