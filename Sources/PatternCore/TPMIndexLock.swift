import CPatternSystem

/// ".<store name>.tpm.lock" beside the store: an enrolment holds it shared from defining its NV index until
/// its store line is written; the orphan sweep holds it exclusively, so it never mistakes an index whose line
/// is about to be written for one a killed enrolment left behind. Shared, so a stopped enrolment (a user may
/// SIGSTOP their own setuid helper) holds up only the sweep, never another user's enrolment; the wait is
/// bounded like every lock here.
public struct TPMIndexLock {
    let fd: Int32

    /// Takes the lock (creating its file, 0600) for `store`; `.lockBusy` after the bounded wait.
    public init(store: PatternStore, exclusive: Bool) throws(StoreError) {
        let location = try SafeFile.split(store.path)
        guard let directory = try SafeFile.openDirectory(location.directory, create: true) else {
            throw .missingDirectory
        }
        defer { SystemCall.close(directory) }
        guard let name = SystemCall.cString([0x2E] + location.nameBytes + Array(".tpm.lock".utf8)) else {
            throw .invalidPath
        }
        let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
        let fd: Int32
        do { fd = try SystemCall.openat(directory, name, flags, 0o600) } catch {
            throw SafeFile.fileOpenError(error)
        }
        do throws(StoreError) {
            _ = try SafeFile.checkFile(fd, limit: 0)
            try ThrottleStore.takeLock(fd, exclusive ? LOCK_EX : LOCK_SH)
        } catch {
            SystemCall.close(fd)
            throw error
        }
        self.fd = fd
    }

    /// Lets go (closing the only descriptor releases the flock).
    public func release() {
        SystemCall.close(fd)
    }
}
