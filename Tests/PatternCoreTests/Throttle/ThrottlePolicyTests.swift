import Testing

@testable import PatternCore

struct ThrottlePolicyTests {
    let minute: Int64 = 60, hour: Int64 = 3600, day: Int64 = 86400, year: Int64 = 365 * 86400

    @Test func androidTableWithDefaults() {
        let s = ThrottleSettings()
        for failures in 0...4 { #expect(ThrottlePolicy.waitAfter(failures: failures, settings: s) == nil) }
        let expected: [Int64] = [
            1 * minute, 5 * minute, 15 * minute, 30 * minute, 90 * minute, 4 * hour, 12 * hour,
            36 * hour, 4 * day, 13 * day, 41 * day, 123 * day, 1 * year, 3 * year, 9 * year,
        ]
        for (offset, wait) in expected.enumerated() {
            #expect(ThrottlePolicy.waitAfter(failures: 5 + offset, settings: s) == wait, "failure \(5 + offset)")
        }
        #expect(ThrottlePolicy.waitAfter(failures: 20, settings: s) == nil)
        #expect(
            ThrottlePolicy.verdict(state: ThrottleState(failures: 20, lastFailure: 0), now: Int64.max, settings: s)
                == .disabled)
        #expect(
            ThrottlePolicy.verdict(state: ThrottleState(failures: 1000, lastFailure: 0), now: 0, settings: s)
                == .disabled)
    }

    @Test func verdictCountsDown() {
        let s = ThrottleSettings()
        let t: Int64 = 1_764_460_000
        #expect(ThrottlePolicy.verdict(state: .zero, now: t, settings: s) == .allowed(freeAttemptsLeft: 5))
        #expect(
            ThrottlePolicy.verdict(state: ThrottleState(failures: 4, lastFailure: t), now: t, settings: s)
                == .allowed(freeAttemptsLeft: 1))
        let five = ThrottleState(failures: 5, lastFailure: t)
        #expect(ThrottlePolicy.verdict(state: five, now: t, settings: s) == .wait(secondsLeft: 60))
        #expect(ThrottlePolicy.verdict(state: five, now: t + 59, settings: s) == .wait(secondsLeft: 1))
        #expect(ThrottlePolicy.verdict(state: five, now: t + 60, settings: s) == .allowed(freeAttemptsLeft: 1))
        let six = ThrottleState(failures: 6, lastFailure: t)
        #expect(ThrottlePolicy.verdict(state: six, now: t + 100, settings: s) == .wait(secondsLeft: 200))
        // A clock set back never lengthens the wait past the nominal one.
        #expect(ThrottlePolicy.verdict(state: six, now: t - 10 * day, settings: s) == .wait(secondsLeft: 300))
        // lock_after below deny: the free count stops at the lock.
        let low = ThrottleSettings(deny: 5, unlockTime: 60, lockAfter: 3)
        #expect(
            ThrottlePolicy.verdict(state: ThrottleState(failures: 1, lastFailure: t), now: t, settings: low)
                == .allowed(freeAttemptsLeft: 2))
    }

    @Test func unlockTimeOneGivesSecondsOfTheSameShape() {
        let s = ThrottleSettings(deny: 5, unlockTime: 1, lockAfter: 20)
        let expected: [Int64] = [
            1, 5, 15, 30, 90, 240, 720, 2160, 5760, 18720, 59040, 177120, 525600, 1576800, 4730400,
        ]
        for failures in 1...4 { #expect(ThrottlePolicy.waitAfter(failures: failures, settings: s) == nil) }
        for (offset, wait) in expected.enumerated() {
            #expect(ThrottlePolicy.waitAfter(failures: 5 + offset, settings: s) == wait)
            // Same shape: each wait is the default one divided by 60.
            #expect(ThrottlePolicy.waitAfter(failures: 5 + offset, settings: ThrottleSettings())! == wait * 60)
        }
        #expect(
            ThrottlePolicy.verdict(state: ThrottleState(failures: 20, lastFailure: 0), now: 0, settings: s) == .disabled
        )
    }

    @Test func denySetsWhereTheFirstWaitComes() {
        let s = ThrottleSettings(deny: 3, unlockTime: 60, lockAfter: 20)
        #expect(ThrottlePolicy.waitAfter(failures: 2, settings: s) == nil)
        #expect(ThrottlePolicy.waitAfter(failures: 3, settings: s) == 60)
        #expect(ThrottlePolicy.waitAfter(failures: 4, settings: s) == 300)
        // Past the end of the table the last wait repeats until lock_after.
        let long = ThrottleSettings(deny: 1, unlockTime: 60, lockAfter: 100)
        #expect(ThrottlePolicy.waitAfter(failures: 50, settings: long) == 9 * year)
        // deny <= 0 acts as 1; lock_after 0 never disables.
        #expect(
            ThrottlePolicy.waitAfter(failures: 1, settings: ThrottleSettings(deny: 0, unlockTime: 60, lockAfter: 0))
                == 60)
        #expect(
            ThrottlePolicy.verdict(
                state: ThrottleState(failures: 500, lastFailure: 0), now: Int64.max,
                settings: ThrottleSettings(deny: 5, unlockTime: 60, lockAfter: 0)) == .allowed(freeAttemptsLeft: 1))
    }

    @Test func hugeOptionsSaturateInsteadOfTrapping() {
        let huge = ThrottleSettings(deny: Int.min, unlockTime: Int64.max, lockAfter: Int.max)
        #expect(ThrottlePolicy.waitAfter(failures: Int.max - 1, settings: huge) == Int64.max)
        #expect(
            ThrottlePolicy.verdict(state: ThrottleState(failures: Int.max, lastFailure: 0), now: 0, settings: huge)
                == .disabled)
        #expect(
            ThrottlePolicy.verdict(
                state: ThrottleState(failures: 30, lastFailure: Int64.max), now: Int64.min, settings: huge)
                == .wait(secondsLeft: Int64.max))
        #expect(
            ThrottlePolicy.verdict(
                state: ThrottleState(failures: Int.min, lastFailure: Int64.min), now: 0, settings: ThrottleSettings())
                == .allowed(freeAttemptsLeft: 5))
        let negative = ThrottleSettings(deny: 5, unlockTime: -5, lockAfter: 20)
        #expect(ThrottlePolicy.waitAfter(failures: 5, settings: negative) == 1)
    }
}
