import CPatternSystem

/// The pattern store: one root-only file of `user:uid:hash:setAt` lines (legacy `user:hash:setAt` lines are
/// still read; FILEFORMAT.md).
///
/// Reads take no lock: writers replace the file with rename(2), so a reader sees the old or the new file,
/// whole. Writes take an exclusive flock on `.<name>.lock` in the same directory, write a temp file
/// `.<name>.tmp.<pid>.<n>`, fsync it, rename it over the store and fsync the directory.
public struct PatternStore: Sendable {
    /// "/etc/security/pam_pattern/patterns".
    public static let defaultPath: [UInt8] = Array("/etc/security/pam_pattern/patterns".utf8)
    /// Largest store read: 16 MiB. 100,000 users with ordinary names take about 9.5 MB.
    public static let maximumFileBytes: Int64 = 16 * 1024 * 1024

    /// The store file's path, as bytes.
    public let path: [UInt8]

    public init(path: [UInt8]) {
        self.path = path
    }

    /// Every record, in file order. Runs all safety checks; a missing FILE in a safe directory means nobody is
    /// enrolled and returns []; a missing DIRECTORY is `StoreError.missingDirectory`.
    public func load() throws(StoreError) -> [StoreRecord] {
        let location = try SafeFile.split(path)
        guard let directory = try SafeFile.openDirectory(location.directory, create: false) else {
            throw .missingDirectory
        }
        defer { SystemCall.close(directory) }
        return try read(in: directory, location) ?? []
    }

    /// The user's record, or nil if not enrolled. Every line of the store is still checked (StoreLookup),
    /// without building records for the other users.
    public func record(for user: [UInt8]) throws(StoreError) -> StoreRecord? {
        guard StoreRecord.isValidUserName(user) else { return nil }
        let location = try SafeFile.split(path)
        guard let directory = try SafeFile.openDirectory(location.directory, create: false) else {
            throw .missingDirectory
        }
        defer { SystemCall.close(directory) }
        guard let opened = try openForReading(in: directory, location) else { return nil }
        defer { SystemCall.close(opened.fd) }
        return try StoreLookup.find(
            user, readingFrom: opened.fd, size: opened.size, limit: PatternStore.maximumFileBytes)
    }

    /// The user's record, only if it belongs to the account that has this name now (`requireAccount`): a
    /// record of a deleted account throws `accountMismatch`, never "enrolled". What the module and the helper
    /// use before prompting and when checking a guess.
    public func boundRecord(for user: [UInt8]) throws(StoreError) -> StoreRecord? {
        guard let record = try record(for: user) else { return nil }
        try record.requireAccount()
        return record
    }

    /// Adds the record, or replaces the user's existing one in place. Locked, atomic.
    public func save(_ record: StoreRecord) throws(StoreError) {
        guard StoreRecord.isValidUserName(record.user) else { throw .invalidUserName }
        guard StoreRecord.isValidCredential(record.hash) else { throw .invalidHash }
        _ = try update { (records: inout [StoreRecord]) -> Bool in
            for index in records.indices where records[index].user == record.user {
                records[index] = record
                return true
            }
            records.append(record)
            return true
        }
    }

    /// Removes the user's record. Returns true if there was one (the file is rewritten only then).
    public func remove(user: [UInt8]) throws(StoreError) -> Bool {
        guard StoreRecord.isValidUserName(user) else { return false }
        return try update { (records: inout [StoreRecord]) -> Bool in
            let before = records.count
            records.removeAll { $0.user == user }
            return records.count != before
        }
    }

    /// Removes `record` only if the store still holds exactly it for its user (not a line set meanwhile).
    /// Returns true if it was removed.
    public func removeIfUnchanged(_ record: StoreRecord) throws(StoreError) -> Bool {
        return try update { (records: inout [StoreRecord]) -> Bool in
            let before = records.count
            records.removeAll { $0 == record }
            return records.count != before
        }
    }

    // MARK: - Reading

    /// Reads and parses the whole store through `directory` (patternctl and writers; the module uses
    /// `record(for:)`); nil if the file does not exist.
    private func read(in directory: Int32, _ location: SafeFile.Location) throws(StoreError) -> [StoreRecord]? {
        guard let opened = try openForReading(in: directory, location) else { return nil }
        defer { SystemCall.close(opened.fd) }
        let bytes: [UInt8]
        do throws(Errno) {
            let limit = Int(PatternStore.maximumFileBytes)
            guard let all = try SystemCall.readAll(opened.fd, limit: limit, size: opened.size) else {
                throw Errno(code: EFBIG)
            }
            bytes = all
        } catch {
            if error.code == EFBIG {
                throw .tooLarge(bytes: PatternStore.maximumFileBytes + 1, limit: PatternStore.maximumFileBytes)
            }
            throw .system(operation: .read, errno: error.code)
        }
        return try StoreRecord.parseStore(bytes)
    }

    /// How often a read opens the store again after finding it replaced (see `openForReading`).
    static let maximumReopens = 8

    /// Opens the store to read (no lock: writers rename) and runs the file checks: the descriptor and the size
    /// the checks saw, nil if there is no file.
    /// A writer's rename between our open and our fstat leaves us the previous store, unlinked: 0 links.
    /// The new store is already in place, so that is not a hard-link attack but a reason to open again
    /// (found by Tests/ConcurrencyTests: logins failed with PAM_AUTHINFO_UNAVAIL during `patternctl set`).
    private func openForReading(
        in directory: Int32, _ location: SafeFile.Location
    ) throws(StoreError) -> (
        fd: Int32, size: Int64
    )? {
        var reopens = 0
        while true {
            let fd: Int32
            do {
                fd = try SystemCall.openat(directory, location.name, SafeFile.readFlags)
            } catch {
                if error.code == ENOENT { return nil }
                throw SafeFile.fileOpenError(error)
            }
            do {
                return (fd, try SafeFile.checkFile(fd, limit: PatternStore.maximumFileBytes))
            } catch {
                SystemCall.close(fd)
                guard case .hardLinked(links: 0) = error, reopens < PatternStore.maximumReopens else { throw error }
                reopens += 1
            }
        }
    }

    // MARK: - Writing

    /// The temp-file prefix ".<name>.tmp." that the sweep recognises as ours.
    private func tempPrefix(_ location: SafeFile.Location) -> [UInt8] {
        return [0x2E] + location.nameBytes + Array(".tmp.".utf8)
    }

    /// Runs `change` on the current records under the store lock, and writes the result if it returns true.
    /// Returns what `change` returned.
    private func update(_ change: (inout [StoreRecord]) -> Bool) throws(StoreError) -> Bool {
        let location = try SafeFile.split(path)
        guard let directory = try SafeFile.openDirectory(location.directory, create: true) else {
            throw .missingDirectory
        }
        defer { SystemCall.close(directory) }

        // The setuid helper writes for a user who could SIGSTOP it while it holds the store lock, and stall
        // every other user's writes: it holds the lock as real uid root (only root can signal it then).
        let hold = SignalProofHold()
        defer { hold.end() }
        let lock = try SafeFile.takeLockFile(in: directory, location, suffix: ".lock", LOCK_EX)
        defer { SystemCall.close(lock) }  // closing the last descriptor releases the flock

        sweepTemps(in: directory, prefix: tempPrefix(location))

        var records = try read(in: directory, location) ?? []
        guard change(&records) else { return false }
        try PatternStore.bindAccounts(&records)
        try replace(in: directory, location, with: StoreRecord.encodeStore(records))
        return true
    }

    /// Records written before they carried a uid are bound, at each write, to the account their name has now;
    /// a name without an account stays unbound (and `patternctl prune` can remove it). Not inlined: one copy
    /// for every kind of change.
    @inline(never)
    static func bindAccounts(_ records: inout [StoreRecord]) throws(StoreError) {
        for index in records.indices where records[index].uid == nil {
            if let uid = try Account.uid(of: records[index].user) { records[index].uid = uid }
        }
    }

    /// Removes temp files a killed writer left behind. Called with the lock held, so none is in use.
    private func sweepTemps(in directory: Int32, prefix: [UInt8]) {
        SafeFile.sweepTemps(in: directory, prefix: prefix)
    }

    /// Replaces the store whole (SafeFile.replace): a reader sees the old or the new file, never a mix.
    private func replace(in directory: Int32, _ location: SafeFile.Location, with bytes: [UInt8]) throws(StoreError) {
        try SafeFile.replace(in: directory, name: location.name, tempPrefix: tempPrefix(location), with: bytes)
    }
}
