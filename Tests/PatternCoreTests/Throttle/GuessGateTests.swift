import Glibc
import Testing

@testable import PatternCore

@Suite(.serialized, .enabled(if: runningAsRoot, rootOnlyReason)) struct GuessGateTests {
    func makeGate(_ dir: TempDirectory, _ settings: ThrottleSettings = ThrottleSettings()) throws -> GuessGate {
        try aliceGate(dir, settings)
    }

    @Test func wrongGuessesAreCountedThenLockedAndRightOneResets() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir)
        let alice = ascii("alice"), right = storePattern("1235789")
        let t: Int64 = 1_764_460_000
        #expect(try gate.check(user: alice, now: t) == .allowed(freeAttemptsLeft: 5))
        for left in stride(from: 4, through: 1, by: -1) {
            #expect(
                try gate.attempt(user: alice, pattern: wrongPatterns[left], now: t)
                    == .rejected(verdictAfter: .allowed(freeAttemptsLeft: left)))
        }
        #expect(
            try gate.attempt(user: alice, pattern: wrongPatterns[5], now: t)
                == .rejected(verdictAfter: .wait(secondsLeft: 60)))
        // Locked: even the right pattern is refused without hashing or counting.
        #expect(try gate.attempt(user: alice, pattern: right, now: t + 30) == .refused(.wait(secondsLeft: 30)))
        #expect(try gate.throttle.state(for: alice) == ThrottleState(failures: 5, lastFailure: t))
        #expect(try gate.check(user: alice, now: t + 59) == .wait(secondsLeft: 1))
        // After the wait, one more try; a right one resets everything.
        #expect(try gate.attempt(user: alice, pattern: right, now: t + 60) == .accepted)
        #expect(try gate.throttle.state(for: alice) == .zero)
    }

    @Test func disabledAtLockAfterUntilReset() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir, ThrottleSettings(deny: 1, unlockTime: 1, lockAfter: 3))
        let alice = ascii("alice")
        var t: Int64 = 1000
        #expect(
            try gate.attempt(user: alice, pattern: wrongPatterns[0], now: t)
                == .rejected(verdictAfter: .wait(secondsLeft: 1)))
        t += 1
        #expect(
            try gate.attempt(user: alice, pattern: wrongPatterns[1], now: t)
                == .rejected(verdictAfter: .wait(secondsLeft: 5)))
        t += 5
        #expect(
            try gate.attempt(user: alice, pattern: wrongPatterns[2], now: t) == .rejected(verdictAfter: .disabled))
        #expect(
            try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t + 1_000_000) == .refused(.disabled))
        try gate.throttle.reset(user: alice)
        #expect(try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t) == .accepted)
    }

    @Test func unenrolledUsersCreateNoStateFile() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir)
        #expect(try gate.attempt(user: ascii("mallory"), pattern: storePattern("1236"), now: 1) == .notEnrolled)
        #expect(try gate.attempt(user: ascii("bad name"), pattern: storePattern("1236"), now: 1) == .notEnrolled)
        #expect(!dir.names().contains("state"))
    }

    @Test func aHashThatCannotBeComputedIsNoGuess() throws {
        // The failure is counted before the hash runs (a SIGKILL mid-hash leaves it: FaultTests, test_kills); but
        // when crypt itself fails nothing was compared, so the count is taken back and the error is never "wrong".
        let dir = TempDirectory()
        defer { dir.remove() }
        let store = PatternStore(path: dir.pathBytes("patterns"))
        // A syntactically valid $y$ string with parameters libcrypt refuses: verify fails inside crypt.
        writeBytes(dir.file("patterns"), ascii("alice:$y$jzz$abc$def:1\n"))
        let gate = GuessGate(
            store: store, throttle: ThrottleStore(directory: dir.pathBytes("state")), settings: ThrottleSettings())
        // A hash libcrypt cannot compute is an error, never a verdict (and never a success).
        #expect(throws: StoreError.hash(.failed(errno: EINVAL))) {
            try gate.attempt(user: ascii("alice"), pattern: storePattern("1236"), now: 5)
        }
        #expect(try gate.throttle.state(for: ascii("alice")).failures == 0)
    }

    @Test func aLockHeldByAStoppedProcessIsWaitedForAtMostTheBound() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir)
        let alice = ascii("alice")
        #expect(try gate.attempt(user: alice, pattern: storePattern("1236"), now: 1000) != .accepted)
        // Another open file description holds the lock (as a SIGSTOPped su would).
        let name = String(decoding: ThrottleStore.fileName(for: alice)!, as: UTF8.self)
        let holder = open(dir.file("state/" + name), O_RDWR)
        #expect(holder >= 0)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        #expect(throws: StoreError.lockBusy(waitedSeconds: 5)) {
            try gate.attempt(user: alice, pattern: storePattern("1235789"), now: 1001)
        }
        clock_gettime(CLOCK_MONOTONIC, &end)
        let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        #expect(seconds >= 4.9 && seconds < 8, "the bounded wait took \(seconds) s")
        // Released: everything works again, and nothing was counted meanwhile.
        flock(holder, LOCK_UN)
        #expect(try gate.throttle.state(for: alice).failures == 1)
        #expect(try gate.attempt(user: alice, pattern: storePattern("1235789"), now: 1002) == .accepted)
    }

    @Test func aLastFailureInTheFutureCountsAsNowAndIsRewritten() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir)
        let alice = ascii("alice")
        let t: Int64 = 1_764_460_000
        // Five failures "a year from now" (a clock that was ahead, a torn or hand-made file).
        _ = try gate.attempt(user: alice, pattern: storePattern("1236"), now: t)
        let name = String(decoding: ThrottleStore.fileName(for: alice)!, as: UTF8.self)
        writeBytes(dir.file("state/" + name), ascii("0000000005 0000000001795996000\n"))
        // Never longer than the configured first wait, and patternctl's view (state + policy) agrees.
        #expect(
            ThrottlePolicy.verdict(state: try gate.throttle.state(for: alice), now: t, settings: gate.settings)
                == .wait(secondsLeft: 60))
        #expect(try gate.check(user: alice, now: t) == .wait(secondsLeft: 60))
        // The module rewrote it as now, so the wait really ends 60 s later.
        #expect(try gate.throttle.state(for: alice) == ThrottleState(failures: 5, lastFailure: t))
        #expect(try gate.check(user: alice, now: t + 60) == .allowed(freeAttemptsLeft: 1))
        #expect(try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t + 60) == .accepted)
    }

    /// Android's 2025 rule: any of the last 5 distinct wrong patterns, tried again within 5 minutes, costs nothing.
    @Test func anyOfTheLastFiveDistinctWrongGuessesIsFreeForFiveMinutes() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir, ThrottleSettings(deny: 100, unlockTime: 1, lockAfter: 0))
        let alice = ascii("alice")
        let t: Int64 = 1_764_460_000
        func failures() throws -> Int { try gate.throttle.state(for: alice).failures }
        // A-B-A-B-A-B: two tries, each answered with the same tries left.
        let (a, b) = (wrongPatterns[0], wrongPatterns[1])
        for (index, guess) in [a, b, a, b, a, b].enumerated() {
            let expected = index == 0 ? 99 : 98
            #expect(
                try gate.attempt(user: alice, pattern: guess, now: t + Int64(index))
                    == .rejected(verdictAfter: .allowed(freeAttemptsLeft: expected)), "guess \(index)")
        }
        #expect(try failures() == 2)
        // Six distinct wrong patterns count six: A, B and four more.
        for index in 2..<6 { _ = try gate.attempt(user: alice, pattern: wrongPatterns[index], now: t + 10) }
        #expect(try failures() == 6)
        // Only the last five are remembered: A was pushed out, so it is counted again; the fifth back is free.
        _ = try gate.attempt(user: alice, pattern: a, now: t + 11)
        #expect(try failures() == 7)
        _ = try gate.attempt(user: alice, pattern: wrongPatterns[2], now: t + 12)
        #expect(try failures() == 7)
        // Five minutes after it was judged wrong it is still free; a second later it is counted.
        _ = try gate.attempt(user: alice, pattern: wrongPatterns[5], now: t + 10 + 300)
        #expect(try failures() == 7)
        _ = try gate.attempt(user: alice, pattern: wrongPatterns[4], now: t + 10 + 301)
        #expect(try failures() == 8)
        // A success forgets them all.
        #expect(try gate.attempt(user: alice, pattern: storePattern("1235789"), now: t + 320) == .accepted)
        _ = try gate.attempt(user: alice, pattern: wrongPatterns[4], now: t + 321)
        #expect(try failures() == 1)
    }

    /// 64 threads, each with its own descriptors (flock is per open file description), all guessing wrong at once,
    /// each a different pattern (the guarantee is for different guesses; a repeat is not counted at all).
    func concurrentWrongGuesses(settings: ThrottleSettings) throws -> [GuessOutcome] {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir, settings)
        final class Box: @unchecked Sendable {
            var outcomes = [GuessOutcome?](repeating: nil, count: 64); var errors = 0
        }
        let box = Box()
        var mutex = pthread_mutex_t()
        pthread_mutex_init(&mutex, nil)
        // All 64 threads wait at a barrier, then guess at once, each through its own descriptors.
        let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
        pthread_barrier_init(barrier, nil, 64)
        defer { pthread_barrier_destroy(barrier); barrier.deallocate() }
        struct Job {
            let gate: GuessGate; let index: Int; let box: Box; let mutex: UnsafeMutablePointer<pthread_mutex_t>
            let barrier: UnsafeMutablePointer<pthread_barrier_t>
        }
        let mutexPointer = withUnsafeMutablePointer(to: &mutex) { $0 }
        var threads: [pthread_t] = []
        for index in 0..<64 {
            let job = Unmanaged.passRetained(
                JobBox(Job(gate: gate, index: index, box: box, mutex: mutexPointer, barrier: barrier)))
            var thread = pthread_t()
            let rc = pthread_create(
                &thread, nil,
                { raw in
                    guard let raw else { return nil }
                    let job = Unmanaged<JobBox<Job>>.fromOpaque(raw).takeRetainedValue().value
                    pthread_barrier_wait(job.barrier)
                    let outcome = try? job.gate.attempt(
                        user: ascii("alice"), pattern: wrongPatterns[job.index], now: 1_764_460_000)
                    pthread_mutex_lock(job.mutex)
                    if let outcome { job.box.outcomes[job.index] = outcome } else { job.box.errors += 1 }
                    pthread_mutex_unlock(job.mutex)
                    return nil
                }, job.toOpaque())
            precondition(rc == 0)
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
        #expect(box.errors == 0)
        let recorded = try gate.throttle.state(for: ascii("alice")).failures
        let outcomes = box.outcomes.compactMap { $0 }
        let verified = outcomes.filter { if case .rejected = $0 { return true } else { return false } }.count
        #expect(recorded == verified)
        return outcomes
    }

    @Test func sixtyFourConcurrentGuessesAllCountedWithDeny100() throws {
        let outcomes = try concurrentWrongGuesses(settings: ThrottleSettings(deny: 100, unlockTime: 60, lockAfter: 200))
        #expect(outcomes.count == 64)
        #expect(outcomes.allSatisfy { if case .rejected = $0 { return true } else { return false } })
        // Each count from 1 to 64 was seen exactly once: no lost update.
        let lefts = outcomes.compactMap { outcome -> Int? in
            if case .rejected(.allowed(let left)) = outcome { return left } else { return nil }
        }
        #expect(Set(lefts) == Set(36...99))
    }

    @Test func theSameWrongPatternAgainIsAnsweredWrongAndNotCounted() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir)
        let alice = ascii("alice"), t: Int64 = 1_764_460_000
        for _ in 0..<3 {
            #expect(
                try gate.attempt(user: alice, pattern: wrongPatterns[0], now: t)
                    == .rejected(verdictAfter: .allowed(freeAttemptsLeft: 4)))
        }
        #expect(try gate.throttle.state(for: alice).failures == 1)
        // Another guess in between: the first one is still one of the last five, and free.
        _ = try gate.attempt(user: alice, pattern: wrongPatterns[1], now: t)
        _ = try gate.attempt(user: alice, pattern: wrongPatterns[0], now: t)
        #expect(try gate.throttle.state(for: alice).failures == 2)
    }

    @Test func sixtyFourConcurrentGuessesOnlyFiveGetThrough() throws {
        let outcomes = try concurrentWrongGuesses(settings: ThrottleSettings())
        let verified = outcomes.filter { if case .rejected = $0 { return true } else { return false } }
        let refused = outcomes.filter { $0 == .refused(.wait(secondsLeft: 60)) }
        #expect(verified.count == 5)
        #expect(refused.count == 59)
    }
}

final class JobBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
