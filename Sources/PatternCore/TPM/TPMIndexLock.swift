import CPatternSystem

/// ".<store name>.tpm.lock" beside the store: an enrolment holds it shared from defining its NV index until
/// the old index is deleted (after its store line is written); the orphan sweep holds it exclusively, so it
/// never mistakes an index whose line is about to be written for one a killed enrolment left behind. Shared,
/// so an enrolment holds up only the sweep, never another user's enrolment; the wait is bounded like every
/// lock here. Held as real uid root (SignalProofHold): a user can neither stop their own enrolment while it
/// holds it (which would make root's sweep fail) nor kill it between its conversations (which would leave an
/// index behind).
public struct TPMIndexLock {
    let fd: Int32
    private let hold: SignalProofHold

    /// Takes the lock (creating its file, 0600) for `store`; `.lockBusy` after the bounded wait.
    public init(store: PatternStore, exclusive: Bool) throws(StoreError) {
        let location = try SafeFile.split(store.path)
        guard let directory = try SafeFile.openDirectory(location.directory, create: true) else {
            throw .missingDirectory
        }
        defer { SystemCall.close(directory) }
        (fd, hold) = try SignalProofHold.taking { () throws(StoreError) in
            try SafeFile.takeLockFile(in: directory, location, suffix: ".tpm.lock", exclusive ? LOCK_EX : LOCK_SH)
        }
    }

    /// Lets go (closing the only descriptor releases the flock), then gives the caller's real uid back.
    public func release() {
        SystemCall.close(fd)
        hold.end()
    }
}
