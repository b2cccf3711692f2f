import Testing

@testable import PatternCore

/// A user's own enrolments into the TPM: at most `limit` in any hour, the record's one spelling.
struct EnrolmentRecordTests {
    let hour = EnrolmentRecord.windowSeconds

    @Test func theLimitIsTenAnHour() {
        #expect(EnrolmentRecord.limit == 10)
        #expect(hour == 3600)
    }

    @Test func theNextOneIsRefusedAfterLimitInTheWindowAndAllowedAsTheOldestLeavesIt() {
        var record = EnrolmentRecord.empty
        let start: Int64 = 1_700_000_000
        for minute in 0..<Int64(EnrolmentRecord.limit) {
            #expect(record.allows(at: start + minute * 60))
            record.record(at: start + minute * 60)
        }
        #expect(!record.allows(at: start + 10 * 60))
        #expect(!record.allows(at: start + hour - 1))
        #expect(record.allows(at: start + hour))  // the first is an hour old: out of the window
        record.record(at: start + hour)
        #expect(record.times.count == EnrolmentRecord.limit)
        #expect(record.times.first == start + 60)
        #expect(!record.allows(at: start + hour))
    }

    @Test func aTimeAfterNowCountsAsNone() {
        // A clock set back: the record never makes anyone wait longer than the window.
        let record = EnrolmentRecord(times: Array(repeating: 2_000_000_000, count: EnrolmentRecord.limit))
        #expect(record.allows(at: 1_700_000_000))
    }

    @Test func theRecordReadsBackExactlyAndNothingElseReads() throws {
        let record = EnrolmentRecord(times: [1_700_000_000, 1_700_000_060, 0])
        #expect(record.encoded() == ascii("1700000000 1700000060 0\n"))
        #expect(EnrolmentRecord.parse(record.encoded()) == record)
        #expect(EnrolmentRecord.parse([]) == .empty)
        #expect(EnrolmentRecord.empty.encoded() == [])
        let full = EnrolmentRecord(times: Array(repeating: Int64.max, count: EnrolmentRecord.limit))
        #expect(full.encoded().count == EnrolmentRecord.maximumFileBytes)
        #expect(EnrolmentRecord.parse(full.encoded()) == full)
        for bad in ["1", "1 \n", " 1\n", "01\n", "1  2\n", "-1\n", "1\n\n", "x\n", "99999999999999999999\n"] {
            #expect(EnrolmentRecord.parse(ascii(bad)) == nil, "\(bad)")
        }
        let eleven = Array(repeating: "1", count: EnrolmentRecord.limit + 1).joined(separator: " ") + "\n"
        #expect(EnrolmentRecord.parse(ascii(eleven)) == nil)
    }

    @Test func theFileCountsOnlyWhileTheRecordAllowsAndOnlyItsOwnUser() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let throttle = ThrottleStore(directory: dir.pathBytes("state"))
        let now: Int64 = 1_700_000_000
        #expect(try throttle.enrolments(for: ascii("alice")) == .empty)  // no directory yet
        for second in 0..<Int64(EnrolmentRecord.limit) {
            #expect(try throttle.recordEnrolment(for: ascii("alice"), now: now + second))
        }
        #expect(try !throttle.recordEnrolment(for: ascii("alice"), now: now + 20))
        #expect(try throttle.enrolments(for: ascii("alice")).times.count == EnrolmentRecord.limit)
        #expect(try throttle.recordEnrolment(for: ascii("bob"), now: now + 20))
        // Beside the state file, root-only; the state itself untouched.
        let name = String(decoding: ThrottleStore.fileName(for: ascii("alice")) ?? [], as: UTF8.self)
        #expect(fileStat(dir.file("state/" + name + ".enrolments")).st_mode & 0o777 == 0o600)
        #expect(try throttle.state(for: ascii("alice")) == .zero)
        // A malformed record (only root writes it) starts afresh.
        writeBytes(dir.file("state/" + name + ".enrolments"), ascii("garbage"))
        #expect(try throttle.recordEnrolment(for: ascii("alice"), now: now + 30))
        #expect(try throttle.enrolments(for: ascii("alice")).times == [now + 30])
    }
}
