import CPatternSystem

/// ".<store name>.tpm.lock" beside the store: an enrolment holds it exclusively from before its NV index is
/// defined until its store line is written (and sweeps the indexes no line names meanwhile); a removal holds
/// it shared from before a line naming an index goes until that index is deleted; the orphan sweep holds it
/// exclusively, a page at a time. So an index whose line is about to be written, or whose line just went, is
/// never taken for one a killed enrolment left behind. The holder's watchdog ends any hold within
/// TPMLockBounds.index's hold, shorter than the wait for it. Held as real uid root (SignalProofHold): a
/// user can neither stop their own enrolment while it holds it (which would make root's sweep wait) nor kill
/// it between its conversations (which would leave an index behind).
public struct TPMIndexLock {
    private let file: TPMLockFile

    /// Takes the lock (creating its file, 0600) for `store`; `.lockBusy` after TPMLockBounds.index's wait.
    public init(store: PatternStore, exclusive: Bool) throws(StoreError) {
        file = try TPMLockFile(
            TPMLockBounds.index, store: store, exclusive ? LOCK_EX : LOCK_SH,
            waitingAtMost: TPMLockBounds.index.waitMilliseconds)
    }

    /// Lets go, then gives the caller's real uid back.
    public func release() { file.release() }
}
