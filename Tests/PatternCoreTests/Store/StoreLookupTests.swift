import CPatternSystem
import Glibc
import Testing

@testable import PatternCore

/// The module's lookup must agree with the full parser on who is enrolled, and refuse every store the full
/// parser refuses for a reason that could change that answer.
struct StoreLookupTests {
    let hash = ascii("$y$j75$V2vmbzzAo9Fq0w4o8tfpN/$3Sb8qhRH7QgXoS6u4Mb7oG2F7A3pD5.rw1cyJ0K5sQ3")

    func line(_ user: String, _ time: String = "1") -> [UInt8] { ascii(user + ":") + hash + ascii(":" + time + "\n") }

    /// The lookup of `name` in `store`, through a file as the module reads it.
    func find(_ name: String, in store: [UInt8]) throws(StoreError) -> StoreRecord? {
        let directory = TempDirectory()
        defer { directory.remove() }
        let path = directory.file("patterns")
        writeBytes(path, store)
        let fd = pattern_open(path, O_RDONLY | O_CLOEXEC, 0)
        defer { close(fd) }
        return try StoreLookup.find(ascii(name), readingFrom: fd, size: Int64(store.count), limit: 1 << 24)
    }

    @Test func linesWithAUidAndWithoutAgreeWithTheFullParser() throws {
        let bound: (String, String) -> [UInt8] = { user, uid in
            ascii(user + ":" + uid + ":") + self.hash + ascii(":7\n")
        }
        let store =
            line("alice") + bound("bob", "1000") + bound("carol", "0") + bound("dave", "4294967294")
            + line("erin") + bound("frank", "123456789")
        let records = try StoreRecord.parseStore(store)
        #expect(records.map { $0.uid } == [nil, 1000, 0, 4_294_967_294, nil, 123_456_789])
        for name in ["alice", "bob", "carol", "dave", "erin", "frank", "1000", "nobody"] {
            let expected = records.first { $0.user == ascii(name) }
            #expect(try find(name, in: store) == expected, "\(name)")
        }
        // The looked-up user's uid gets the full parse; a bad one is an error naming the line.
        for uid in ["", "01", "4294967295", "-1", "12a", "99999999999"] {
            let bad = line("alice") + bound("bob", uid)
            #expect(throws: StoreError.malformedLine(lineNumber: 2, reason: .badUid)) {
                try StoreRecord.parseStore(bad)
            }
        }
        // The round trip keeps the form each line had.
        #expect(StoreRecord.encodeStore(records) == store)
    }

    @Test func agreesWithTheFullParserOnValidStores() throws {
        // A TPM record is not the fast path's "$y$" shape: the full parser takes that line.
        let tpm = ascii(
            "tina:1001:$tpm2$01a50007$000b000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                + "$a0a1a2a3a4a5a6a7a8a9aaabacadaeaf:5\n")
        let store = line("alice") + line("bob", "1764460000") + tpm + line("carol") + line("b") + line("bobby")
        let records = try StoreRecord.parseStore(store)
        #expect(records.count == 6)
        for name in ["alice", "bob", "carol", "b", "bobby", "bo", "dave", "alice:", "tina"] {
            let expected = records.first { $0.user == ascii(name) }
            #expect(try find(name, in: store) == expected, "\(name)")
        }
        #expect(try find("x", in: []) == nil)
    }

    @Test func everyStructuralProblemOnAnyLineIsTheSameErrorAsTheFullParser() {
        // Problems that blur where a line or a field ends: these could hide or invent an enrolment.
        let bad: [[UInt8]] = [
            ascii("\n"), ascii("bob\n"), ascii("bob:") + hash + ascii(":1:extra\n"), ascii(":") + hash + ascii(":1\n"),
            ascii("bob:*:1\n"), ascii("bob:") + hash + ascii(":\n"), ascii("bob:") + hash + ascii(":1"),
            ascii("bob:$6$salt$hash:1\n"), Array(repeating: 0x61, count: 101) + ascii(":") + hash + ascii(":1\n"),
            ascii("bob:") + hash + Array(repeating: 0x41, count: 130) + ascii(":1\n"),
            ascii("bob:") + hash + ascii(":12345678901234567890\n"),
        ]
        for badLine in bad {
            // before and after the looked-up user's line: nothing is skipped either way
            for store in [line("alice") + badLine + line("carol"), badLine + line("alice")] {
                var full: StoreError? = nil
                do { _ = try StoreRecord.parseStore(store) } catch { full = error }
                var quick: StoreError? = nil
                do { _ = try find("alice", in: store) } catch { quick = error }
                #expect(full != nil)
                #expect(quick == full, "\(String(decoding: badLine, as: UTF8.self))")
            }
        }
    }

    @Test func otherUsersFieldContentsAreLeftToTheFullParser() throws {
        // A bad byte inside another user's name, hash or time cannot change alice's answer; the lookup
        // does not spend time on it. patternctl's full parser refuses such a store before any write.
        let content: [[UInt8]] = [
            ascii("b b:") + hash + ascii(":1\n"), ascii("bob:") + hash + ascii(":-1\n"),
            ascii("bob:") + hash + ascii(":01\n"),
            ascii("bob:") + hash + ascii(":1\r\n"), ascii("bob:$y$j75$sa!t$hash:1\n"),
        ]
        for otherLine in content {
            let store = line("alice") + otherLine
            #expect(try find("alice", in: store)?.user == ascii("alice"))
            #expect(throws: StoreError.self) { try StoreRecord.parseStore(store) }
        }
        // ...but the same faults on the looked-up user's own line are errors.
        for ownLine in [ascii("alice:") + hash + ascii(":-1\n"), ascii("alice:$y$j75$sa!t$hash:1\n")] {
            #expect(throws: StoreError.self) { try find("alice", in: line("bob") + ownLine) }
        }
    }

    @Test func theLookedUpLineGetsTheFullHashCheck() throws {
        let broken = ascii("alice:$y$j75$sa!t$hash:1\n")
        #expect(throws: StoreError.malformedLine(lineNumber: 2, reason: .badHash)) {
            try find("alice", in: line("bob") + broken)
        }
    }

    @Test func aDuplicateOfTheLookedUpUserIsAnError() {
        #expect(throws: StoreError.duplicateUser(lineNumber: 3, firstLineNumber: 1)) {
            try find("alice", in: line("alice") + line("bob") + line("alice"))
        }
    }

    @Test func readingThroughAFileInWindowsGivesTheSameAnswers() throws {
        let directory = TempDirectory()
        defer { directory.remove() }
        // ~3 windows of lines, so lines straddle window boundaries
        var store: [UInt8] = []
        for index in 0..<2500 { store += line("user\(index)") }
        let path = directory.file("patterns")
        writeBytes(path, store)
        for name in ["user0", "user1234", "user2499", "user2500"] {
            let fd = pattern_open(path, O_RDONLY | O_CLOEXEC, 0)
            #expect(fd >= 0)
            defer { close(fd) }
            let found = try StoreLookup.find(
                ascii(name), readingFrom: fd, size: Int64(fileStat(path).st_size), limit: 1 << 24)
            #expect(found?.user == (name == "user2500" ? nil : ascii(name)))
        }
        // a torn last line, and a file over the limit
        writeBytes(path, store + ascii("torn:$y$"))
        var fd = pattern_open(path, O_RDONLY | O_CLOEXEC, 0)
        #expect(throws: StoreError.malformedLine(lineNumber: 2501, reason: .missingNewline)) {
            try StoreLookup.find(ascii("user1"), readingFrom: fd, size: Int64(fileStat(path).st_size), limit: 1 << 24)
        }
        close(fd)
        fd = pattern_open(path, O_RDONLY | O_CLOEXEC, 0)
        #expect(throws: StoreError.self) {
            try StoreLookup.find(ascii("user1"), readingFrom: fd, size: Int64(fileStat(path).st_size), limit: 1000)
        }
        close(fd)
        // one line longer than a whole window
        writeBytes(path, line("alice") + Array(repeating: 0x61, count: StoreLookup.windowBytes + 10) + ascii("\n"))
        fd = pattern_open(path, O_RDONLY | O_CLOEXEC, 0)
        #expect(throws: StoreError.malformedLine(lineNumber: 2, reason: .wrongFieldCount(1))) {
            try StoreLookup.find(ascii("alice"), readingFrom: fd, size: Int64(fileStat(path).st_size), limit: 1 << 24)
        }
        close(fd)
    }

    /// A small store is read through a window its own size: a one-line store holding the longest valid line is
    /// found, and a store read from a pipe (no size known) through the smallest window still agrees with the
    /// full parser line for line.
    @Test func windowsSizedToTheStoreStillFindEveryLine() throws {
        let longest = Array(repeating: UInt8(ascii: "u"), count: StoreRecord.maximumUserNameBytes)
        let hash = ascii("$y$j75$salt$") + Array(repeating: UInt8(ascii: "a"), count: StoreRecord.maximumHashBytes - 12)
        let line = longest + ascii(":4294967294:") + hash + ascii(":1234567890123456789\n")
        #expect(line.count == StoreLookup.maximumLineBytes + 1)
        let record = try find(String(decoding: longest, as: UTF8.self), in: line)
        #expect(record?.uid == 4_294_967_294)

        var store: [UInt8] = []
        for i in 0..<3000 { store += self.line("user\(i)") }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        // The writer runs beside the lookup: the store is larger than a pipe holds. A pipe has no size, so the
        // lookup is told 0 and reads through the smallest window.
        let writer = fork()
        if writer == 0 {
            close(ends[0])
            _ = store.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            _exit(0)
        }
        close(ends[1])
        let found = try StoreLookup.find(ascii("user2999"), readingFrom: ends[0], size: 0, limit: 1 << 24)
        var status: Int32 = 0
        waitpid(writer, &status, 0)
        #expect(found?.user == ascii("user2999"))
    }
}
