import Glibc
import Testing

@testable import PatternCore

/// GuessGate with a TPM record: the TPM's answer through `tpmCheck` (a stand-in here; the real one is tested
/// against swtpm in Tests/TPMTests/test_tpm_guess.py).
@Suite(.serialized, .enabled(if: runningAsRoot, rootOnlyReason)) struct GuessGateTPMTests {
    final class FakeTPM {
        var answers: [TPMGuessResult] = []
        var calls = 0
        func check(_ record: TPMRecord, _ user: [UInt8], _ pattern: Pattern) -> TPMGuessResult {
            calls += 1
            return answers.isEmpty ? .unavailable(code: 1) : answers.removeFirst()
        }
    }

    // swift-format-ignore: NeverForceUnwrap
    // A fixed, valid record: nil would be a broken test, not a finding.
    let record = TPMRecord(
        handle: 0x01A5_0000, name: [0x00, 0x0B] + Array(repeating: 7, count: 32),
        salt: Array(repeating: 1, count: 16))!
    let alice = ascii("alice")
    let t: Int64 = 1_764_460_000

    func makeGate(_ dir: TempDirectory, _ settings: ThrottleSettings, tpm: FakeTPM?) throws -> GuessGate {
        var gate = try aliceGate(dir, settings, credential: record.text)
        gate.dummyHashCost = nil
        if let tpm { gate.tpmCheck = tpm.check }
        return gate
    }

    @Test func withoutATPMCheckARecordIsHeldByTPMAndNothingIsCounted() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir, ThrottleSettings(), tpm: nil)
        #expect(throws: StoreError.heldByTPM) {
            try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t)
        }
        #expect(try gate.throttle.state(for: alice) == .zero)
        // The store parses: a TPM record is a valid line.
        #expect(try gate.store.record(for: alice)?.tpmRecord == record)
    }

    @Test func rightResetsWrongTakesTheLargerCount() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let tpm = FakeTPM()
        let gate = try makeGate(dir, ThrottleSettings(deny: 5, unlockTime: 60, lockAfter: 20), tpm: tpm)
        tpm.answers = [.wrong(tpmFailures: 1), .wrong(tpmFailures: 7), .right]
        #expect(
            try gate.attempt(user: alice, pattern: storePattern("1236"), now: t)
                == .rejected(verdictAfter: .allowed(freeAttemptsLeft: 4)))
        #expect(try gate.throttle.state(for: alice).failures == 1)
        // The TPM counted more than the state file knows (it was deleted): the throttle follows the TPM.
        #expect(
            try gate.attempt(user: alice, pattern: storePattern("1478"), now: t)
                == .rejected(verdictAfter: .wait(secondsLeft: 900)))
        #expect(try gate.throttle.state(for: alice).failures == 7)
        #expect(try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t + 900) == .accepted)
        #expect(try gate.throttle.state(for: alice) == .zero)
    }

    @Test func theTPMIsNotAskedDuringAWait() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let tpm = FakeTPM()
        let gate = try makeGate(dir, ThrottleSettings(deny: 1, unlockTime: 60, lockAfter: 20), tpm: tpm)
        tpm.answers = [.wrong(tpmFailures: 1)]
        #expect(
            try gate.attempt(user: alice, pattern: storePattern("1236"), now: t)
                == .rejected(verdictAfter: .wait(secondsLeft: 60)))
        #expect(
            try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t + 10)
                == .refused(.wait(secondsLeft: 50)))
        #expect(tpm.calls == 1)
    }

    @Test func theSameWrongPatternAgainIsNotPutToTheTPM() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let tpm = FakeTPM()
        let gate = try makeGate(dir, ThrottleSettings(deny: 5, unlockTime: 60, lockAfter: 20), tpm: tpm)
        tpm.answers = [.wrong(tpmFailures: 1), .wrong(tpmFailures: 2)]
        for _ in 0..<3 {
            #expect(
                try gate.attempt(user: alice, pattern: storePattern("1236"), now: t)
                    == .rejected(verdictAfter: .allowed(freeAttemptsLeft: 4)))
        }
        #expect(tpm.calls == 1)
        #expect(try gate.throttle.state(for: alice).failures == 1)
        // A different guess is asked, and counted.
        #expect(
            try gate.attempt(user: alice, pattern: storePattern("1478"), now: t)
                == .rejected(verdictAfter: .allowed(freeAttemptsLeft: 3)))
        #expect(tpm.calls == 2)
    }

    @Test func unavailableTakesBackTheCountedFailure() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let tpm = FakeTPM()
        let gate = try makeGate(dir, ThrottleSettings(deny: 5, unlockTime: 60, lockAfter: 20), tpm: tpm)
        tpm.answers = [.wrong(tpmFailures: 2), .unavailable(code: 0x18B)]
        _ = try gate.attempt(user: alice, pattern: storePattern("1236"), now: t)
        let before = try gate.throttle.state(for: alice)
        #expect(throws: StoreError.tpmUnavailable(code: 0x18B)) {
            try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t + 5)
        }
        #expect(try gate.throttle.state(for: alice) == before)
    }

    @Test func unansweredKeepsTheCountedFailure() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let tpm = FakeTPM()
        let gate = try makeGate(dir, ThrottleSettings(deny: 5, unlockTime: 60, lockAfter: 20), tpm: tpm)
        tpm.answers = [.wrong(tpmFailures: 2), .unanswered(code: 0x7E00_0008)]
        _ = try gate.attempt(user: alice, pattern: storePattern("1236"), now: t)
        let before = try gate.throttle.state(for: alice)
        #expect(throws: StoreError.tpmUnavailable(code: 0x7E00_0008)) {
            try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t + 5)
        }
        // The TPM may have counted it: so does the throttle.
        #expect(try gate.throttle.state(for: alice).failures == before.failures + 1)
    }

    @Test func limitReachedDisables() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let tpm = FakeTPM()
        let gate = try makeGate(dir, ThrottleSettings(deny: 50, unlockTime: 60, lockAfter: 20), tpm: tpm)
        tpm.answers = [.limitReached]
        #expect(try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t) == .refused(.disabled))
        #expect(try gate.throttle.state(for: alice).failures == 20)
        #expect(try gate.check(user: alice, now: t) == .disabled)
    }
}
