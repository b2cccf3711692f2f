import CPatternSystem
import Glibc
import Testing

@testable import PatternCore

struct PatternHashTests {
    @Test func hashRules() {
        #expect(
            PatternHash.isValidHash(ascii("$y$j75$V2vmbzzAo9Fq0w4o8tfpN/$3Sb8qhRH7QgXoS6u4Mb7oG2F7A3pD5.rw1cyJ0K5sQ3")))
        #expect(!PatternHash.isValidHash(ascii("$y$j75$salt")))  // missing hash field
        #expect(!PatternHash.isValidHash(ascii("$y$j75$$hash")))  // empty salt
        #expect(!PatternHash.isValidHash(ascii("$y$j75$salt$hash$")))  // trailing '$'
        #expect(!PatternHash.isValidHash(ascii("$6$salt$hash")))  // not yescrypt
        #expect(!PatternHash.isValidHash(ascii("$y$j75$sa:t$hash")))  // ':' would break the line
        #expect(!PatternHash.isValidHash(ascii("$y$j75$salt$") + Array(repeating: 0x41, count: 130)))
    }

    @Test func hashIsAStandardYescryptStringOfTheCanonicalDigits() throws {
        let hash = try PatternHash.make(for: storePattern("1235789"), cost: 1)
        #expect(PatternHash.isValidHash(hash))
        #expect(Array(hash.prefix(7)) == ascii("$y$j75$"))
        // crypt_rn on the ASCII digits with the stored string as setting gives the stored string back
        // (Tests/patternctlTests/test_set_status.py checks what `patternctl set` writes with libxcrypt itself).
        var output = [CChar](repeating: 0, count: 384)
        #expect(pattern_crypt("1235789", String(decoding: hash, as: UTF8.self), &output, 384) == 0)
        #expect(String(cString: output) == String(decoding: hash, as: UTF8.self))
    }

    @Test func saltIsFreshEachTime() throws {
        let a = try PatternHash.make(for: storePattern("1236"), cost: 1)
        let b = try PatternHash.make(for: storePattern("1236"), cost: 1)
        #expect(a != b)
        #expect(PatternHash.verify(storePattern("1236"), against: a))
        #expect(PatternHash.verify(storePattern("1236"), against: b))
    }

    @Test func verifyRejectsWrongPatternsAndMalformedHashes() throws {
        let hash = try PatternHash.make(for: storePattern("1236"), cost: 1)
        #expect(!PatternHash.verify(storePattern("1235"), against: hash))
        #expect(!PatternHash.verify(storePattern("12369"), against: hash))
        #expect(!PatternHash.verify(storePattern("1236"), against: []))
        #expect(!PatternHash.verify(storePattern("1236"), against: Array(hash.dropLast())))
        #expect(!PatternHash.verify(storePattern("1236"), against: ascii("$1$salt$hash")))
        // Dots outside 1...9, none, or too many are never hashed.
        #expect(!PatternHash.verify(Pattern(canonicalDots: []), against: hash))
        #expect(!PatternHash.verify(Pattern(canonicalDots: [1, 2, 3, 10]), against: hash))
        #expect(!PatternHash.verify(Pattern(canonicalDots: Array(repeating: 1, count: 10)), against: hash))
        #expect(throws: HashError.invalidPattern) {
            try PatternHash.make(for: Pattern(canonicalDots: [0, 1]), cost: 1)
        }
    }

    @Test(arguments: 1...11) func costIsReadBackFromTheHash(cost: Int) throws {
        var setting = [CChar](repeating: 0, count: 192)
        #expect(crypt_gensalt_rn("$y$", UInt(cost), nil, 0, &setting, 192) != nil)
        let settingBytes = Array(String(cString: setting).utf8) + ascii("$AAAA")
        #expect(PatternHash.cost(ofHash: settingBytes) == cost)
    }

    @Test func costFiveAndSevenFromRealHashes() throws {
        #expect(
            StoreRecord(user: ascii("a"), hash: try PatternHash.make(for: storePattern("1236"), cost: 5), setAt: 0).cost
                == 5)
        #expect(
            StoreRecord(user: ascii("a"), hash: try PatternHash.make(for: storePattern("1236"), cost: 7), setAt: 0).cost
                == 7)
        #expect(PatternHash.cost(ofHash: ascii("$y$jZT$salt$hash")) == nil)
        #expect(PatternHash.cost(ofHash: ascii("$y$j9T")) == nil)
    }

    @Test func invalidCostsAreRefused() {
        for cost in [0, -1, 12, Int.max] {
            #expect(throws: HashError.invalidCost(cost)) {
                try PatternHash.make(for: storePattern("1236"), cost: cost)
            }
        }
    }

    @Test func constantTimeCompareChecksEveryByte() {
        let hash = ascii("$y$j75$abc$def")
        var output = hash.map { CChar(bitPattern: $0) } + [0, 0]
        #expect(PatternHash.constantTimeEqual(output, hash))
        output[13] = CChar(0x65)
        #expect(!PatternHash.constantTimeEqual(output, hash))
        #expect(!PatternHash.constantTimeEqual(hash.dropLast().map { CChar(bitPattern: $0) } + [0], hash))
        #expect(!PatternHash.constantTimeEqual((hash + ascii("x")).map { CChar(bitPattern: $0) } + [0], hash))
    }

    /// Equal timing for unenrolled users comes from hashing at the same cost; checked on the setting itself
    /// (a clock-based check would be a timed unit test; `patternctl bench` measures the time).
    @Test func dummyVerifyHashesAtTheRequestedCost() throws {
        for cost in [1, 5, 7, 9] {
            let setting = try #require(PatternHash.dummySetting(cost: cost))
            let bytes = setting.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            #expect(PatternHash.cost(ofHash: bytes) == cost)
        }
        let fallback = try #require(PatternHash.dummySetting(cost: 99))
        #expect(
            PatternHash.cost(ofHash: fallback.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
                == PatternHash.defaultCost)
    }
}
