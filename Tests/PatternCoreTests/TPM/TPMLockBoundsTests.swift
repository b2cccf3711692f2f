import Testing

@testable import PatternCore

/// Every hold of a TPM lock is shorter than every wait for it (TPMLockBounds): the table's own numbers, and
/// what each hold must cover.
struct TPMLockBoundsTests {
    @Test func everyHoldIsShorterThanEveryWaitForTheSameLock() {
        #expect(TPMLockBounds.all.count == 2)
        for lock in TPMLockBounds.all {
            #expect(lock.holdMilliseconds > 0)
            #expect(lock.holdMilliseconds < lock.waitMilliseconds, "\(lock.suffix)")
        }
    }

    @Test func theConversationLocksHoldIsTheLongestDeadlineAndTheWatchdogsMargin() {
        let conversation = TPMLockBounds.conversation
        #expect(conversation.suffix == ".tpm-conversation.lock")
        // A check's and a change step's deadlines: the hold covers the longer.
        #expect(TPMLockBounds.conversationMilliseconds >= TPMLockBounds.checkMilliseconds)
        #expect(TPMLockBounds.conversationMilliseconds >= TPMLockBounds.changeMilliseconds)
        #expect(
            conversation.holdMilliseconds
                == TPMLockBounds.conversationMilliseconds + TPMLockBounds.watchdogMarginMilliseconds)
        // A login's check (a wait behind a stopped holder, then its own conversation) ends within the module's
        // wait for the helper, with half a second left for the helper's start and the module's own work.
        #expect(
            conversation.waitMilliseconds + TPMLockBounds.checkMilliseconds + 500
                <= HelperClient.moduleDeadlineMilliseconds)
    }

    @Test func theIndexLocksHoldCoversWhatAnEnrolmentDoesUnderIt() {
        let index = TPMLockBounds.index
        #expect(index.suffix == ".tpm.lock")
        // From before its index to its line: for each of its conversations a wait for the conversation lock and
        // the conversation, a wait for the store lock, and the work; the watchdog fires only past all of them.
        let conversation = TPMLockBounds.conversation.waitMilliseconds + TPMLockBounds.conversation.holdMilliseconds
        let legitimate = TPMLockBounds.conversationsPerIndexHold * conversation + SafeFile.lockWaitMilliseconds
        #expect(TPMLockBounds.conversationsPerIndexHold == 2)
        #expect(index.holdMilliseconds > legitimate)
        // The index lock is taken before the conversation lock, never while holding it: so the index lock's
        // waiter outlasts any conversation too.
        #expect(index.waitMilliseconds > TPMLockBounds.conversation.holdMilliseconds)
        // An enrolment's TPM steps (the session key's conversation, the index lock's wait and hold, the old
        // index's conversation) fit patternctl's wait for the helper.
        #expect(
            conversation + index.waitMilliseconds + index.holdMilliseconds + conversation
                < HelperClient.commandDeadlineMilliseconds)
    }
}
