import CPatternSystem

/// Where and how attempt records live: `<state directory>/<hex of user name>.attempts`, beside the user's
/// throttle state, under the same directory and file rules (root, 0600, O_NOFOLLOW, one link, size cap).
/// Replaced whole by rename (SafeFile.replace), so readers need no lock; writers hold the user's state lock.
extension ThrottleStore {
    /// "<hex>.attempts": the '.' cannot occur in a hex state name, so no user's state file can collide.
    static func attemptFileName(for user: [UInt8]) -> [UInt8]? {
        guard let name = fileName(for: user) else { return nil }
        return name + Array(".attempts".utf8)
    }

    /// The user's attempt record; a missing directory or file is the empty record. Takes no lock.
    public func attempts(for user: [UInt8]) throws(StoreError) -> AttemptRecord {
        let name = ThrottleStore.attemptFileName(for: user)
        guard let fd = try openForReading(name, limit: Int64(AttemptRecord.maximumFileBytes)) else { return .empty }
        defer { SystemCall.close(fd) }
        let bytes: [UInt8]?
        do { bytes = try SystemCall.readAll(fd, limit: AttemptRecord.maximumFileBytes) } catch {
            throw .system(operation: .read, errno: error.code)
        }
        guard let bytes, let record = AttemptRecord.parse(bytes) else { throw .malformedAttemptRecord }
        return record
    }

    /// Replaces the user's attempt record. The caller holds the user's state lock (LockedThrottleState),
    /// which serialises writers; stale temp files of this record are swept first. Not fsynced: it is written
    /// twice on every login (before the hash, and put back after a success), fsync tripled a login's time,
    /// and a crash can only lose history; the throttle count, which guards, stays durable.
    func replaceAttempts(_ record: AttemptRecord, for user: [UInt8]) throws(StoreError) {
        guard let name = ThrottleStore.attemptFileName(for: user), let cName = SystemCall.cString(name) else {
            throw .invalidUserName
        }
        guard let path = SystemCall.cString(directory) else { throw .invalidPath }
        guard let directoryFD = try SafeFile.openDirectory(path, create: false) else { throw .missingDirectory }
        defer { SystemCall.close(directoryFD) }
        let tempPrefix = [0x2E] + name + Array(".tmp.".utf8)
        SafeFile.sweepTemps(in: directoryFD, prefix: tempPrefix)
        try SafeFile.replace(
            in: directoryFD, name: cName, tempPrefix: tempPrefix, with: record.encoded(),
            durable: false)
    }
}
