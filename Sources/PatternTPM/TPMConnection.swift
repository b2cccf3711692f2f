import CPatternTPM
import PatternCoreEmbedded

/// An open connection to a TPM through one TCTI, for one conversation with a deadline (TPMConversationBound).
///
/// The TCTI string comes from root's configuration or the compile-time default, never from the
/// caller's environment: a setuid helper must not let its caller point it at another "TPM".
///
/// With a store, the connection holds the TPM-wide conversation lock beside it from before the TPM is opened
/// until it is closed, and this process's watchdog SIGKILLs it if it still holds the lock shortly after the
/// deadline (stopped by its user, say); a TPM without a resource manager is cleared of what a killed
/// conversation left when the next one opens it (pattern_tpm_open).
public final class TPMConnection {
    /// The kernel's resource manager: it flushes what a killed process left in the TPM.
    public static let defaultTCTI = "device:/dev/tpmrm0"

    let context: OpaquePointer
    let lock: TPMConversationLock?

    /// Opens the TPM behind `tcti` ("device:/path" or "swtpm:path=/path"), after taking the conversation lock
    /// beside `store` when one is given (the setuid helper always gives its store; the test driver none).
    public init(tcti: String, bound: TPMConversationBound, lockBeside store: PatternStore?) throws(TPMFailure) {
        var taken: TPMConversationLock? = nil
        if let store {
            // A helper stopped while it waits holds nothing; one stopped right after taking the lock must not
            // keep it, so the watchdog covers the wait as well.
            _ = pattern_tpm_watchdog_arm(
                UInt32(bound.lockWaitMilliseconds) + TPMConversationBound.watchdogMarginMilliseconds)
            do throws(StoreError) {
                taken = try TPMConversationLock(store: store, waitingAtMost: bound.lockWaitMilliseconds)
            } catch {
                pattern_tpm_watchdog_disarm()
                if case .lockBusy = error { throw TPMFailure(code: TPMFailure.busy) }
                throw TPMFailure(code: TPMFailure.lockUnusable)
            }
            guard
                pattern_tpm_watchdog_arm(
                    bound.conversationMilliseconds + TPMConversationBound.watchdogMarginMilliseconds) == 0
            else {
                taken?.release()
                pattern_tpm_watchdog_disarm()
                throw TPMFailure(code: TPMFailure.lockUnusable)
            }
        }
        var opened: OpaquePointer? = nil
        let rc = tcti.withCString { pattern_tpm_open($0, bound.conversationMilliseconds, &opened) }
        guard rc == 0, let context = opened else {
            taken?.release()
            if taken != nil { pattern_tpm_watchdog_disarm() }
            throw TPMFailure(code: rc == 0 ? 0x7E00_0001 : rc)
        }
        self.context = context
        self.lock = taken
    }

    deinit {
        pattern_tpm_close(context)
        if let lock {
            lock.release()
            pattern_tpm_watchdog_disarm()
        }
    }

    /// TPM commands sent on this connection so far (`make bench` reports them per check).
    public var commandCount: UInt32 { pattern_tpm_commands(context) }

    /// The most handles one listing gives (a full one may have more after it).
    public static let listingLimit = Int(PATTERN_TPM_MAX_LISTED)

    /// The NV indexes defined in `from`...`through` (at most `listingLimit`, ascending).
    public func definedIndexes(from first: UInt32, through last: UInt32) throws(TPMFailure) -> [UInt32] {
        var handles = [UInt32](repeating: 0, count: PATTERN_TPM_MAX_LISTED)
        var count = 0
        let rc = handles.withUnsafeMutableBufferPointer { buffer in
            pattern_tpm_list_indexes(context, first, last, buffer.baseAddress, &count)
        }
        guard rc == 0 else { throw TPMFailure(code: rc) }
        return Array(handles.prefix(count))
    }
}
