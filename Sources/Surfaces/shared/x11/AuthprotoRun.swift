import CPatternPad
import PatternCoreEmbedded

/// One packet from authproto: `<type> <decimal length>\n<bytes>\n`.
struct AuthprotoPacket: Equatable {
    var type: UInt8
    var bytes: [UInt8]

    /// P: echo-off prompt, U: echo-on prompt, i: info, e: error.
    var isPrompt: Bool { type == UInt8(ascii: "P") || type == UInt8(ascii: "U") }
}

/// Reassembles packets from the bytes authproto writes (they may arrive in any pieces), read with the core's
/// AuthprotoFraming. PAM's messages carry no secret, so this buffer needs no wiping; replies never pass through it.
struct AuthprotoReader {
    private var buffer: [UInt8] = []
    private(set) var broken = false

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next whole packet, or nil when more bytes are needed (or the stream is broken).
    mutating func next() -> AuthprotoPacket? {
        guard !broken else { return nil }
        switch AuthprotoFraming.parse(buffer) {
        case .incomplete: return nil
        case .broken:
            broken = true
            return nil
        case .packet(let type, let bytes, let consumed):
            let packet = AuthprotoPacket(type: type, bytes: Array(buffer[bytes]))
            buffer.removeFirst(consumed)
            return packet
        }
    }
}

/// One run of authproto (by default xsecurelock's authproto_pam): one pam_authenticate with its retries, as
/// the user, over two pipes. The only way to unlock is for this child to exit 0.
package struct AuthprotoRun {
    /// xsecurelock's own default.
    static let defaultPath: [UInt8] = Array("/usr/libexec/xsecurelock/authproto_pam".utf8)

    let pid: Int32
    private(set) var toChild: Int32
    package private(set) var fromChild: Int32
    /// Readable once the child has ended (-1 where the kernel has no pidfd): a loop waits on it beside `fromChild`,
    /// whose end of file may come just before the child can be reaped.
    package private(set) var exitWatch: Int32
    var reader = AuthprotoReader()
    /// The exit status once the child has ended (128 + signal for a death by signal).
    private(set) var exitStatus: Int32? = nil

    static func start(path: [UInt8]) -> AuthprotoRun? {
        var to: Int32 = -1
        var from: Int32 = -1
        let pid = (path + [0]).withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                pattern_pad_spawn($0, &to, &from)
            }
        }
        guard pid > 0 else { return nil }
        return AuthprotoRun(pid: pid, toChild: to, fromChild: from, exitWatch: pattern_pad_exit_watch(pid))
    }

    /// Reads what authproto wrote; at end of file the output side is closed.
    mutating func readAvailable() {
        guard fromChild >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBufferPointer { pattern_pad_read(fromChild, $0.baseAddress, $0.count) }
            if n > 0 {
                chunk.withUnsafeBufferPointer { reader.feed(UnsafeBufferPointer(rebasing: $0[0..<Int(n)])) }
                continue
            }
            if n == -2 { return }
            pattern_pad_close(fromChild)
            fromChild = -1
            return
        }
    }

    /// Whether the child has ended (reaps it once).
    mutating func ended() -> Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        if pattern_pad_reap(pid, &status) == 1 {
            exitStatus = status
            return true
        }
        return false
    }

    /// Sends a reply: `p` secret, `u` text, `x` cancel. The bytes are the caller's (the locked secret page).
    mutating func reply(_ type: UInt8, _ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
        guard toChild >= 0 else { return false }
        return pattern_pad_write_packet(toChild, CChar(bitPattern: type), bytes, count) == 0
    }

    /// Cancels (x) and ends the child, waiting up to `graceMs` for it to exit, then killing it. Only for when the pad
    /// itself ends: a wait here reads no pointer.
    mutating func stop(graceMs: Int64) {
        if exitStatus == nil {
            cancel(graceMs: graceMs, now: pattern_pad_now_ms())
            while !ended() && pattern_pad_now_ms() < killAt {
                var none: [Int32] = [-1]
                _ = pattern_pad_wait(&none, 0, 10)
            }
            if exitStatus == nil {
                pattern_pad_kill(pid)
                exitStatus = 137
            }
        }
        close()
    }

    /// When a cancelled child is killed if it has not ended by itself.
    private(set) var killAt: Int64 = .max

    /// Cancels (x) without waiting: both pipes are closed at once (the child can neither be asked nor answer any
    /// more) and the child is left to end by itself (pam_unix's fail delay, up to 2 s) until `graceMs` from `now`;
    /// `settled(now:)` reaps it later, or kills it once that time has passed. Nothing it does then is read.
    /// `keepingOutput`: its output stays open (unread) until `close()`, so a run still judging an answer is not
    /// killed by a write (SIGPIPE) on its way to exit 0.
    mutating func cancel(graceMs: Int64, now: Int64, keepingOutput: Bool = false) {
        if exitStatus == nil { _ = reply(UInt8(ascii: "x"), nil, 0) }
        if keepingOutput {
            pattern_pad_close(toChild)
            toChild = -1
        } else {
            close()
        }
        killAt = now + graceMs
    }

    /// For a cancelled child: whether it has ended and been reaped (`exitStatus`: only the caller decides whether a
    /// cancelled run's exit counts). Past its grace it is sent SIGKILL, once, and reaped by a later call.
    mutating func settled(now: Int64) -> Bool {
        if ended() { return true }
        if now >= killAt && !killed {
            pattern_pad_signal_kill(pid)
            killed = true
        }
        return false
    }

    private var killed = false

    mutating func close() {
        pattern_pad_close(toChild)
        pattern_pad_close(fromChild)
        pattern_pad_close(exitWatch)
        toChild = -1
        fromChild = -1
        exitWatch = -1
    }
}
