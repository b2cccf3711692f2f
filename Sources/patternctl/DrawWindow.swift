import Glibc
import PatternCore

/// `patternctl set --draw`: the drawing window (pattern-draw, run as this same person with no privileges) asks
/// for each entry of the conversation instead of the terminal, and shows what patternctl says. Everything else
/// is the typed `set`: the helper checks the current pattern or the password and stores the new one, the
/// strength rules refuse a weak one with their reason, a mismatch asks again. The protocol is the core's
/// DrawWindowProtocol.
enum DrawWindow {
    /// Where `make install` and the package put it (beside the pad), compiled in as the helper's path is.
    static let installedPath = "/usr/libexec/pam-pattern/pattern-draw"

    private struct Channel {
        let pid: pid_t
        let toWindow: Int32
        let fromWindow: Int32
    }
    /// patternctl is one thread; the window is opened once, before the conversation.
    nonisolated(unsafe) private static var channel: Channel?
    nonisolated(unsafe) private static var received: [UInt8] = []
    /// Why the last `ask` came back empty: the person chose their password instead of the current pattern, or
    /// cancelled (Esc, the window's close button); neither when the window went away by itself.
    nonisolated(unsafe) private(set) static var passwordChosen = false
    nonisolated(unsafe) private(set) static var cancelled = false

    static var isOpen: Bool { channel != nil }

    /// What the throttle's verdict means for the window's current-pattern question: drawn now, a wait, or not
    /// at all.
    static func lock(_ verdict: ThrottleVerdict) -> DrawWindowProtocol.CurrentAsk.Lock {
        switch verdict {
        case .allowed: return .open
        case .wait(let seconds): return .wait(seconds: seconds)
        case .disabled: return .disabled
        }
    }

    /// Starts the window with a pipe each way; false after saying why it could not.
    static func open() -> Bool {
        // A window closed early must not kill patternctl at its next word.
        signal(SIGPIPE, SIG_IGN)
        var toPipe: [Int32] = [-1, -1]
        var fromPipe: [Int32] = [-1, -1]
        guard pipe(&toPipe) == 0 else { return failed() }
        guard pipe(&fromPipe) == 0 else {
            Glibc.close(toPipe[0])
            Glibc.close(toPipe[1])
            return failed()
        }
        // Only the window's own ends reach it (dup2 onto 0 and 1 clears the flag there).
        for fd in toPipe + fromPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toPipe[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromPipe[1], STDOUT_FILENO)
        var pid: pid_t = 0
        let path = strdup(installedPath)
        defer { free(path) }
        let argv: [UnsafeMutablePointer<CChar>?] = [path, nil]
        let status = argv.withUnsafeBufferPointer { args -> Int32 in
            guard let base = args.baseAddress else { return EINVAL }
            return posix_spawn(&pid, installedPath, &actions, nil, base, environ)
        }
        Glibc.close(toPipe[0])
        Glibc.close(fromPipe[1])
        guard status == 0 else {
            Glibc.close(toPipe[1])
            Glibc.close(fromPipe[0])
            errno = status
            return failed()
        }
        channel = Channel(pid: pid, toWindow: toPipe[1], fromWindow: fromPipe[0])
        return true
    }

    private static func failed() -> Bool {
        Output.error(
            localized("cannot open the drawing window %s (errno %s); nothing was changed", installedPath, "\(errno)"))
        return false
    }

    /// Asks the window for an entry (with `text`: what comes with the request, DrawWindowProtocol); nil when the
    /// person cancelled (`cancelled`) or, for the current pattern, chose the password instead (`passwordChosen`).
    /// A drawing comes as dots and is returned as the keys of `layout`, as if typed. The caller wipes the entry.
    static func ask(_ request: DrawWindowProtocol.Request, text: [UInt8] = [], layout: KeypadLayout) -> [UInt8]? {
        guard let open = channel, send(request, text) else { return nil }
        while true {
            switch AuthprotoFraming.parse(received) {
            case .packet(let type, let bytes, let consumed):
                var entry = Array(received[bytes])
                wipeReceived(upTo: consumed)
                guard type == DrawWindowProtocol.answer else {
                    Terminal.wipe(&entry)
                    // Anything else than an answer ends the conversation; only `cancel` is the person's choice.
                    if type == DrawWindowProtocol.usePassword && request == .current {
                        passwordChosen = true
                    } else if type == DrawWindowProtocol.cancel {
                        cancelled = true
                    }
                    return nil
                }
                if request == .password { return entry }
                for i in entry.indices {
                    let dot = entry[i] &- 0x30
                    entry[i] = (layout.key(forDot: dot) ?? 0) &+ 0x30
                }
                return entry
            case .broken:
                wipeReceived(upTo: received.count)
                return nil
            case .incomplete:
                var chunk = [UInt8](repeating: 0, count: 512)
                defer { Terminal.wipe(&chunk) }
                guard let n = try? SystemCall.read(open.fromWindow, into: &chunk, from: 0), n > 0 else { return nil }
                received += chunk[0..<n]
            }
        }
    }

    private static func wipeReceived(upTo count: Int) {
        let end = min(count, received.count)
        for i in 0..<end { received[i] = 0 }
        received.removeFirst(end)
    }

    /// Shows a sentence in the window (an error in red); nothing when it is closed.
    static func say(_ request: DrawWindowProtocol.Request, _ text: String) {
        _ = send(request, Array(text.utf8))
    }

    @discardableResult
    private static func send(_ request: DrawWindowProtocol.Request, _ bytes: [UInt8]) -> Bool {
        guard let open = channel else { return false }
        return (try? SystemCall.writeToStream(open.toWindow, AuthprotoFraming.frame(request.rawValue, bytes)))
            != nil
    }

    /// The conversation is over: the window keeps its last words until the person closes it.
    static func end() {
        guard let open = channel else { return }
        Glibc.close(open.toWindow)
        Glibc.close(open.fromWindow)
        channel = nil
    }
}
