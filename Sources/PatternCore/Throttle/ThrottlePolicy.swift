/// The throttle's options (module options deny=, unlock_time=, lock_after=).
public struct ThrottleSettings: Equatable, Sendable {
    /// The failure count at which the first wait starts; failures before it are free. Values < 1 act as 1.
    public var deny: Int = 5
    /// The first wait in seconds; later waits scale with it (table * unlockTime / 60). Values < 1 act as 1.
    public var unlockTime: Int64 = 60
    /// At this many failures the pattern is disabled until root resets it. 0 or less: never disabled.
    public var lockAfter: Int = 20

    public init(deny: Int = 5, unlockTime: Int64 = 60, lockAfter: Int = 20) {
        self.deny = deny
        self.unlockTime = unlockTime
        self.lockAfter = lockAfter
    }
}

/// What the throttle says before an attempt.
public enum ThrottleVerdict: Equatable, Sendable {
    /// A guess may be made; this many more failures before the next wait starts.
    case allowed(freeAttemptsLeft: Int)
    /// No guess until this many seconds have passed.
    case wait(secondsLeft: Int64)
    /// lock_after reached: no guesses until root resets the state.
    case disabled
}

/// The throttle schedule: a pure function of the state, the clock and the settings (no I/O, no clock reads).
public enum ThrottlePolicy {
    /// Android's 2025 SoftwareRateLimiter waits, in seconds, for the 1st, 2nd, ... failure that waits
    /// (failures 5, 6, ... with deny=5): 1 min, 5 min, 15 min, 30 min, 90 min, 4 h, 12 h, 36 h, 4 d, 13 d, 41 d,
    /// 123 d, 1 y, 3 y, 9 y. Every entry is a multiple of 60, so scaling by unlockTime/60 is exact.
    public static let androidWaits: [Int64] = [
        60, 300, 900, 1800, 5400, 14_400, 43_200, 129_600, 345_600, 1_123_200, 3_542_400, 10_627_200,
        31_536_000, 94_608_000, 283_824_000,
    ]

    /// The wait that follows the `failures`-th failure, or nil when it is free (below deny) or when the pattern
    /// is disabled (at or above lock_after; `verdict` reports that). Past the end of the table the last wait
    /// repeats. Saturates at Int64.max instead of overflowing.
    public static func waitAfter(failures: Int, settings: ThrottleSettings) -> Int64? {
        let deny = max(settings.deny, 1)
        if failures < deny { return nil }
        if settings.lockAfter > 0 && failures >= settings.lockAfter { return nil }
        let (step, overflow) = failures.subtractingReportingOverflow(deny)
        let index = overflow ? androidWaits.count - 1 : min(step, androidWaits.count - 1)
        let minutes = androidWaits[index] / 60
        let unit = max(settings.unlockTime, 1)
        let (wait, tooBig) = minutes.multipliedReportingOverflow(by: unit)
        return tooBig ? Int64.max : wait
    }

    /// Whether a guess may be made at `now`. A last failure in the future (a clock that was ahead, or went
    /// backwards) counts as `now`: the wait is never longer than configured. (The module also rewrites such a
    /// time as `now` under the lock, so that the wait then ends.)
    public static func verdict(state: ThrottleState, now: Int64, settings: ThrottleSettings) -> ThrottleVerdict {
        var state = state
        if state.lastFailure > now { state.lastFailure = now }
        let failures = max(state.failures, 0)
        if settings.lockAfter > 0 && failures >= settings.lockAfter { return .disabled }
        let deny = max(settings.deny, 1)
        if let wait = waitAfter(failures: failures, settings: settings) {
            let (until, overflow) = state.lastFailure.addingReportingOverflow(wait)
            let end = overflow ? Int64.max : until
            if now < end {
                let (left, leftOverflow) = end.subtractingReportingOverflow(now)
                return .wait(secondsLeft: leftOverflow ? wait : min(left, wait))
            }
            return .allowed(freeAttemptsLeft: 1)
        }
        var left = deny - failures
        if settings.lockAfter > 0 { left = min(left, settings.lockAfter - failures) }
        return .allowed(freeAttemptsLeft: left)
    }
}
