import PatternCoreEmbedded

extension HelperVerdict {
    /// The answer for what the gate made of a counted guess: one mapping for `verify` and for the current
    /// pattern of `set`/`remove`. `wrongText` names the guess in the log line of a wrong one.
    init(_ outcome: GuessOutcome, user: [UInt8], wrongText: String) {
        switch outcome {
        case .accepted: self = .accepted
        case .rejected(let after):
            HelperLog.notice(HelperLog.line(wrongText, user))
            self = .wrong(after)
        case .refused(let verdict): self = .locked(verdict)
        case .notEnrolled: self = .notEnrolled
        case .revoked:
            // Matched a record the store no longer holds (changed or removed while the hash ran): never a
            // success; the protocol has no word for it, so "unavailable" fails closed.
            HelperLog.notice(HelperLog.line("pattern changed or removed during the attempt; refused for user ", user))
            self = .unavailable
        }
    }
}
