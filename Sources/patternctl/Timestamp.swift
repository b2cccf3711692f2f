import Glibc

/// UTC ISO-8601 timestamps ("2026-11-30T01:55:05Z") for status and list.
enum Timestamp {
    /// Now, in seconds since the epoch. The corresponding C function is `time`.
    static func now() -> Int64 { Int64(time(nil)) }

    /// Formats `seconds` since the epoch as UTC ISO-8601; out-of-range values print as a number.
    static func format(_ seconds: Int64) -> String {
        var value = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&value, &parts) != nil else { return "@\(seconds)" }
        return "\(Int(parts.tm_year) + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    private static func two(_ number: Int32) -> String {
        number < 10 ? "0\(number)" : "\(number)"
    }
}
