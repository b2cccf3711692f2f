import Testing

@testable import PatternCore

/// Hashing has its own error type; what people read is the same sentence whether patternctl gets it from
/// PatternHash directly or the gate carries it as a store failure.
struct HashErrorTests {
    @Test func messagesAreTheSentencesPeopleRead() {
        #expect(HashError.invalidCost(0).message == "invalid yescrypt cost 0 (allowed: 1 to 11)")
        #expect(HashError.invalidPattern.message == "invalid pattern (1 to 9 dots, each 1 to 9)")
        #expect(HashError.failed(errno: 12).message == "libcrypt could not hash (errno 12)")
    }

    @Test func carriedAsAStoreFailureTheMessageIsUnchanged() {
        for error in [HashError.invalidCost(12), .invalidPattern, .failed(errno: 22)] {
            #expect(StoreError.hash(error).message == error.message)
        }
    }
}
