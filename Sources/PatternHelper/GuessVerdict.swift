import PatternCoreEmbedded

extension HelperVerdict {
    /// The answer for what the gate made of a counted guess (the core's `init(guess:)`), logged: one mapping
    /// for `verify` and for the current pattern of `set`/`remove`. `wrongText` names the guess in the log line
    /// of a wrong one.
    init(_ outcome: GuessOutcome, user: [UInt8], wrongText: String) {
        switch outcome {
        case .rejected: HelperLog.notice(HelperLog.line(wrongText, user))
        case .revoked:
            // Matched a record the store no longer holds (changed or removed while the hash ran).
            HelperLog.notice(HelperLog.line("pattern changed or removed during the attempt; refused for user ", user))
        case .accepted, .refused, .notEnrolled: break
        }
        self.init(guess: outcome)
    }
}
