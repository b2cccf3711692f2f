/// Why one line of the store (or a throttle state file) was refused. An enum, not a String, so that
/// `StoreError` stays comparable in Embedded Swift without Unicode tables.
public enum LineProblem: Error, Equatable, Sendable {
    /// The file does not end in a newline: a torn or hand-edited file.
    case missingNewline
    /// An empty line (the format has no blank lines or comments).
    case emptyLine
    /// Not exactly three ':'-separated fields.
    case wrongFieldCount(Int)
    /// The user name is empty, too long, or contains ':', whitespace or a control byte.
    case badUserName
    /// The hash is not a well-formed yescrypt "$y$" string.
    case badHash
    /// The time is not a non-negative decimal number that fits 64 bits, without leading zeros.
    case badTime
    /// The uid is not a decimal number 0...4294967294 without leading zeros.
    case badUid

    /// A sentence for the administrator.
    public var message: String {
        switch self {
        case .missingNewline: return "the last line does not end with a newline (torn or hand-edited file)"
        case .emptyLine: return "the line is empty"
        case .wrongFieldCount(let count): return "expected 3 or 4 fields separated by ':', found \(count)"
        case .badUserName:
            return "the user name is empty, longer than \(StoreRecord.maximumUserNameBytes) bytes, "
                + "or contains ':', whitespace or a control character"
        case .badHash: return "the hash is neither a yescrypt \"$y$\" crypt string nor a \"$tpm2$\" TPM record"
        case .badTime: return "the time is not a non-negative decimal number of seconds"
        case .badUid: return "the uid is not a decimal number from 0 to 4294967294"
        }
    }
}
