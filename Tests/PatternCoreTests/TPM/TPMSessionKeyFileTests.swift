import Glibc
import Testing

@testable import PatternCore

/// The session key's secret beside the store: 32 bytes, root-only, and anything else reads as "none".
struct TPMSessionKeyFileTests {
    @Test func writtenThenReadBackRootOnly() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let file = TPMSessionKeyFile(store: PatternStore(path: dir.pathBytes("patterns")))
        #expect(file.read() == nil)
        let secret = [UInt8](0..<32)
        try file.write(secret)
        #expect(file.read() == secret)
        var info = stat()
        #expect(stat(dir.file(".patterns.tpm-session-key"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(throws: StoreError.self) { try file.write([1, 2, 3]) }
    }

    @Test func aWrongSizeOrAnUnsafeFileIsNoKey() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let file = TPMSessionKeyFile(store: PatternStore(path: dir.pathBytes("patterns")))
        writeBytes(dir.file(".patterns.tpm-session-key"), [UInt8](repeating: 7, count: 31))
        #expect(file.read() == nil)
        writeBytes(dir.file(".patterns.tpm-session-key"), [UInt8](repeating: 7, count: 32), mode: 0o644)
        _ = chmod(dir.file(".patterns.tpm-session-key"), 0o644)
        #expect(file.read() == nil)
        _ = chmod(dir.file(".patterns.tpm-session-key"), 0o600)
        #expect(file.read() == [UInt8](repeating: 7, count: 32))
    }
}
