import PatternCoreEmbedded

/// How long one conversation with the TPM may take: the wait for the TPM-wide conversation lock
/// (TPMConversationLock), then every TPM command together (one deadline, TPMConnection). Past either the
/// conversation is "unavailable": never a success, never a counted failure. A check's deadline and a change
/// step's, taken from TPMLockBounds: the longest hold (the longer deadline + watchdog margin) is shorter than the
/// wait, so one stopped helper delays the next conversation, it does not make it fail.
public struct TPMConversationBound: Sendable {
    /// The longest wait for the lock.
    public let lockWaitMilliseconds: Int32
    /// The deadline of all the TPM commands of the conversation, from the moment the lock is taken.
    public let conversationMilliseconds: UInt32

    /// The watchdog SIGKILLs a helper that still holds the lock this long after its deadline (a stopped or
    /// stuck one: a running helper has given up at the deadline already).
    public static let watchdogMarginMilliseconds = UInt32(TPMLockBounds.watchdogMarginMilliseconds)

    /// A check: a handful of light commands (on the slowest chips' model about 0.15 s bound to the session key,
    /// 0.7 s salted); the whole TPM part of a login is at most 3 + 1.5 s, within the module's wait for the helper.
    public static let check = TPMConversationBound(
        lockWaitMilliseconds: TPMLockBounds.conversation.waitMilliseconds,
        conversationMilliseconds: UInt32(TPMLockBounds.checkMilliseconds))

    /// One step of a change or a prune (the session key; the strays and the write policy; the new index; the old
    /// one's deletion; a page of the orphan sweep): each its own conversation.
    public static let change = TPMConversationBound(
        lockWaitMilliseconds: TPMLockBounds.conversation.waitMilliseconds,
        conversationMilliseconds: UInt32(TPMLockBounds.changeMilliseconds))
}
