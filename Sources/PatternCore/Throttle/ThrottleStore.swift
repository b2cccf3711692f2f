import CPatternSystem

/// The per-user throttle state files: `<directory>/<hex of user name>`, root-owned, 0600, in a root-owned 0700
/// directory, each flocked while in use. On persistent storage (/var/lib), so a reboot does not reset counts.
public struct ThrottleStore: Sendable {
    /// "/var/lib/pam_pattern".
    public static let defaultDirectory: [UInt8] = Array("/var/lib/pam_pattern".utf8)
    /// Largest state file read (a record is 31 bytes).
    static let maximumFileBytes: Int64 = 64

    /// The directory's path, as bytes.
    public let directory: [UInt8]

    public init(directory: [UInt8]) {
        self.directory = directory
    }

    /// The file name for a user: the lower-case hex of the name's bytes. Safe for any name ('/', '.', "..",
    /// newlines all become hex), cannot collide, and is never a dot file (so it never matches lock/temp names).
    public static func fileName(for user: [UInt8]) -> [UInt8]? {
        guard StoreRecord.isValidUserName(user) else { return nil }
        return TextCodec.hex(user)
    }

    /// The user's state (shared lock, bounded wait, while reading). A missing directory or file is the zero
    /// state. Read-only: a last failure in the future is left as it is (`ThrottlePolicy` treats it as now).
    public func state(for user: [UInt8]) throws(StoreError) -> ThrottleState {
        guard let fd = try openForReading(ThrottleStore.fileName(for: user), limit: ThrottleStore.maximumFileBytes)
        else { return .zero }
        defer { SystemCall.close(fd) }
        try SafeFile.takeLock(fd, LOCK_SH)
        return try LockedThrottleState.read(fd)
    }

    /// Opens one of a user's files (`name`: nil for a name that can never be stored) for reading, checked like
    /// every file here (root, 0600, one link, at most `limit` bytes). nil when the directory or the file does
    /// not exist: no state yet. The caller closes the descriptor.
    func openForReading(_ name: [UInt8]?, limit: Int64) throws(StoreError) -> Int32? {
        guard let name, let cName = SystemCall.cString(name) else { throw .invalidUserName }
        guard let path = SystemCall.cString(directory) else { throw .invalidPath }
        guard let directoryFD = try SafeFile.openDirectory(path, create: false) else { return nil }
        defer { SystemCall.close(directoryFD) }
        let fd: Int32
        do { fd = try SystemCall.openat(directoryFD, cName, SafeFile.readFlags) } catch {
            if error.code == ENOENT { return nil }
            throw SafeFile.fileOpenError(error)
        }
        do throws(StoreError) { _ = try SafeFile.checkFile(fd, limit: limit) } catch {
            SystemCall.close(fd)
            throw error
        }
        return fd
    }

    /// The user's state as the module judges it at `now`: a last failure in the future (a clock that was
    /// ahead, a hand-edited file) is rewritten as `now` under the exclusive lock, so no wait ever lasts
    /// longer than configured. A missing directory or file is the zero state (nothing is created).
    public func currentState(for user: [UInt8], now: Int64) throws(StoreError) -> ThrottleState {
        guard var locked = try lock(user: user, create: false) else { return .zero }
        defer { locked.close() }
        return try locked.read(normalisedAt: now)
    }

    /// Throws `fileSizeLimit` when this process could not write a whole state record (its hard RLIMIT_FSIZE
    /// is below 31 bytes): checked before a state file is created, so nothing is left behind.
    static func requireRoomForRecord() throws(StoreError) {
        do {
            let room = try SystemCall.FileSizeRoom(end: Int64(ThrottleState.recordBytes))
            room.restore()
        } catch {
            if error.code == EFBIG { throw .fileSizeLimit(bytes: Int64(ThrottleState.recordBytes)) }
            throw .system(operation: .write, errno: error.code)
        }
    }

    /// Sets the user's state back to zero (root's reset, a new pattern, a removed one). Works on a malformed
    /// file too; an unsafe one (wrong owner, mode, links, type) is still refused. No file means nothing to reset.
    /// The failures listed in the attempt record stay listed, but no longer count for the next success's notice
    /// ("N failed pattern attempts since your last success"): they were before the reset or the change.
    public func reset(user: [UInt8]) throws(StoreError) {
        guard var locked = try lock(user: user, create: false) else { return }
        defer { locked.close() }
        try locked.write(.zero)
        try endUnseenRun(for: user)
    }

    /// Marks the user's listed failures seen (under the user's state lock). A malformed record is started
    /// afresh, as the module does; a missing one needs nothing.
    func endUnseenRun(for user: [UInt8]) throws(StoreError) {
        var attempts: AttemptRecord
        do { attempts = try self.attempts(for: user) } catch {
            guard case .malformedAttemptRecord = error else { throw error }
            attempts = .empty
        }
        guard attempts.unseen != 0 || !attempts.wrongGuesses.isEmpty else { return }
        attempts.unseen = 0
        // A reset or a new pattern is a fresh start: the last wrong guesses count again if typed again.
        attempts.forgetWrongGuesses()
        try replaceAttempts(attempts, for: user)
    }

    /// Opens (with `create`: making the directory 0700 and the file 0600 if needed) and exclusively locks the
    /// user's state file, waiting at most `SafeFile.lockWaitMilliseconds`. The state is NOT parsed yet (reset must work
    /// on a malformed file): call `read()`. nil when not creating and there is no file.
    func lock(user: [UInt8], create: Bool) throws(StoreError) -> LockedThrottleState? {
        guard let name = ThrottleStore.fileName(for: user), let cName = SystemCall.cString(name) else {
            throw .invalidUserName
        }
        guard let path = SystemCall.cString(directory) else { throw .invalidPath }
        guard let directoryFD = try SafeFile.openDirectory(path, create: create) else { return nil }
        defer { SystemCall.close(directoryFD) }
        let flags =
            O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY
            | O_NONBLOCK
        var fd: Int32 = -1
        while fd < 0 {
            do {
                fd = try SystemCall.openat(directoryFD, cName, flags)
            } catch {
                if error.code != ENOENT { throw SafeFile.fileOpenError(error) }
                if !create { return nil }
                do {
                    fd = try SystemCall.openat(
                        directoryFD, cName, flags | O_CREAT | O_EXCL, 0o600)
                } catch {
                    // EEXIST: another attempt created it first; open theirs.
                    if error.code != EEXIST { throw SafeFile.fileOpenError(error) }
                    continue
                }
                // root:root and exactly 0600 whatever group and umask the caller left us.
                do { try SafeFile.makeRootOwned(fd, mode: 0o600) } catch {
                    SystemCall.close(fd)
                    throw .system(operation: .chmod, errno: error.code)
                }
                // A new file must survive a crash, or its first counted failure would vanish with it.
                do { try SystemCall.fsync(directoryFD) } catch {
                    SystemCall.close(fd)
                    throw .system(operation: .fsync, errno: error.code)
                }
            }
        }
        // Real uid root from before the lock is taken until it is released (LockedThrottleState.close): a
        // SIGSTOP the caller sent earlier lands at the latest when setresuid returns, while nothing is held.
        let hold = SignalProofHold()
        do throws(StoreError) {
            _ = try SafeFile.checkFile(fd, limit: ThrottleStore.maximumFileBytes)
            // Held until close: around read -> check -> record, or around the reset after a success; never
            // across a hash or a conversation. Bounded, and its holder cannot be stopped by its caller.
            try SafeFile.takeLock(fd, LOCK_EX)
        } catch {
            SystemCall.close(fd)
            hold.end()
            throw error
        }
        return LockedThrottleState(fd: fd, hold: hold)
    }
}
