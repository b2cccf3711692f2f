import PatternCoreEmbedded

/// How long one conversation with the TPM may take: the wait for the TPM-wide conversation lock
/// (TPMConversationLock), then every TPM command together (one deadline, TPMConnection). Past either the
/// conversation is "unavailable": never a success, never a counted failure. One bound for every conversation, a
/// check's and a change's alike, taken from TPMLockBounds: the longest hold (deadline + watchdog margin) is
/// shorter than the wait, so one stopped helper delays the next conversation, it does not make it fail.
public struct TPMConversationBound: Sendable {
    /// The longest wait for the lock.
    public let lockWaitMilliseconds: Int32
    /// The deadline of all the TPM commands of the conversation, from the moment the lock is taken.
    public let conversationMilliseconds: UInt32

    /// The watchdog SIGKILLs a helper that still holds the lock this long after its deadline (a stopped or
    /// stuck one: a running helper has given up at the deadline already).
    public static let watchdogMarginMilliseconds = UInt32(TPMLockBounds.watchdogMarginMilliseconds)

    /// Every conversation: a check (a handful of light commands, a few milliseconds each on swtpm, tens on a
    /// discrete chip; the whole TPM part of a login is at most 2 + 1 s, within the module's wait for the
    /// helper) or one step of a change (the session key, the new index, the old one's deletion, a page of the
    /// orphan sweep: each its own conversation).
    public static let conversation = TPMConversationBound(
        lockWaitMilliseconds: TPMLockBounds.conversation.waitMilliseconds,
        conversationMilliseconds: UInt32(TPMLockBounds.conversationMilliseconds))
}
