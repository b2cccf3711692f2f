import Testing
@testable import PatternCore

struct StoreRecordTests {
    let hash = bytes("$y$j75$V2vmbzzAo9Fq0w4o8tfpN/$3Sb8qhRH7QgXoS6u4Mb7oG2F7A3pD5.rw1cyJ0K5sQ3")

    @Test func lineFormatIsUserHashTime() throws {
        let record = StoreRecord(user: bytes("alice"), hash: hash, setAt: 1_764_460_000)
        #expect(record.encoded() == bytes("alice:") + hash + bytes(":1764460000\n"))
        #expect(try StoreRecord.parseStore(record.encoded()) == [record])
        #expect(try StoreRecord.parseStore([]) == [])
    }

    @Test func userNameRules() {
        #expect(StoreRecord.isValidUserName(bytes("alice")))
        #expect(StoreRecord.isValidUserName(bytes("j.doe-1_x@example")))
        #expect(StoreRecord.isValidUserName(bytes("jos\u{e9}")))  // UTF-8 bytes allowed
        #expect(StoreRecord.isValidUserName(Array(repeating: 0x61, count: 100)))
        for bad in [[], Array(repeating: 0x61, count: 101), bytes("a:b"), bytes("a b"), [0x61, 0x00], [0x61, 0x7F], [0x61, 0x0A]] {
            #expect(!StoreRecord.isValidUserName(bad))
        }
    }

    @Test func hashRules() {
        #expect(StoreRecord.isValidHash(hash))
        #expect(!StoreRecord.isValidHash(bytes("$y$j75$salt")))          // missing hash field
        #expect(!StoreRecord.isValidHash(bytes("$y$j75$$hash")))         // empty salt
        #expect(!StoreRecord.isValidHash(bytes("$y$j75$salt$hash$")))    // trailing '$'
        #expect(!StoreRecord.isValidHash(bytes("$6$salt$hash")))         // not yescrypt
        #expect(!StoreRecord.isValidHash(bytes("$y$j75$sa:t$hash")))     // ':' would break the line
        #expect(!StoreRecord.isValidHash(bytes("$y$j75$salt$") + Array(repeating: 0x41, count: 130)))
    }

    @Test func everyMalformedLineIsNamed() throws {
        let good = bytes("alice:") + hash + bytes(":1\n")
        let cases: [([UInt8], LineProblem)] = [
            (bytes("\n"), .emptyLine),
            (bytes("bob\n"), .wrongFieldCount(1)),
            (bytes("bob:") + hash + bytes(":1:extra\n"), .wrongFieldCount(4)),
            (bytes(":") + hash + bytes(":1\n"), .badUserName),
            (bytes("b b:") + hash + bytes(":1\n"), .badUserName),
            (bytes("bob:*:1\n"), .badHash),
            (bytes("bob:") + hash + bytes(":\n"), .badTime),
            (bytes("bob:") + hash + bytes(":-1\n"), .badTime),
            (bytes("bob:") + hash + bytes(":+1\n"), .badTime),
            (bytes("bob:") + hash + bytes(":01\n"), .badTime),
            (bytes("bob:") + hash + bytes(": 1\n"), .badTime),
            (bytes("bob:") + hash + bytes(":1\r\n"), .badTime),
            (bytes("bob:") + hash + bytes(":9223372036854775808\n"), .badTime),
            (bytes("bob:") + hash + bytes(":1"), .missingNewline),
        ]
        for (line, problem) in cases {
            #expect(throws: StoreError.malformedLine(lineNumber: 2, reason: problem)) {
                try StoreRecord.parseStore(good + line)
            }
        }
        #expect(try StoreRecord.parseStore(good + bytes("bob:") + hash + bytes(":9223372036854775807\n")).count == 2)
    }

    @Test func duplicatesAreErrorsNotSkips() {
        let a = bytes("alice:") + hash + bytes(":1\n")
        let b = bytes("bob:") + hash + bytes(":1\n")
        #expect(throws: StoreError.duplicateUser(lineNumber: 2, firstLineNumber: 1)) { try StoreRecord.parseStore(a + a) }
        #expect(throws: StoreError.duplicateUser(lineNumber: 4, firstLineNumber: 2)) {
            try StoreRecord.parseStore(a + b + bytes("carol:") + hash + bytes(":1\n") + b + a)
        }
    }

    @Test func messagesNameTheLine() {
        #expect(StoreError.malformedLine(lineNumber: 7, reason: .badHash).message.contains("line 7"))
        #expect(StoreError.accessibleByOthers(mode: 0o644).message.contains("0644"))
    }
}
