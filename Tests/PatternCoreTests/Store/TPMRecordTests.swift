import Testing

@testable import PatternCore

struct TPMRecordTests {
    let name: [UInt8] = [0x00, 0x0B] + Array(0..<32)
    let salt: [UInt8] = Array(0xA0..<0xB0)

    var text: String {
        "$tpm2$01a50007$000b000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
            + "$a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
    }

    @Test func textFormRoundTrips() throws {
        let record = try #require(TPMRecord(handle: 0x01A5_0007, name: name, salt: salt))
        #expect(record.text == ascii(text))
        #expect(record.text.count == TPMRecord.textSize)
        #expect(TPMRecord(text: ascii(text)) == record)
        #expect(TPMRecord.isTPMField(ascii(text)))
        #expect(!TPMRecord.isTPMField(ascii("$y$j75$salt$hash")))
        // Nothing in it can break a store line.
        #expect(!record.text.contains(0x3A) && !record.text.contains(0x0A))
    }

    @Test func strictParsing() {
        var variants: [String] = [
            text.uppercased(),  // one spelling: lower-case hex
            text.replacingOccurrences(of: "$tpm2$", with: "$tpm3$"),
            String(text.dropLast()),  // short salt
            text + "0",  // long salt
            text.replacingOccurrences(of: "01a50007", with: "01a60007"),  // handle out of range
            text.replacingOccurrences(of: "$000b", with: "$000c"),  // not a SHA-256 Name
            text.replacingOccurrences(of: "$a0a1", with: "$a0g1"),
            "",
        ]
        variants.append(text.replacingOccurrences(of: "$a0a1", with: ":a0a1"))
        for bad in variants {
            #expect(TPMRecord(text: ascii(bad)) == nil, "\(bad)")
        }
    }

    @Test func memberwiseChecks() {
        #expect(TPMRecord(handle: 0x0180_0400, name: name, salt: salt) == nil)
        #expect(TPMRecord(handle: 0x01A5_0000, name: Array(name.dropLast()), salt: salt) == nil)
        #expect(TPMRecord(handle: 0x01A5_0000, name: name, salt: Array(salt.dropLast())) == nil)
        #expect(TPMRecord(handle: 0x01A5_FFFE, name: name, salt: salt) != nil)
        // The session-key index is never a pattern's.
        #expect(TPMRecord(handle: TPMIndexRange.sessionKey, name: name, salt: salt) == nil)
    }

    @Test func firstFreeHandle() {
        let first = TPMIndexRange.first
        #expect(TPMIndexRange.firstFree(defined: []) == first)
        #expect(TPMIndexRange.firstFree(defined: [first + 1, first]) == first + 2)
        #expect(TPMIndexRange.firstFree(defined: [first, first + 2]) == first + 1)
        #expect(TPMIndexRange.firstFree(defined: [0x0180_0400, first]) == first + 1)
        #expect(TPMIndexRange.firstFree(defined: [first + 5], from: first + 5) == first + 6)
        #expect(TPMIndexRange.firstFree(defined: Array(TPMIndexRange.handles)) == nil)
        #expect(TPMIndexRange.firstFree(defined: [], from: 0x0180_0000) == nil)
    }
}

struct TPMPinAuthTests {
    let salt: [UInt8] = Array(0x00..<0x10)

    func pattern(_ digits: String) throws -> Pattern {
        return try Pattern.parse(ascii(digits))
    }

    @Test func valueIsHMACOfLabelUserAndCanonicalDots() throws {
        // From Python: hmac.new(salt, b"pam_pattern tpm pin v1\0alice\0" b"1235789", sha256)
        let value = TPMPinAuth.value(salt: salt, user: ascii("alice"), pattern: try pattern("1379"))
        #expect(value == SHA256.hmac(key: salt, message: ascii("pam_pattern tpm pin v1\u{0}alice\u{0}1235789")))
        #expect(value.count == 32)
    }

    @Test func everyInputChangesTheValue() throws {
        let base = TPMPinAuth.value(salt: salt, user: ascii("alice"), pattern: try pattern("1235789"))
        #expect(
            TPMPinAuth.value(salt: Array(salt.reversed()), user: ascii("alice"), pattern: try pattern("1235789"))
                != base)
        #expect(TPMPinAuth.value(salt: salt, user: ascii("alicf"), pattern: try pattern("1235789")) != base)
        #expect(TPMPinAuth.value(salt: salt, user: ascii("alice"), pattern: try pattern("1235987")) != base)
        // User and dots are separated: ("alice1", "2345") is not ("alice", "12345").
        #expect(
            TPMPinAuth.value(salt: salt, user: ascii("alice1"), pattern: try pattern("2345"))
                != TPMPinAuth.value(salt: salt, user: ascii("alice"), pattern: try pattern("12345")))
    }

    @Test func policyTagIsPerSalt() {
        #expect(TPMPinAuth.policyTag(salt: salt) != TPMPinAuth.policyTag(salt: Array(salt.reversed())))
        #expect(TPMPinAuth.policyTag(salt: salt) == SHA256.hash(ascii("pam_pattern tpm record v1\u{0}") + salt))
    }
}
