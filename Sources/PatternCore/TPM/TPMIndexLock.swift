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
        fd = try SafeFile.takeLockFile(
            in: directory, location, suffix: ".tpm.lock", exclusive ? LOCK_EX : LOCK_SH)
    }

    /// Lets go (closing the only descriptor releases the flock).
    public func release() {
        SystemCall.close(fd)
    }
}
