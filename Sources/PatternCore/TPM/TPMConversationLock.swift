import CPatternSystem

/// ".<store name>.tpm-conversation.lock" beside the store: every conversation of the setuid helper with the
/// TPM holds it exclusively, from before the TPM is opened until it is closed. So at most one pam_pattern
/// process has a session or an object loaded in the TPM at a time (a real TPM has a few dozen session slots
/// for all its users; swtpm serves one connection at a time anyway), and whatever is loaded when a
/// conversation starts on a TPM without a resource manager was left by one that is over, so it may be flushed.
/// The wait is bounded by the caller (TPMConversationBound); the holder's own watchdog ends it shortly after its
/// conversation's deadline, before any waiter gives up (TPMLockBounds.conversation). Every user's check waits for it, so it is held as real uid root (SignalProofHold):
/// the helper's caller (a user changing their own pattern) cannot stop the holder to keep everyone else out.
public struct TPMConversationLock {
    private let file: TPMLockFile

    /// Takes the lock (creating its file, 0600) for `store`; `.lockBusy` after `milliseconds`.
    public init(store: PatternStore, waitingAtMost milliseconds: Int32) throws(StoreError) {
        file = try TPMLockFile(TPMLockBounds.conversation, store: store, LOCK_EX, waitingAtMost: milliseconds)
    }

    /// Lets go, then gives the caller's real uid back.
    public func release() { file.release() }
}
