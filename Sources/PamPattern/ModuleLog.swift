import CPamShim
import PatternCoreEmbedded

/// Logging through pam_syslog (the shim's pam_pattern_log), which prefixes
/// "pam_pattern(service:auth):". Never given the typed digits, a hash or store
/// content; user names are passed through `TextCodec.printable`.
struct ModuleLog {
    let handle: OpaquePointer?
    /// `debug` option: LOG_DEBUG lines for each decision.
    let debugEnabled: Bool

    /// Failed attempts and refusals (LOG_NOTICE, like pam_unix).
    func notice(_ message: [UInt8]) { write(LOG_NOTICE, message) }
    /// Bad configuration, e.g. an unknown option (LOG_ERR).
    func error(_ message: [UInt8]) { write(LOG_ERR, message) }
    /// Resource failures: unreadable/unsafe store, failing system calls (LOG_CRIT).
    func critical(_ message: [UInt8]) { write(LOG_CRIT, message) }
    /// Decisions, only with `debug` (LOG_DEBUG).
    func debug(_ message: [UInt8]) { if debugEnabled { write(LOG_DEBUG, message) } }

    func notice(_ message: String) { notice(Array(message.utf8)) }
    func error(_ message: String) { error(Array(message.utf8)) }
    func critical(_ message: String) { critical(Array(message.utf8)) }
    func debug(_ message: String) { if debugEnabled { write(LOG_DEBUG, Array(message.utf8)) } }

    private func write(_ priority: Int32, _ message: [UInt8]) {
        guard let handle else { return }
        CString.with(message, orElse: ()) { pam_pattern_log(handle, priority, $0) }
    }
}

/// `text` + a log-safe user name, e.g. logLine("failed pattern for user ", user).
func logLine(_ text: String, _ user: [UInt8], _ tail: String = "") -> [UInt8] {
    var line = Array(text.utf8)
    line.append(contentsOf: TextCodec.printable(user, limit: 100))
    line.append(contentsOf: tail.utf8)
    return line
}
