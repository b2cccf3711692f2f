import Glibc

/// Times as patternctl prints them: for a person in their own time zone ("2026-12-06 14:03:05 CET", TZ as the C
/// library reads it), for scripts (--json) in UTC ISO-8601 ("2026-12-06T13:03:05Z").
enum Timestamp {
    /// Now, in seconds since the epoch. The corresponding C function is `time`.
    static func now() -> Int64 { Int64(time(nil)) }

    /// `seconds` since the epoch as UTC ISO-8601, for --json; out-of-range values print as a number.
    static func iso(_ seconds: Int64) -> String {
        var value = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&value, &parts) != nil else { return "@\(seconds)" }
        return date(parts) + "T" + clock(parts) + "Z"
    }

    /// `seconds` since the epoch in the local time of whoever runs patternctl, with the zone's abbreviation
    /// ("2026-12-06 14:03:05 CET"; "+0530" style where the zone has no letters); out-of-range values as a number.
    static func local(_ seconds: Int64) -> String {
        var value = time_t(seconds)
        var parts = tm()
        tzset()
        guard localtime_r(&value, &parts) != nil else { return "@\(seconds)" }
        return date(parts) + " " + clock(parts) + " " + zone(parts)
    }

    private static func date(_ parts: tm) -> String {
        "\(Int(parts.tm_year) + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }

    private static func clock(_ parts: tm) -> String {
        "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// The zone's abbreviation (tm_zone), else the offset from UTC as +HHMM.
    private static func zone(_ parts: tm) -> String {
        if let name = parts.tm_zone {
            let text = String(cString: name)
            if !text.isEmpty && text.allSatisfy({ $0.isLetter }) { return text }
        }
        let offset = Int(parts.tm_gmtoff)
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + two(Int32(minutes / 60)) + two(Int32(minutes % 60))
    }

    private static func two(_ number: Int32) -> String {
        number < 10 ? "0\(number)" : "\(number)"
    }
}
