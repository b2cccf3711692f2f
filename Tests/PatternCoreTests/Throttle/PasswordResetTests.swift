import Glibc
import Testing

@testable import PatternCore

@Suite(.serialized, .enabled(if: runningAsRoot, rootOnlyReason)) struct PasswordResetTests {
    @Test func aPasswordSuccessClearsACountedRunButNotTheAttemptRecord() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try aliceGate(dir)
        let alice = ascii("alice")
        let t: Int64 = 1_764_460_000
        let origin = AttemptOrigin(service: ascii("sudo"), tty: ascii("/dev/pts/1"), remoteHost: [])
        var unseen: UnseenFailures? = nil
        for index in 0..<5 {
            _ = try gate.attempt(
                user: alice, pattern: wrongPatterns[index], now: t, origin: origin, markSeen: false, unseen: &unseen)
        }
        #expect(try gate.check(user: alice, now: t) == .wait(secondsLeft: 60))
        let before = try gate.throttle.attempts(for: alice)
        #expect(
            try PasswordReset.pending(user: alice, throttle: gate.throttle, settings: gate.settings)
                == .cleared(failures: 5))
        #expect(
            try PasswordReset.clear(user: alice, throttle: gate.throttle, settings: gate.settings)
                == .cleared(failures: 5))
        #expect(try gate.throttle.state(for: alice) == .zero)
        #expect(try gate.check(user: alice, now: t) == .allowed(freeAttemptsLeft: 5))
        // The failures stay listed and unseen: the next pattern success still tells the person about them.
        #expect(try gate.throttle.attempts(for: alice) == before)
        #expect(
            try PasswordReset.clear(user: alice, throttle: gate.throttle, settings: gate.settings)
                == .nothingToReset)
    }

    @Test func nothingToResetWritesAndCreatesNothing() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let throttle = ThrottleStore(directory: dir.pathBytes("state"))
        #expect(
            try PasswordReset.pending(user: ascii("bob"), throttle: throttle, settings: ThrottleSettings())
                == .nothingToReset)
        #expect(
            try PasswordReset.clear(user: ascii("bob"), throttle: throttle, settings: ThrottleSettings())
                == .nothingToReset)
        #expect(!dir.names().contains("state"))
    }

    @Test func aDisabledPatternStaysDisabled() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let settings = ThrottleSettings(deny: 1, unlockTime: 1, lockAfter: 2)
        let gate = try aliceGate(dir, settings)
        let alice = ascii("alice")
        _ = try gate.attempt(user: alice, pattern: wrongPatterns[0], now: 10)
        _ = try gate.attempt(user: alice, pattern: wrongPatterns[1], now: 20)
        #expect(try gate.check(user: alice, now: 30) == .disabled)
        #expect(try PasswordReset.clear(user: alice, throttle: gate.throttle, settings: settings) == .disabled)
        #expect(try gate.throttle.state(for: alice).failures == 2)
    }

    @Test func anotherUsersCountIsUntouched() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try aliceGate(dir)
        _ = try gate.attempt(user: ascii("alice"), pattern: wrongPatterns[0], now: 10)
        #expect(
            try PasswordReset.clear(user: ascii("bob"), throttle: gate.throttle, settings: gate.settings)
                == .nothingToReset)
        #expect(try gate.throttle.state(for: ascii("alice")).failures == 1)
    }
}
