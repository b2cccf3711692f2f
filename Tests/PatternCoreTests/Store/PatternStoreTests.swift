import Glibc
import Testing

@testable import PatternCore

@Suite(.serialized, .enabled(if: runningAsRoot, rootOnlyReason)) struct PatternStoreTests {
    @Test func roundTripSetVerifyRemove() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let storeDir = dir.file("pam_pattern")  // missing: save creates it 0700
        let store = PatternStore(path: Array((storeDir + "/patterns").utf8))

        #expect(throws: StoreError.missingDirectory) { try store.load() }

        let hash = try PatternHash.make(for: storePattern("1235789"), cost: 1)
        try store.save(StoreRecord(user: ascii("alice"), hash: hash, setAt: 1_764_460_000))
        let hash2 = try PatternHash.make(for: storePattern("14789"), cost: 1)
        try store.save(StoreRecord(user: ascii("bob"), hash: hash2, setAt: 5))

        // Mode, owner, directory mode, exact content.
        let file = fileStat(storeDir + "/patterns")
        #expect(file.st_mode & 0o7777 == 0o600)
        #expect(file.st_uid == 0)
        #expect(file.st_nlink == 1)
        let directory = fileStat(storeDir)
        #expect(directory.st_mode & 0o7777 == 0o700)
        #expect(directory.st_uid == 0)
        let expected = ascii("alice:") + hash + ascii(":1764460000\nbob:") + hash2 + ascii(":5\n")
        #expect(readBytes(storeDir + "/patterns") == expected)

        // Verify right and wrong.
        let record = try #require(try store.record(for: ascii("alice")))
        #expect(record.setAt == 1_764_460_000)
        #expect(record.cost == 1)
        #expect(PatternHash.verify(storePattern("1235789"), against: record.hash))
        #expect(!PatternHash.verify(storePattern("1235786"), against: record.hash))
        #expect(try store.record(for: ascii("carol")) == nil)

        // Replace in place keeps the order.
        try store.save(StoreRecord(user: ascii("alice"), hash: hash2, setAt: 7))
        #expect(
            readBytes(storeDir + "/patterns") == ascii("alice:") + hash2 + ascii(":7\nbob:") + hash2 + ascii(":5\n"))

        // Remove.
        #expect(try store.remove(user: ascii("alice")))
        #expect(try !store.remove(user: ascii("alice")))
        #expect(try store.record(for: ascii("alice")) == nil)
        #expect(readBytes(storeDir + "/patterns") == ascii("bob:") + hash2 + ascii(":5\n"))
        // Only the store and its lock remain: no temp files.
        #expect(dir.names() == ["pam_pattern"])
        let names = TempDirectory.names(of: storeDir)
        #expect(names == [".patterns.lock", "patterns"])
    }

    @Test func missingFileInSafeDirectoryIsNobodyEnrolled() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let store = PatternStore(path: dir.pathBytes("patterns"))
        #expect(try store.load() == [])
        #expect(try store.record(for: ascii("alice")) == nil)
    }

    /// Writes a valid one-user store and returns its path.
    private func validStore(_ dir: TempDirectory) -> String {
        let path = dir.file("patterns")
        writeBytes(path, ascii("alice:") + quickHash("1236") + ascii(":1\n"))
        return path
    }

    private func load(_ path: String) throws(StoreError) -> [StoreRecord] {
        try PatternStore(path: Array(path.utf8)).load()
    }

    @Test func groupReadableIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = validStore(dir)
        chmod(path, 0o640)
        #expect(throws: StoreError.accessibleByOthers(mode: 0o640)) { try load(path) }
        chmod(path, 0o604)
        #expect(throws: StoreError.accessibleByOthers(mode: 0o604)) { try load(path) }
    }

    @Test func worldWritableIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = validStore(dir)
        chmod(path, 0o602)
        #expect(throws: StoreError.writableByOthers(mode: 0o602)) { try load(path) }
    }

    @Test func ownedByAUserIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = validStore(dir)
        chown(path, 65534, 0)
        #expect(throws: StoreError.notOwnedByRoot(uid: 65534)) { try load(path) }
    }

    @Test func symlinkIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let real = validStore(dir)
        symlink(real, dir.file("link"))
        #expect(throws: StoreError.isSymlink) { try load(dir.file("link")) }
    }

    @Test func fifoIsRefusedWithoutHanging() {
        let dir = TempDirectory()
        defer { dir.remove() }
        mkfifo(dir.file("fifo"), 0o600)
        #expect(throws: StoreError.notRegularFile) { try load(dir.file("fifo")) }
    }

    @Test func directoryInPlaceOfFileIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        mkdir(dir.file("patterns"), 0o700)
        #expect(throws: StoreError.notRegularFile) { try load(dir.file("patterns")) }
    }

    @Test func hardLinkIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = validStore(dir)
        link(path, dir.file("other"))
        #expect(throws: StoreError.hardLinked(links: 2)) { try load(path) }
    }

    @Test func oversizeIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = validStore(dir)
        truncate(path, off_t(PatternStore.maximumFileBytes + 1))
        #expect(
            throws: StoreError.tooLarge(bytes: PatternStore.maximumFileBytes + 1, limit: PatternStore.maximumFileBytes)
        ) {
            try load(path)
        }
    }

    @Test func malformedLineIsRefusedWithItsNumber() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = dir.file("patterns")
        let good = ascii("alice:") + quickHash("1236") + ascii(":1\n")
        writeBytes(path, good + ascii("bob:nothash:2\n"))
        #expect(throws: StoreError.malformedLine(lineNumber: 2, reason: .badHash)) { try load(path) }
        writeBytes(path, good + ascii("bob") + quickHash("1236"))
        #expect(throws: StoreError.malformedLine(lineNumber: 2, reason: .missingNewline)) { try load(path) }
    }

    @Test func duplicateUserIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = dir.file("patterns")
        let line = ascii("alice:") + quickHash("1236") + ascii(":1\n")
        writeBytes(path, line + ascii("bob:") + quickHash("1236") + ascii(":1\n") + line)
        #expect(throws: StoreError.duplicateUser(lineNumber: 3, firstLineNumber: 1)) { try load(path) }
    }

    @Test func missingDirectoryIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        #expect(throws: StoreError.missingDirectory) { try load(dir.file("nowhere/patterns")) }
    }

    @Test func unsafeDirectoryIsRefused() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = validStore(dir)
        chmod(dir.path, 0o770)
        #expect(throws: StoreError.directoryWritableByOthers(mode: 0o770)) { try load(path) }
        chmod(dir.path, 0o755)  // readable directory is fine: the file's own mode protects it
        #expect((try? load(path))?.count == 1)
        chown(dir.path, 65534, 0)
        #expect(throws: StoreError.directoryNotOwnedByRoot(uid: 65534)) { try load(path) }
        chown(dir.path, 0, 0)
        let linkDir = dir.file("linkdir")
        mkdir(dir.file("real"), 0o700)
        symlink(dir.file("real"), linkDir)
        #expect(throws: StoreError.directoryIsSymlink) { try load(linkDir + "/patterns") }
    }

    @Test func saveRefusesUnsafeExistingStoreAndLeavesIt() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = validStore(dir)
        chmod(path, 0o644)
        let before = readBytes(path)
        let store = PatternStore(path: Array(path.utf8))
        #expect(throws: StoreError.accessibleByOthers(mode: 0o644)) {
            try store.save(StoreRecord(user: ascii("bob"), hash: quickHash("1236"), setAt: 1))
        }
        #expect(readBytes(path) == before)
    }

    @Test func staleTempFilesAreSweptUnderTheLock() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        writeBytes(dir.file(".patterns.tmp.999.0"), ascii("half a store"))
        writeBytes(dir.file(".patterns.tmp.12.3"), ascii("x"))
        writeBytes(dir.file(".other.tmp.1.0"), ascii("not ours"))
        let store = PatternStore(path: dir.pathBytes("patterns"))
        try store.save(StoreRecord(user: ascii("alice"), hash: quickHash("1236"), setAt: 1))
        #expect(dir.names() == [".other.tmp.1.0", ".patterns.lock", "patterns"])
    }

    @Test func saveRefusesBadNamesAndHashes() {
        let dir = TempDirectory()
        defer { dir.remove() }
        let store = PatternStore(path: dir.pathBytes("patterns"))
        for name in ["", "a:b", "a b", "a\nb", "a\tb", String(repeating: "x", count: 101)] {
            #expect(throws: StoreError.invalidUserName) {
                try store.save(StoreRecord(user: ascii(name), hash: quickHash("1236"), setAt: 1))
            }
        }
        #expect(throws: StoreError.invalidHash) {
            try store.save(StoreRecord(user: ascii("alice"), hash: ascii("$1$abc$def"), setAt: 1))
        }
        #expect(throws: StoreError.invalidPath) {
            try PatternStore(path: ascii("/tmp/a\u{0}b")).load()
        }
        #expect(dir.names() == [])
    }

    @Test func hundredThousandUsersFit() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let hash = quickHash("1236")
        var content: [UInt8] = []
        for index in 0..<100_000 {
            content += ascii("user\(index):") + hash + ascii(":1764460000\n")
        }
        #expect(Int64(content.count) < PatternStore.maximumFileBytes)
        writeBytes(dir.file("patterns"), content)
        let store = PatternStore(path: dir.pathBytes("patterns"))
        #expect(try store.record(for: ascii("user99999"))?.hash == hash)
    }
}
