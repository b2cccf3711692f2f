/// How long one conversation with the TPM may take: the wait for the TPM-wide conversation lock
/// (TPMConversationLock), then every TPM command together (one deadline, TPMConnection). Past either the
/// conversation is "unavailable": never a success, never a counted failure.
public struct TPMConversationBound: Sendable {
    /// The longest wait for the lock. Longer than any holder may keep it (`conversationMilliseconds` +
    /// `watchdogMarginMilliseconds` of the longest conversation that may hold it up), so one stopped helper
    /// delays the next conversation, it does not make it fail.
    public let lockWaitMilliseconds: Int32
    /// The deadline of all the TPM commands of the conversation, from the moment the lock is taken.
    public let conversationMilliseconds: UInt32

    /// The watchdog SIGKILLs a helper that still holds the lock this long after its deadline (a stopped or
    /// stuck one: a running helper has given up at the deadline already).
    public static let watchdogMarginMilliseconds: UInt32 = 500

    /// A check of a pattern: a handful of light commands (a few milliseconds each on swtpm, tens on a
    /// discrete chip). The whole TPM part of a login is at most 2 + 1 s: the module's wait for the helper
    /// must be longer.
    public static let check = TPMConversationBound(lockWaitMilliseconds: 2000, conversationMilliseconds: 1000)
    /// Enrolment, removal, the orphan sweep (root's patternctl, or a user's own set/remove): more commands,
    /// one of them a key creation. It may wait behind another such conversation.
    public static let change = TPMConversationBound(lockWaitMilliseconds: 6000, conversationMilliseconds: 5000)
}
