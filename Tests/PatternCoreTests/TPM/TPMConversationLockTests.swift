import Glibc
import Testing

@testable import PatternCore

/// The TPM-wide conversation lock beside the store: exclusive, and its wait bounded by the caller.
struct TPMConversationLockTests {
    @Test func aSecondConversationWaitsItsBoundThenIsBusy() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let store = PatternStore(path: dir.pathBytes("patterns"))
        let first = try TPMConversationLock(store: store, waitingAtMost: 100)
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        #expect(throws: StoreError.lockBusy(waitedSeconds: 1)) {
            _ = try TPMConversationLock(store: store, waitingAtMost: 300)
        }
        clock_gettime(CLOCK_MONOTONIC, &end)
        let waited = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        #expect(waited >= 0.29)
        first.release()
        let second = try TPMConversationLock(store: store, waitingAtMost: 100)
        second.release()
        // Root-only, beside the store.
        var info = stat()
        #expect(stat(dir.file(".patterns.tpm-conversation.lock"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }
}
