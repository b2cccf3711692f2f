import CPatternSystem

/// One of the TPM locks beside the store (TPMLockBounds.all), taken as real uid root (SignalProofHold): every
/// user's check may wait for it, so the helper's caller must not be able to stop its holder. The file is
/// created (0600) when missing; closing the only descriptor releases the flock.
struct TPMLockFile {
    private let fd: Int32
    private let hold: SignalProofHold

    /// Takes `lock`'s file for `store` with flock `operation` (LOCK_EX, LOCK_SH); `.lockBusy` after
    /// `milliseconds`.
    init(
        _ lock: TPMLockBounds.Lock, store: PatternStore, _ operation: Int32, waitingAtMost milliseconds: Int32
    )
        throws(StoreError)
    {
        let location = try SafeFile.split(store.path)
        guard let directory = try SafeFile.openDirectory(location.directory, create: true) else {
            throw .missingDirectory
        }
        defer { SystemCall.close(directory) }
        (fd, hold) = try SignalProofHold.taking { () throws(StoreError) in
            try SafeFile.takeLockFile(
                in: directory, location, suffix: lock.suffix, operation, waitingAtMost: milliseconds)
        }
    }

    /// Lets go, then gives the caller's real uid back.
    func release() {
        SystemCall.close(fd)
        hold.end()
    }
}
