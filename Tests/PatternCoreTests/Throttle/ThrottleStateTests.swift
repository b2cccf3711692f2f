import Glibc
import Testing

@testable import PatternCore

@Suite(.serialized, .enabled(if: runningAsRoot, rootOnlyReason)) struct ThrottleStateTests {
    @Test func recordFormatIsFixedWidth() {
        let state = ThrottleState(failures: 7, lastFailure: 1_764_460_000)
        #expect(state.encoded() == ascii("0000000007 0000000001764460000\n"))
        #expect(ThrottleState.parse(state.encoded()) == state)
        #expect(ThrottleState.parse([]) == .zero)
        #expect(ThrottleState.parse(ascii("7 1764460000\n")) == nil)
        #expect(ThrottleState.parse(ascii("000000000x 0000000001764460000\n")) == nil)
        #expect(ThrottleState(failures: -3, lastFailure: -9).encoded() == ThrottleState.zero.encoded())
    }

    @Test func fileNameIsHexOfTheUserName() {
        #expect(ThrottleStore.fileName(for: ascii("alice")) == ascii("616c696365"))
        #expect(ThrottleStore.fileName(for: ascii("..")) == ascii("2e2e"))
        #expect(ThrottleStore.fileName(for: ascii("a/b")) == ascii("612f62"))
        #expect(ThrottleStore.fileName(for: ascii("a b")) == nil)
        #expect(ThrottleStore.fileName(for: Array(repeating: 0x61, count: 100))?.count == 200)
    }

    @Test func stateSurvivesANewInstanceAndIsRootOnly() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let stateDir = dir.file("state")
        let store = PatternStore(path: dir.pathBytes("patterns"))
        try store.save(StoreRecord(user: ascii("alice"), hash: quickHash("1236"), setAt: 1))
        let gate = GuessGate(
            store: store, throttle: ThrottleStore(directory: Array(stateDir.utf8)), settings: ThrottleSettings())
        #expect(try ThrottleStore(directory: Array(stateDir.utf8)).state(for: ascii("alice")) == .zero)  // no dir yet
        for index in 0..<3 { _ = try gate.attempt(user: ascii("alice"), pattern: wrongPatterns[index], now: 1000) }

        // A fresh instance (as after a restart) reads the same count from the file.
        let reread = ThrottleStore(directory: Array(stateDir.utf8))
        #expect(try reread.state(for: ascii("alice")) == ThrottleState(failures: 3, lastFailure: 1000))
        #expect(readBytes(stateDir + "/616c696365") == ascii("0000000003 0000000000000001000\n"))
        let file = fileStat(stateDir + "/616c696365")
        #expect(file.st_mode & 0o7777 == 0o600 && file.st_uid == 0)
        #expect(fileStat(stateDir).st_mode & 0o7777 == 0o700)

        try reread.reset(user: ascii("alice"))
        #expect(try ThrottleStore(directory: Array(stateDir.utf8)).state(for: ascii("alice")) == .zero)
    }

    @Test func unsafeOrMalformedStateFailsClosed() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let throttle = ThrottleStore(directory: Array(dir.path.utf8))
        let file = dir.file("616c696365")
        writeBytes(file, ascii("0000000003 0000000000000001000\n"))
        chmod(file, 0o644)
        #expect(throws: StoreError.accessibleByOthers(mode: 0o644)) { try throttle.state(for: ascii("alice")) }
        chmod(file, 0o600)
        chown(file, 65534, 0)
        #expect(throws: StoreError.notOwnedByRoot(uid: 65534)) { try throttle.state(for: ascii("alice")) }
        // A user-owned file cannot be "reset" by them and is not silently trusted.
        #expect(throws: StoreError.notOwnedByRoot(uid: 65534)) { try throttle.reset(user: ascii("alice")) }
        chown(file, 0, 0)
        unlink(file)
        symlink("/etc/shadow", file)
        #expect(throws: StoreError.isSymlink) { try throttle.state(for: ascii("alice")) }
        unlink(file)
        writeBytes(file, ascii("garbage"))
        #expect(throws: StoreError.malformedState) { try throttle.state(for: ascii("alice")) }
        // Root's reset repairs a malformed file.
        try throttle.reset(user: ascii("alice"))
        #expect(try throttle.state(for: ascii("alice")) == .zero)
        writeBytes(file, Array(repeating: 0x30, count: 65))
        #expect(throws: StoreError.tooLarge(bytes: 65, limit: 64)) { try throttle.state(for: ascii("alice")) }
    }
}
