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

    /// The deadline of every TPM conversation (all its commands, TPMConnection), a check's or a change's: a
    /// change is split into conversations that each fit (its key, its index, the old index's deletion).
    public static let conversationMilliseconds: Int32 = 1000
    /// The watchdog SIGKILLs a holder this long after its deadline: a running holder has given up by then.
    public static let watchdogMarginMilliseconds: Int32 = 500

    /// The store lock's wait (PatternStore's writes, ThrottleStore): an enrolment writes its line while it
    /// holds the index lock, so the index lock's hold covers one such wait.
    public static let storeWaitMilliseconds: Int32 = SafeFile.lockWaitMilliseconds
    /// What an index-lock holder does beyond its waits (reading and writing the store, a page of the TPM's
    /// handles): far less than this, which the index lock's hold adds on top of them.
    public static let indexWorkMilliseconds: Int32 = 1500

    /// ".tpm-conversation.lock": every conversation with the TPM, a check's (every user's login waits here)
    /// or a change's.
    public static let conversation = Lock(
        suffix: ".tpm-conversation.lock",
        holdMilliseconds: conversationMilliseconds + watchdogMarginMilliseconds,
        waitMilliseconds: 2000)

    /// ".tpm.lock": an enrolment from before its index is defined until its line is written (one wait for the
    /// conversation lock, one conversation, one wait for the store lock), or one page of the orphan sweep
    /// (the same, reading the store instead).
    public static let index = Lock(
        suffix: ".tpm.lock",
        holdMilliseconds: conversation.waitMilliseconds + conversation.holdMilliseconds + storeWaitMilliseconds
            + indexWorkMilliseconds,
        waitMilliseconds: 12000)

    /// Every lock of the table.
    public static let all: [Lock] = [conversation, index]
}
