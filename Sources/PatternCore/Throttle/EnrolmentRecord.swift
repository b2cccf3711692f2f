/// When a user last put a new pattern into the TPM themselves (FILEFORMAT.md, "Enrolment record"): each such
/// enrolment defines an NV index, a TPM has room for few and its NV memory wears with every write, and an
/// enrolment killed at the wrong moment leaves an index behind until the next enrolment or `patternctl prune`
/// deletes it. So a user's own enrolments (set, or enroll after the password, in TPM mode) are limited to
/// `limit` in any `windowSeconds`; root's are not. Counted before the index is defined, like a guess before
/// its hash, so a killed or failed enrolment counts too.
public struct EnrolmentRecord: Equatable, Sendable {
    /// Enrolments allowed in any window.
    public static let limit = 10
    /// The window: an hour.
    public static let windowSeconds: Int64 = 3600
    /// Largest file: `limit` times of at most 19 digits, each followed by a space or the final newline.
    public static let maximumFileBytes = limit * 20

    /// Seconds since the epoch of the latest enrolments, oldest first, at most `limit`.
    public private(set) var times: [Int64]

    public static let empty = EnrolmentRecord(times: [])

    public init(times: [Int64]) {
        self.times = Array(times.map { max($0, 0) }.suffix(EnrolmentRecord.limit))
    }

    /// The enrolments that count at `now`: within the window before it. One after `now` (a clock set back
    /// since) counts as none, so no clock change makes a user wait longer than the window.
    func recent(at now: Int64) -> [Int64] {
        let (start, overflow) = now.subtractingReportingOverflow(EnrolmentRecord.windowSeconds)
        return times.filter { (overflow || $0 > start) && $0 <= now }
    }

    /// Whether one more enrolment may start at `now`.
    public func allows(at now: Int64) -> Bool {
        return recent(at: now).count < EnrolmentRecord.limit
    }

    /// One enrolment started at `now` (the oldest beyond `limit` is forgotten).
    public mutating func record(at now: Int64) {
        times = Array((recent(at: now) + [max(now, 0)]).suffix(EnrolmentRecord.limit))
    }

    /// "T1 T2 ... Tn\n", decimal seconds, oldest first; no enrolment is an empty file.
    public func encoded() -> [UInt8] {
        guard !times.isEmpty else { return [] }
        var out: [UInt8] = []
        for (index, time) in times.enumerated() {
            if index > 0 { out.append(0x20) }
            out += TextCodec.decimal(time)
        }
        out.append(0x0A)
        return out
    }

    /// The record in `bytes`, exactly as `encoded` writes it (no leading zeros, no empty field, at most `limit`
    /// times, one final newline); nil for anything else.
    public static func parse(_ bytes: [UInt8]) -> EnrolmentRecord? {
        guard !bytes.isEmpty else { return .empty }
        guard bytes.count <= maximumFileBytes, bytes.last == 0x0A else { return nil }
        let fields = bytes.dropLast().split(separator: 0x20, omittingEmptySubsequences: false)
        guard fields.count <= limit else { return nil }
        var times: [Int64] = []
        for field in fields {
            guard let time = TextCodec.parseDecimal(field, leadingZeros: false, maximumDigits: 19) else { return nil }
            times.append(time)
        }
        return EnrolmentRecord(times: times)
    }
}
