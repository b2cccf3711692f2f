/// A success by the account password ends the user's run of failed patterns, as pam_faillock's `authsucc`
/// does: the person proved who they are with the stronger secret, so the next pattern prompt is not a wait.
/// Only the failure count and its time are cleared; the attempt record (the list of failed attempts and the
/// notice "N failed pattern attempts since your last success") is left as it is, so the person still learns
/// of guesses made while they were away. A pattern disabled by lock_after stays disabled: that one is root's
/// to reset (patternctl reset), whatever secret the person gave.
///
/// Cheap when there is nothing to do: one state file opened and read, no store read, no hash, no file made.
public enum PasswordReset: Equatable, Sendable {
    /// No failure is counted (no state file, or a count of 0): nothing was written.
    case nothingToReset
    /// The count was this many, and is 0 now.
    case cleared(failures: Int)
    /// lock_after is reached: kept, until root resets it.
    case disabled

    /// What `clear` would do now, read under the shared lock and changing nothing: the helper asks this before
    /// it checks a password, so a clean slate costs no PAM run.
    public static func pending(
        user: [UInt8], throttle: ThrottleStore, settings: ThrottleSettings
    ) throws(StoreError) -> PasswordReset {
        judge(try throttle.state(for: user), settings: settings)
    }

    /// Clears the user's failures under the exclusive state lock (bounded wait), unless there are none or the
    /// pattern is disabled. Failures counted by a guess in flight elsewhere are cleared with the rest: the
    /// password came after them.
    public static func clear(
        user: [UInt8], throttle: ThrottleStore, settings: ThrottleSettings
    ) throws(StoreError) -> PasswordReset {
        guard var locked = try throttle.lock(user: user, create: false) else { return .nothingToReset }
        defer { locked.close() }
        let outcome = judge(try locked.read(), settings: settings)
        if case .cleared = outcome { try locked.write(.zero) }
        return outcome
    }

    static func judge(_ state: ThrottleState, settings: ThrottleSettings) -> PasswordReset {
        if state.failures <= 0 { return .nothingToReset }
        if settings.lockAfter > 0 && state.failures >= settings.lockAfter { return .disabled }
        return .cleared(failures: state.failures)
    }
}
