/// A guess's outcome on the helper's wire, both ways, in one place: the helper answers what GuessGate made of a
/// guess (`verify`, `authenticate`'s guess, the current pattern of `set` and `remove`), and the module reads
/// that answer back as the outcome it would have had in process (GuessService), so sudo as root and a screen
/// locker through the helper judge alike.
extension HelperVerdict {
    /// The answer for a judged guess. `revoked` (it matched a record the store no longer holds) is never a
    /// success; the protocol has no word for it, so "unavailable" fails closed.
    public init(guess outcome: GuessOutcome) {
        switch outcome {
        case .accepted: self = .accepted
        case .rejected(let after): self = .wrong(after)
        case .refused(let verdict): self = .locked(verdict)
        case .notEnrolled: self = .notEnrolled
        case .revoked: self = .unavailable
        }
    }

    /// The answer to a guess read back: the outcome it stands for, `.tooShort` when the helper's minimum
    /// length refused it uncounted, nil for an answer no guess is given (the caller fails closed).
    public var guess: GuessAnswer? {
        switch self {
        case .accepted: return .judged(.accepted)
        case .wrong(let after): return .judged(.rejected(verdictAfter: after))
        case .locked(let verdict): return .judged(.refused(verdict))
        case .notEnrolled: return .judged(.notEnrolled)
        case .malformed(let minimum): return .tooShort(minimum: minimum)
        case .allowed, .weak, .status, .unavailable, .tpmRefused, .pruned, .refused, .expired: return nil
        }
    }
}

/// What the helper's answer to a guess came to.
public enum GuessAnswer: Equatable, Sendable {
    case judged(GuessOutcome)
    /// The helper's minimum length is stricter than the caller's: not a pattern, not counted.
    case tooShort(minimum: Int)
}
