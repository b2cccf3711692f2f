import CPatternSystem

/// Where the enrolment record lives: `<state directory>/<hex of user name>.enrolments`, beside the user's
/// throttle state, under the same directory and file rules (root, 0600, O_NOFOLLOW, one link, size cap).
/// Replaced whole by rename (SafeFile.replace) under the user's state lock.
extension ThrottleStore {
    /// "<hex>.enrolments": the '.' cannot occur in a hex state name, so no user's state file can collide.
    static func enrolmentFileName(for user: [UInt8]) -> [UInt8]? {
        guard let name = fileName(for: user) else { return nil }
        return name + Array(".enrolments".utf8)
    }

    /// The user's enrolment record; a missing directory or file is the empty record, and so is a malformed one
    /// (only root writes it: the next enrolment starts it afresh). Takes no lock.
    public func enrolments(for user: [UInt8]) throws(StoreError) -> EnrolmentRecord {
        let name = ThrottleStore.enrolmentFileName(for: user)
        guard let fd = try openForReading(name, limit: Int64(EnrolmentRecord.maximumFileBytes)) else { return .empty }
        defer { SystemCall.close(fd) }
        let bytes: [UInt8]?
        do { bytes = try SystemCall.readAll(fd, limit: EnrolmentRecord.maximumFileBytes) } catch {
            throw .system(operation: .read, errno: error.code)
        }
        return bytes.flatMap { EnrolmentRecord.parse($0) } ?? .empty
    }

    /// Counts one enrolment of the user's own at `now`, if their record allows one more: false (nothing
    /// written) when it does not. Under the user's state lock, so two at once cannot both take the last one;
    /// fsynced, so a crash or a SIGKILL right after cannot forget it.
    public func recordEnrolment(for user: [UInt8], now: Int64) throws(StoreError) -> Bool {
        guard let name = ThrottleStore.enrolmentFileName(for: user), let cName = SystemCall.cString(name) else {
            throw .invalidUserName
        }
        guard var locked = try lock(user: user, create: true) else { throw .missingDirectory }
        defer { locked.close() }
        var record = try enrolments(for: user)
        guard record.allows(at: now) else { return false }
        record.record(at: now)
        guard let path = SystemCall.cString(directory) else { throw .invalidPath }
        guard let directoryFD = try SafeFile.openDirectory(path, create: false) else { throw .missingDirectory }
        defer { SystemCall.close(directoryFD) }
        let tempPrefix = [0x2E] + name + Array(".tmp.".utf8)
        SafeFile.sweepTemps(in: directoryFD, prefix: tempPrefix)
        try SafeFile.replace(in: directoryFD, name: cName, tempPrefix: tempPrefix, with: record.encoded())
        return true
    }
}
