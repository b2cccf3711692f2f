import PatternCore

/// The attempt record as `status` shows it: how many failures the user has not been told about yet, then
/// the recent failures, oldest first, one per line ("failure: TIME SERVICE TTY [from HOST]"; "-" for an
/// unset field). Labels stay English, like status's other keys, so scripts can read them in any locale.
enum AttemptReport {
    static func lines(for user: String, throttle: ThrottleStore) -> [String] {
        let record: AttemptRecord
        do {
            record = try throttle.attempts(for: Array(user.utf8))
        } catch {
            return ["recent failures: unreadable (\(error.message))"]
        }
        var lines = ["unseen failures: \(record.unseen)"]
        for attempt in record.attempts {
            var line = "failure: \(Timestamp.format(attempt.time)) \(shown(attempt.service)) \(shown(attempt.tty))"
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
