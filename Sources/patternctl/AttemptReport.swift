import PatternCore

/// The attempt record as `status` shows it, under the heading "recent failed attempts:": the failures the
/// throttle counts now (`failures`, the newest ones recorded from `since` on, the current pattern's; none when
/// the count is 0 or there is no pattern), oldest first, one per line in words:
/// "  2026-12-06 14:03:05 CET  wrong pattern at su on /dev/pts/3 from HOST". Labels stay English, like
/// status's other keys.
enum AttemptReport {
    static func lines(for user: String, since: Int64?, failures: Int, throttle: ThrottleStore) -> [String] {
        guard let since, failures > 0 else { return [] }
        let record: AttemptRecord
        do {
            record = try throttle.attempts(for: Array(user.utf8))
        } catch {
            return ["recent failed attempts: unreadable (\(error.message))"]
        }
        let counted = record.attempts.filter { $0.time >= since }.suffix(failures)
        guard !counted.isEmpty else { return [] }
        var lines = ["recent failed attempts:"]
        for attempt in counted {
            var line = "  \(Timestamp.local(attempt.time))  wrong pattern at \(shown(attempt.service))"
            if !attempt.tty.isEmpty { line += " on \(shown(attempt.tty))" }
            if !attempt.remoteHost.isEmpty { line += " from \(shown(attempt.remoteHost))" }
            lines.append(line)
        }
        return lines
    }

    /// A stored field (printable ASCII by construction), "-" when empty.
    private static func shown(_ field: [UInt8]) -> String {
        field.isEmpty ? "-" : String(decoding: field, as: UTF8.self)
    }
}
