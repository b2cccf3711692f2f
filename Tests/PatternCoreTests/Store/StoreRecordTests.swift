import Testing

@testable import PatternCore

struct StoreRecordTests {
    let hash = ascii("$y$j75$V2vmbzzAo9Fq0w4o8tfpN/$3Sb8qhRH7QgXoS6u4Mb7oG2F7A3pD5.rw1cyJ0K5sQ3")

    @Test func lineFormatIsUserHashTime() throws {
        let record = StoreRecord(user: ascii("alice"), hash: hash, setAt: 1_764_460_000)
        #expect(record.encoded() == ascii("alice:") + hash + ascii(":1764460000\n"))
        #expect(try StoreRecord.parseStore(record.encoded()) == [record])
        #expect(try StoreRecord.parseStore([]) == [])
    }

    @Test func userNameRules() {
        #expect(StoreRecord.isValidUserName(ascii("alice")))
        #expect(StoreRecord.isValidUserName(ascii("j.doe-1_x@example")))
        #expect(StoreRecord.isValidUserName(ascii("jos\u{e9}")))  // UTF-8 bytes allowed
        #expect(StoreRecord.isValidUserName(Array(repeating: 0x61, count: 100)))
        for bad in [
            [], Array(repeating: 0x61, count: 101), ascii("a:b"), ascii("a b"), [0x61, 0x00], [0x61, 0x7F],
            [0x61, 0x0A],
        ] {
            #expect(!StoreRecord.isValidUserName(bad))
        }
    }

    @Test func everyMalformedLineIsNamed() throws {
        let good = ascii("alice:") + hash + ascii(":1\n")
        let cases: [([UInt8], LineProblem)] = [
            (ascii("\n"), .emptyLine),
            (ascii("bob\n"), .wrongFieldCount(1)),
            // Four fields: the second is a uid, and a hash there is not one.
            (ascii("bob:") + hash + ascii(":1:extra\n"), .badUid),
            (ascii("bob:1:") + hash + ascii(":1:extra\n"), .wrongFieldCount(5)),
            (ascii("bob:01:") + hash + ascii(":1\n"), .badUid),
            (ascii("bob:1:*:1\n"), .badHash),
            (ascii(":") + hash + ascii(":1\n"), .badUserName),
            (ascii("b b:") + hash + ascii(":1\n"), .badUserName),
            (ascii("bob:*:1\n"), .badHash),
            (ascii("bob:") + hash + ascii(":\n"), .badTime),
            (ascii("bob:") + hash + ascii(":-1\n"), .badTime),
            (ascii("bob:") + hash + ascii(":+1\n"), .badTime),
            (ascii("bob:") + hash + ascii(":01\n"), .badTime),
            (ascii("bob:") + hash + ascii(": 1\n"), .badTime),
            (ascii("bob:") + hash + ascii(":1\r\n"), .badTime),
            (ascii("bob:") + hash + ascii(":9223372036854775808\n"), .badTime),
            (ascii("bob:") + hash + ascii(":1"), .missingNewline),
        ]
        for (line, problem) in cases {
            #expect(throws: StoreError.malformedLine(lineNumber: 2, reason: problem)) {
                try StoreRecord.parseStore(good + line)
            }
        }
        #expect(try StoreRecord.parseStore(good + ascii("bob:") + hash + ascii(":9223372036854775807\n")).count == 2)
    }

    @Test func duplicatesAreErrorsNotSkips() {
        let a = ascii("alice:") + hash + ascii(":1\n")
        let b = ascii("bob:") + hash + ascii(":1\n")
        #expect(throws: StoreError.duplicateUser(lineNumber: 2, firstLineNumber: 1)) {
            try StoreRecord.parseStore(a + a)
        }
        #expect(throws: StoreError.duplicateUser(lineNumber: 4, firstLineNumber: 2)) {
            try StoreRecord.parseStore(a + b + ascii("carol:") + hash + ascii(":1\n") + b + a)
        }
    }

    @Test func messagesNameTheLine() {
        #expect(StoreError.malformedLine(lineNumber: 7, reason: .badHash).message.contains("line 7"))
        #expect(StoreError.accessibleByOthers(mode: 0o644).message.contains("0644"))
    }
}
