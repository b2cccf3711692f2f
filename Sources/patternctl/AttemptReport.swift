import PatternCore

/// The attempt record as `status` shows it: the recent failures from `since` on (the current pattern's;
/// nil: none, there is no pattern), oldest first, one per line ("failure: TIME PROGRAM TTY [from HOST]"; "-" for
/// an unset field). Their count is status's one `failures` line, the throttle's. Labels stay English, like
/// status's other keys, so scripts can read them in any locale.
enum AttemptReport {
    static func lines(for user: String, since: Int64?, throttle: ThrottleStore) -> [String] {
        guard let since else { return [] }
        let record: AttemptRecord
        do {
            record = try throttle.attempts(for: Array(user.utf8))
        } catch {
            return ["recent failures: unreadable (\(error.message))"]
        }
        var lines: [String] = []
        for attempt in record.attempts where attempt.time >= since {
            var line = "failure: \(Timestamp.local(attempt.time)) \(shown(attempt.service)) \(shown(attempt.tty))"
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
