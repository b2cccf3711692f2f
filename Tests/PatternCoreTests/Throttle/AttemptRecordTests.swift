import Glibc
import Testing

@testable import PatternCore

@Suite struct AttemptRecordTests {
    func attempt(_ time: Int64, tty: String = "/dev/pts/1", host: String = "") -> FailedAttempt {
        FailedAttempt(time: time, service: ascii("su"), tty: ascii(tty), remoteHost: ascii(host))
    }

    @Test func encodesTheDocumentedFormat() {
        var record = AttemptRecord.empty
        record.add(attempt(1_764_460_000))
        record.add(attempt(1_764_460_005, tty: "", host: "203.0.113.7"))
        #expect(
            String(decoding: record.encoded(), as: UTF8.self)
                == "unseen 2\n1764460000 su /dev/pts/1 -\n1764460005 su - 203.0.113.7\n")
        #expect(AttemptRecord.parse(record.encoded()) == record)
    }

    @Test func theProgramIsNamedWithItsServiceWhenTheyDiffer() {
        func program(_ name: String, _ service: String) -> String {
            String(decoding: AttemptOrigin.program(ascii(name), service: ascii(service)), as: UTF8.self)
        }
        #expect(program("authproto_pam", "common-auth") == "authproto_pam(common-auth)")
        #expect(program("sudo", "sudo") == "sudo")
        #expect(program("", "login") == "login")
        #expect(program("i3lock", "") == "i3lock")
        // Stored as one field: no space, at most the field's size.
        let stored = FailedAttempt(
            time: 1, service: AttemptOrigin.program(ascii(String(repeating: "x", count: 60)), service: ascii("su")),
            tty: [], remoteHost: [])
        #expect(stored.service.count == AttemptRecord.maximumFieldBytes)
    }

    func tag(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: RepeatedGuess.bytes) }

    @Test func rememberedWrongGuessesAreLinesAfterTheHeader() {
        var record = AttemptRecord.empty
        record.add(attempt(1_764_460_000))
        record.rememberWrong(tag(0xAB), at: 1_764_460_000)
        record.rememberWrong(tag(0xCD), at: 1_764_460_007)
        let text = String(decoding: record.encoded(), as: UTF8.self)
        #expect(
            text
                == "unseen 1\nrepeat " + String(repeating: "ab", count: 32) + " 1764460000\nrepeat "
                + String(repeating: "cd", count: 32) + " 1764460007\n1764460000 su /dev/pts/1 -\n")
        #expect(AttemptRecord.parse(record.encoded()) == record)
        let line = "repeat " + String(repeating: "ab", count: 32) + " 5\n"
        for bad in [
            "unseen 1\nrepeat " + String(repeating: "AB", count: 32) + " 5\n",  // one spelling: lower case
            "unseen 1\nrepeat " + String(repeating: "ab", count: 31) + " 5\n",  // too short
            "unseen 1\nrepeat " + String(repeating: "ab", count: 32) + " 05\n",  // one spelling of a time
            "unseen 1\nrepeat " + String(repeating: "ab", count: 32) + " 5 6\n",
            "unseen 1\n1764460000 su /dev/pts/1 -\n" + line,  // not right after the header
            "unseen 1\n" + line + line,  // the same guess twice
            "unseen 1\n" + (0..<6).map { "repeat " + String(repeating: "0\($0)", count: 32) + " 5\n" }.joined(),
        ] {
            #expect(AttemptRecord.parse(Array(bad.utf8)) == nil, "\(bad)")
        }
        let five = "unseen 1\n" + (0..<5).map { "repeat " + String(repeating: "0\($0)", count: 32) + " 5\n" }.joined()
        #expect(AttemptRecord.parse(Array(five.utf8))?.wrongGuesses.count == 5)
    }

    @Test func aRecordFromBeforeTimesWereKeptStillReads() {
        // Written when only the last wrong guess was remembered: "repeat TAG", no time. It reads (nothing is
        // lost of the attempts), and its guess counts as long expired: typed again, it is counted once more.
        let old = "unseen 1\nrepeat " + String(repeating: "ab", count: 32) + "\n1764460000 su /dev/pts/1 -\n"
        let record = AttemptRecord.parse(Array(old.utf8))
        #expect(record?.wrongGuesses == [RememberedWrongGuess(tag: tag(0xAB), time: 0)])
        #expect(record?.attempts == [attempt(1_764_460_000)])
        #expect(record?.isRepeat(tag(0xAB), at: 1_764_460_001) == false)
    }

    @Test func theLastFiveDistinctWrongGuessesAreRepeatsForFiveMinutes() {
        var record = AttemptRecord.empty
        let now: Int64 = 1_764_460_000
        for byte: UInt8 in 1...6 { record.rememberWrong(tag(byte), at: now + Int64(byte)) }
        // Six distinct: the first is forgotten, the other five are repeats.
        #expect(record.wrongGuesses.map { $0.tag } == (2...6).map { tag($0) })
        #expect(!record.isRepeat(tag(1), at: now + 7))
        for byte: UInt8 in 2...6 { #expect(record.isRepeat(tag(byte), at: now + 7)) }
        // Until five minutes after each was judged wrong, not a second longer; never from the future.
        #expect(record.isRepeat(tag(2), at: now + 2 + 300))
        #expect(!record.isRepeat(tag(2), at: now + 2 + 301))
        #expect(!record.isRepeat(tag(2), at: now + 1))
        // Judged wrong again (its repeat came late, so it was counted): the newest, with a fresh time.
        record.rememberWrong(tag(2), at: now + 400)
        #expect(record.wrongGuesses.map { $0.tag } == [tag(2)], "the expired ones are dropped")
        #expect(record.isRepeat(tag(2), at: now + 650))
        let forgot = record.forgetWrongGuesses()
        #expect(forgot)
        #expect(!record.isRepeat(tag(2), at: now + 401))
        let forgotAgain = record.forgetWrongGuesses()
        #expect(!forgotAgain)
    }

    @Test func keepsTheNewestCapacityEntriesAndCountsAll() {
        var record = AttemptRecord.empty
        for index in 0..<(AttemptRecord.capacity + 5) { record.add(attempt(Int64(index))) }
        #expect(record.attempts.count == AttemptRecord.capacity)
        #expect(record.attempts.first?.time == 5)
        #expect(record.unseen == AttemptRecord.capacity + 5)
        #expect(record.unseenSummary?.last.time == Int64(AttemptRecord.capacity + 4))
        #expect(record.encoded().count <= AttemptRecord.maximumFileBytes)
    }

    @Test func fieldsAreCutAndCleaned() {
        let long = [UInt8](repeating: 0x61, count: 500)
        let cleaned = FailedAttempt(
            time: -5, service: ascii("s u"), tty: [0x1B, 0x5B, 0x32, 0x4A, 0xC3, 0xA9],
            remoteHost: long)
        #expect(cleaned.time == 0)
        #expect(cleaned.service == ascii("s?u"))
        #expect(cleaned.tty == ascii("?[2J??"))
        #expect(cleaned.remoteHost.count == AttemptRecord.maximumFieldBytes)
        var record = AttemptRecord.empty
        record.add(cleaned)
        #expect(AttemptRecord.parse(record.encoded()) == record)
    }

    @Test func largestRecordFitsTheFileLimit() {
        let full = [UInt8](repeating: 0x61, count: AttemptRecord.maximumFieldBytes)
        var record = AttemptRecord(
            unseen: AttemptRecord.maximumUnseen,
            wrongGuesses: (1...UInt8(RepeatedGuess.remembered)).map { RememberedWrongGuess(tag: tag($0), time: .max) })
        for _ in 0..<AttemptRecord.capacity {
            record.add(FailedAttempt(time: Int64.max, service: full, tty: full, remoteHost: full))
        }
        #expect(record.encoded().count <= AttemptRecord.maximumFileBytes)
        #expect(AttemptRecord.parse(record.encoded()) == record)
    }

    @Test func parseIsStrict() {
        #expect(AttemptRecord.parse([]) == .empty)
        for bad in [
            "unseen 1", "unseen 01\n", "unseen -1\n", "seen 1\n", "unseen 1\n5 su tty\n",
            "unseen 1\n5 su tty host extra\n", "unseen 1\n5 su  host\n", "unseen 1\nx su tty host\n",
            "unseen 1\n\n", "unseen 1000000000\n",
        ] {
            #expect(AttemptRecord.parse(ascii(bad)) == nil, "\(bad)")
        }
        var tooMany = "unseen 0\n"
        for _ in 0...AttemptRecord.capacity { tooMany += "1 su tty -\n" }
        #expect(AttemptRecord.parse(ascii(tooMany)) == nil)
    }
}

@Suite(.serialized, .enabled(if: runningAsRoot, rootOnlyReason)) struct AttemptRecordFileTests {
    let origin = AttemptOrigin(service: ascii("su"), tty: ascii("/dev/pts/4"), remoteHost: [])

    func makeGate(_ dir: TempDirectory) throws -> GuessGate {
        try aliceGate(dir, ThrottleSettings(deny: 100, lockAfter: 0))
    }

    /// alice draws `digits` at `now` from `origin`, through the gate's full attempt (record and unseen notice).
    @discardableResult
    func alice(
        draws digits: String, at now: Int64, on gate: GuessGate, markSeen: Bool = true,
        _ unseen: inout UnseenFailures?
    ) throws(StoreError) -> GuessOutcome {
        try gate.attempt(
            user: ascii("alice"), pattern: storePattern(digits), now: now, origin: origin, markSeen: markSeen,
            unseen: &unseen)
    }

    @Test func failuresAreRecordedBesideTheStateAndToldOnceOnSuccess() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir)
        var unseen: UnseenFailures? = nil
        try alice(draws: "1236", at: 10, on: gate, &unseen)
        #expect(TempDirectory.names(of: dir.file("state")) == ["616c696365", "616c696365.attempts"])
        #expect(try gate.throttle.attempts(for: ascii("alice")).unseen == 1)
        #expect(
            try alice(draws: "1235789", at: 20, on: gate, &unseen) == .accepted)
        #expect(unseen?.count == 1)
        #expect(unseen?.last.time == 10)
        let after = try gate.throttle.attempts(for: ascii("alice"))
        #expect(after.unseen == 0)
        #expect(after.attempts.map(\.time) == [10])  // the success itself is not a failure
        try alice(draws: "1235789", at: 30, on: gate, &unseen)
        #expect(unseen == nil)
    }

    @Test func withoutMarkSeenTheFailuresStayUnseen() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir)
        var unseen: UnseenFailures? = nil
        try alice(draws: "1236", at: 10, on: gate, markSeen: false, &unseen)
        try alice(draws: "1235789", at: 20, on: gate, markSeen: false, &unseen)
        #expect(unseen?.count == 1)
        #expect(try gate.throttle.attempts(for: ascii("alice")).unseen == 1)
    }

    @Test func unsafeRecordFailsClosed() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let gate = try makeGate(dir)
        var unseen: UnseenFailures? = nil
        try alice(draws: "1236", at: 10, on: gate, &unseen)
        chmod(dir.file("state/616c696365.attempts"), 0o644)
        #expect(throws: StoreError.accessibleByOthers(mode: 0o644)) {
            try alice(draws: "1235789", at: 20, on: gate, &unseen)
        }
    }
}
