/// What the TPM said about one guess against a TPM record (GuessGate.tpmCheck). The core never talks to a TPM
/// itself: the setuid helper supplies the check (Sources/PatternTPM).
public enum TPMGuessResult: Equatable, Sendable {
    /// The TPM accepted the pattern and reset its own failure count.
    case right
    /// The TPM refused and counted it; `tpmFailures` is its count now (nil if it could not be read).
    case wrong(tpmFailures: Int?)
    /// The index is at its limit: the TPM refuses every pattern, the right one too.
    case limitReached
    /// The TPM could not judge (no TPM, cleared, missing or different index, ...), and the guess never went
    /// out: never a success, never a counted failure.
    case unavailable(code: UInt32)
    /// The guess went to the TPM and its answer never came back: the TPM may have counted it, so the
    /// throttle's count stays (it never falls below the TPM's). Never a success.
    case unanswered(code: UInt32)
}
