/// A user's failure count and the time of the last failure (FILEFORMAT.md, "Throttle state").
public struct ThrottleState: Equatable, Sendable {
    /// Failed guesses since the last success or reset.
    public var failures: Int
    /// When the last one happened, seconds since the epoch.
    public var lastFailure: Int64

    public init(failures: Int = 0, lastFailure: Int64 = 0) {
        self.failures = failures
        self.lastFailure = lastFailure
    }

    /// Nobody has failed.
    public static let zero = ThrottleState()

    /// Largest failure count stored (10 digits); counting saturates there.
    static let maximumFailures = 9_999_999_999
    /// Length of a record: 10 digits, a space, 19 digits, a newline.
    static let recordBytes = 31

    /// The fixed-width record "FFFFFFFFFF TTTTTTTTTTTTTTTTTTT\n". Fixed width so an in-place rewrite is one
    /// 31-byte write inside the first disk sector: it cannot be torn and never needs a truncate.
    func encoded() -> [UInt8] {
        var bytes = TextCodec.decimal(Int64(min(max(failures, 0), ThrottleState.maximumFailures)), width: 10)
        bytes.append(0x20)
        bytes.append(contentsOf: TextCodec.decimal(lastFailure, width: 19))
        bytes.append(0x0A)
        return bytes
    }

    /// Parses a record; an empty file (just created, never written) is the zero state.
    static func parse(_ bytes: [UInt8]) -> ThrottleState? {
        if bytes.isEmpty { return .zero }
        guard bytes.count == recordBytes, bytes[10] == 0x20, bytes[30] == 0x0A,
            let failures = TextCodec.parseDecimal(bytes[0..<10]),
            let last = TextCodec.parseDecimal(bytes[11..<30])
        else { return nil }
        return ThrottleState(failures: Int(failures), lastFailure: last)
    }
}
