/// How long each TPM lock beside the store may be held, and how long anyone waits for it, in one table, so
/// that every hold is shorter than every wait for the same lock: a holder stopped, slowed or stuck past its
/// bound is SIGKILLed by its own watchdog (the helper's, armed when the lock is taken) before any waiter gives
/// up. One stopped holder then delays the next user, it never makes them fail. Tests/PatternCoreTests reads
/// the table (TPMLockBoundsTests) and the holds are measured against real holders in Tests/TPMTests.
public enum TPMLockBounds {
    /// One lock: its file's suffix beside the store, the longest any holder keeps it (the holder's watchdog
    /// fires then), the shortest any waiter waits for it.
    public struct Lock: Sendable {
        public let suffix: String
        public let holdMilliseconds: Int32
        public let waitMilliseconds: Int32
    }

    /// The deadline of a check's conversation (all its commands, TPMConnection). On the slowest chips'
    /// latency model (Tests/support/tpm_latency.py) its longest path, a salted session after a session key that
    /// does not prove itself and a wrong pattern's count read, takes about 0.7 s: this is twice that and more.
    public static let checkMilliseconds: Int32 = 1500
    /// The deadline of each conversation of a change or a prune (the session key, the strays and the write
    /// policy, the new index, the old one's deletion, a page of the sweep): each is split so that it takes at
    /// most half of this on the slowest chips' model (the new index, with its key creation, ECDH and two flash
    /// writes, about 0.9 s).
    public static let changeMilliseconds: Int32 = 2000
    /// The longest deadline of any conversation: what the conversation lock's hold covers.
    public static let conversationMilliseconds: Int32 = max(checkMilliseconds, changeMilliseconds)
    /// The watchdog SIGKILLs a holder this long after its deadline: a running holder has given up by then.
    public static let watchdogMarginMilliseconds: Int32 = 500

    /// The store lock's wait (PatternStore's writes, ThrottleStore): an enrolment writes its line while it
    /// holds the index lock, so the index lock's hold covers one such wait.
    public static let storeWaitMilliseconds: Int32 = SafeFile.lockWaitMilliseconds
    /// What an index-lock holder does beyond its waits (reading and writing the store, a page of the TPM's
    /// handles): far less than this, which the index lock's hold adds on top of them.
    public static let indexWorkMilliseconds: Int32 = 1500

    /// ".tpm-conversation.lock": every conversation with the TPM, a check's (every user's login waits here)
    /// or a change's. A login behind a stopped holder waits at most its hold (2.5 s), then checks (1.5 s).
    public static let conversation = Lock(
        suffix: ".tpm-conversation.lock",
        holdMilliseconds: conversationMilliseconds + watchdogMarginMilliseconds,
        waitMilliseconds: 3000)

    /// Conversations an enrolment has under the index lock: the strays' deletion with the write policy, then
    /// the new index.
    public static let conversationsPerIndexHold: Int32 = 2

    /// ".tpm.lock": an enrolment from before its index is defined until its line is written (for each of its
    /// conversations a wait for the conversation lock and the conversation, then one wait for the store lock),
    /// or one page of the orphan sweep (less: one conversation, reading the store instead).
    public static let index = Lock(
        suffix: ".tpm.lock",
        holdMilliseconds: conversationsPerIndexHold * (conversation.waitMilliseconds + conversation.holdMilliseconds)
            + storeWaitMilliseconds + indexWorkMilliseconds,
        waitMilliseconds: 18000)

    /// Every lock of the table.
    public static let all: [Lock] = [conversation, index]
}
