import CPatternHelper
import CPatternSystem
import PatternCoreEmbedded

/// main.c calls this after hardening the process: one call served, the verdict line written, its exit status
/// returned.
@_cdecl("pattern_helper_serve")
func patternHelperServe(_ argc: Int32, _ argv: UnsafePointer<UnsafePointer<CChar>?>?) -> Int32 {
    switch HelperMain.serve(arguments: HelperMain.arguments(argc: argc, argv: argv)) {
    case .verdict(let verdict):
        // Through the core's one write loop; a caller that closed its end gets no line, and the exit status stays.
        try? SystemCall.writeToStream(STDOUT_FILENO, verdict.line)
        return verdict.exit.rawValue
    case .noGuess(let check):
        return check.exit.rawValue
    }
}

/// One call of the helper. Order matters: (main.c hardened the process), read the caller's uid and take gid 0
/// with no supplementary groups, refuse a tty, check argv and that USER
/// is the caller, read all input (bounded) before any file is opened, then load the system's settings and serve
/// the operation through the same store and GuessGate the module uses in-process. `authenticate` alone opens
/// files before reading input (its check), and closes them all before it waits for the guess.
enum HelperMain {
    /// What a run ends with: a verdict line still to write, or (authenticate, no guess sent) nothing more than
    /// the check's line already written.
    enum Reply {
        case verdict(HelperVerdict)
        case noGuess(check: HelperVerdict)
    }

    /// Longest argv entry read (longer ones are refused as usage).
    static let maximumArgumentBytes = 4096
    /// More argv entries than this are not read (the count check refuses the call).
    static let maximumArguments = 8

    static func serve(arguments: [[UInt8]]) -> Reply {
        switch admit(arguments: arguments) {
        case .failure(let refusal): return .verdict(refusal.verdict)
        case .success(let call):
            if call.operation == .authenticate { return authenticate(user: call.user) }
            let deadline = pattern_monotonic_ms() + Int64(HelperRequest.inputWaitSeconds) * 1000
            guard let fields = readFields(shapes: call.operation.acceptedFieldLimits, deadline: deadline) else {
                HelperLog.notice(HelperLog.line("refused: malformed input for user ", call.user))
                return .verdict(.refused(.input))
            }
            guard let options = HelperConfiguration.load() else { return .verdict(.unavailable) }
            return .verdict(
                HelperService(options: options, now: { Int64(time(nil)) }, enrolmentsLimited: call.caller != 0).serve(
                    call.operation, user: call.user, fields: fields))
        }
    }

    /// A call that passed every check on who asks and what: input is read next.
    struct Admitted {
        let operation: HelperOperation
        let user: [UInt8]
        /// The caller's real uid (root's own enrolments are not limited: EnrolmentRecord).
        let caller: Int
    }

    /// A verdict as a typed error (Result needs one).
    struct Refusal: Error {
        let verdict: HelperVerdict
    }

    /// `check`, its line written at once, then, if allowed, one guess as `verify` (HelperOperation.authenticate).
    /// Files are opened only by the two operations themselves: none is open while the helper waits.
    static func authenticate(user: [UInt8]) -> Reply {
        guard let options = HelperConfiguration.load() else { return .verdict(.unavailable) }
        let service = HelperService(options: options, now: { Int64(time(nil)) })
        let check = service.serve(.authenticate, user: user, fields: [])
        guard case .allowed = check else { return .verdict(check) }
        do throws(Errno) {
            try SystemCall.writeToStream(STDOUT_FILENO, check.line)
        } catch {
            return .noGuess(check: check)  // the caller has gone
        }
        // While the person is being asked: the guess's hash then finds libcrypt mapped (its dlopen and first
        // page faults are off the time the person waits after the guess).
        pattern_crypt_preload()
        let deadline = pattern_monotonic_ms() + Int64(HelperRequest.guessWaitSeconds) * 1000
        guard pattern_wait_readable(STDIN_FILENO, deadline) == 1 else { return .verdict(.expired) }
        guard
            let fields = readFields(
                shapes: HelperOperation.authenticate.acceptedFieldLimits, deadline: deadline, guessMayBeAbsent: true)
        else {
            HelperLog.notice(HelperLog.line("refused: malformed input for user ", user))
            return .verdict(.refused(.input))
        }
        if fields.isEmpty { return .noGuess(check: check) }
        return .verdict(service.serve(.verify, user: user, fields: fields))
    }

    /// Who asks (the real uid), about whom, for what: everything decided before any input is read.
    static func admit(arguments: [[UInt8]]) -> Result<Admitted, Refusal> {
        let caller = pattern_helper_real_uid()
        // Who called is known (the real uid; the gids never say who): from here on the caller's groups are
        // gone, and the store, state and attempt record it writes are root:root.
        if pattern_helper_root_group() != 0 {
            HelperLog.critical("could not set the group ids to root and drop the supplementary groups; refusing")
            return .failure(Refusal(verdict: .unavailable))
        }
        if pattern_helper_stdin_is_tty() != 0 {
            HelperLog.notice("refused: stdin is a terminal (uid \(caller))")
            return .failure(Refusal(verdict: .refused(.tty)))
        }
        let operation: HelperOperation
        let user: [UInt8]
        switch HelperRequest.parseArguments(arguments) {
        case .failure(let error):
            HelperLog.notice("refused: bad arguments (uid \(caller))")
            return .failure(Refusal(verdict: .refused(error.refusal)))
        case .success(let parsed):
            (operation, user) = parsed
        }
        if operation.isRootOnly && caller != 0 {
            HelperLog.notice(HelperLog.line("refused: uid \(caller) asked for a root-only operation for user ", user))
            return .failure(Refusal(verdict: .refused(.user)))
        }
        // Root (su, sudo, login) may ask about anyone; everybody else only about themselves.
        if caller != 0 && Account.name(of: UInt32(caller)) != user {
            HelperLog.notice(HelperLog.line("refused: uid \(caller) asked about another user ", user))
            return .failure(Refusal(verdict: .refused(.user)))
        }
        return .success(Admitted(operation: operation, user: user, caller: Int(caller)))
    }

    /// argv without argv[0]; an over-long or NULL entry becomes an empty one (refused later).
    static func arguments(argc: Int32, argv: UnsafePointer<UnsafePointer<CChar>?>?) -> [[UInt8]] {
        var result: [[UInt8]] = []
        let count = Int(argc)
        guard let argv, count > 1 else { return result }
        for index in 1..<min(count, maximumArguments) {
            guard let pointer = argv[index] else { result.append([]); continue }
            let length = strnlen(pointer, maximumArgumentBytes + 1)
            if length > maximumArgumentBytes { result.append([]); continue }
            let bytes: [UInt8] = pointer.withMemoryRebound(to: UInt8.self, capacity: length + 1) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
            result.append(bytes)
        }
        if count > maximumArguments { result.append([]) }  // too many: the count check refuses it
        return result
    }

    /// All of stdin, at most one byte more than allowed, split into the fields of the first shape it fits; nil
    /// when the input has not ended by `deadline` (pattern_monotonic_ms). `guessMayBeAbsent`: no input at all
    /// gives no fields (authenticate's "no guess") rather than a refusal.
    static func readFields(shapes: [[Int]], deadline: Int64, guessMayBeAbsent: Bool = false) -> [[UInt8]]? {
        var buffer = [UInt8](repeating: 0, count: HelperRequest.maximumInputBytes + 1)
        defer { buffer.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
        // Read in place (SystemCall.read, the core's one EINTR retry) so the digits exist in this buffer only.
        var length = 0
        while length < buffer.count {
            if pattern_wait_readable(STDIN_FILENO, deadline) != 1 { return nil }
            guard let count = try? SystemCall.read(STDIN_FILENO, into: &buffer, from: length) else { return nil }
            if count == 0 { break }
            length += count
        }
        guard length <= HelperRequest.maximumInputBytes else { return nil }
        if length == 0 && guessMayBeAbsent { return [] }
        var input = Array(buffer[0..<length])
        defer { input.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
        for limits in shapes {
            if let fields = HelperRequest.parseFields(input, limits: limits) { return fields }
        }
        return nil
    }
}
