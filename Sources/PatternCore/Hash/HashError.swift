/// Every way hashing a pattern (`PatternHash`) can fail. Hashing is not the store, so it has its own type;
/// code that reads the store and hashes in one step (GuessGate, the helper's set) carries it as
/// `StoreError.hash`, so each caller still maps errors in one place: the module to PAM_AUTHINFO_UNAVAIL
/// (AuthOutcome.pamCode), the helper to "unavailable", patternctl to exit status 1 with `message`.
public enum HashError: Error, Equatable, Sendable {
    /// A yescrypt cost outside `PatternHash.costRange`.
    case invalidCost(Int)
    /// A pattern with no dots, more than 9, or a dot outside 1...9.
    case invalidPattern
    /// libcrypt refused to hash (errno shown): no memory for yescrypt under a small RLIMIT_AS, for one.
    case failed(errno: Int32)

    /// A sentence for the administrator. Never contains the pattern.
    public var message: String {
        switch self {
        case .invalidCost(let cost):
            let range = PatternHash.costRange
            return "invalid yescrypt cost \(cost) (allowed: \(range.lowerBound) to \(range.upperBound))"
        case .invalidPattern: return "invalid pattern (1 to 9 dots, each 1 to 9)"
        case .failed(let code): return "libcrypt could not hash (errno \(code))"
        }
    }
}
