import Glibc
import PatternCore

/// Runs the setuid helper (/usr/sbin/pam_pattern_helper) for a user managing their own pattern: argv
/// `OPERATION USER`, the fields NUL-framed on a pipe (never a terminal: the helper refuses one), one verdict
/// line back. The same protocol types as the helper (HelperProtocol.swift), so the two cannot drift.
enum HelperCall {
    /// The verdict, or why there is none (patternctl then fails; nothing was changed unless the helper said so).
    static func run(
        _ operation: HelperOperation, user: [UInt8], fields: [[UInt8]]
    ) -> Result<HelperVerdict, HelperFailure> {
        var input = HelperRequest.encodeFields(fields)
        defer { Terminal.wipe(&input) }
        var toHelper: [Int32] = [-1, -1]
        var fromHelper: [Int32] = [-1, -1]
        guard pipe(&toHelper) == 0 else { return .failure(.couldNotRun(errno: errno)) }
        guard pipe(&fromHelper) == 0 else {
            close(toHelper[0]); close(toHelper[1])
            return .failure(.couldNotRun(errno: errno))
        }
        // Our ends must not leak into the helper (the dup2'd copies are what it gets).
        for fd in toHelper + fromHelper { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toHelper[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromHelper[1], 1)

        let words = [HelperRequest.installedPath, operation.word, user]
        var argv: [UnsafeMutablePointer<CChar>?] =
            words.map { word in
                strdup(String(decoding: word, as: UTF8.self))
            } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [nil]
        var child: pid_t = 0
        let path = String(decoding: HelperRequest.installedPath, as: UTF8.self)
        let spawned = posix_spawn(&child, path, &actions, nil, &argv, &environment)
        close(toHelper[0])
        close(fromHelper[1])
        guard spawned == 0 else {
            close(toHelper[1]); close(fromHelper[0])
            return .failure(.couldNotRun(errno: spawned))
        }

        // A few hundred bytes fit in the pipe: write all, close, then read. SIGPIPE (a helper that exited
        // early) is ignored so the write fails instead of killing patternctl.
        let previous = signal(SIGPIPE, SIG_IGN)
        _ = input.withUnsafeBytes { write(toHelper[1], $0.baseAddress, $0.count) }
        close(toHelper[1])
        signal(SIGPIPE, previous)

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 128)
        while output.count <= HelperVerdict.maximumLineBytes {
            let count = chunk.withUnsafeMutableBytes { read(fromHelper[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<count])
        }
        close(fromHelper[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        if status & 0x7f != 0 { return .failure(.killed(signal: status & 0x7f)) }
        let exitStatus = (status >> 8) & 0xff
        guard let verdict = HelperVerdict.decode(exitStatus: exitStatus, output: output) else {
            return .failure(.unexpectedAnswer(exitStatus: exitStatus))
        }
        switch verdict {
        case .unavailable: return .failure(.unavailable)
        case .refused(let why) where why != .policy && why != .enrolled: return .failure(.refused(why))
        default: return .success(verdict)
        }
    }
}

extension HelperFailure {
    /// `message` (the core's sentence for the module's log) in the user's language, for patternctl's errors.
    var sentence: String {
        switch self {
        case .couldNotRun(let code): return localized("could not run pam_pattern_helper (errno %s)", "\(code)")
        case .killed(let signal): return localized("pam_pattern_helper was killed by signal %s", "\(signal)")
        case .unexpectedAnswer(let status):
            return status == 127
                ? localized("pam_pattern_helper could not be executed (exit 127: missing or not executable?)")
                : localized("pam_pattern_helper gave no valid verdict (exit %s)", "\(status)")
        case .refused(let why):
            return localized("pam_pattern_helper refused the call (%s)", String(decoding: why.word, as: UTF8.self))
        case .unavailable:
            return localized("pam_pattern_helper found the store or state unusable (see its syslog lines)")
        }
    }
}

extension HelperVerdict {
    /// An answer the caller did not expect, said in words (the line itself is quoted as is).
    var unexpectedSentence: String {
        localized("pam_pattern_helper gave an unexpected answer (%s)", String(decoding: line.dropLast(), as: UTF8.self))
    }
}
