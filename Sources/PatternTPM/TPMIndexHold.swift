import CPatternSystem
import CPatternTPM
import PatternCoreEmbedded

/// The TPM index lock (TPMIndexLock) under this process's watchdog: SIGKILLed if it still holds the lock
/// TPMLockBounds.index's hold after taking it, whatever it is doing then (stopped, slowed, waiting for another
/// lock), so whoever waits for the lock (TPMLockBounds.index's wait, longer) never gives up first. The helper
/// takes the index lock only through this.
public struct TPMIndexHold {
    let lock: TPMIndexLock

    /// Waits for the lock (shared for a removal, exclusive for an enrolment or a page of the sweep), then arms
    /// the hold's watchdog; `.lockBusy` after the wait.
    public init(store: PatternStore, exclusive: Bool) throws(StoreError) {
        // Over the wait too: one stopped just after the lock is taken must not keep it.
        let bound = TPMLockBounds.index
        guard pattern_tpm_hold_watchdog_arm(UInt32(bound.waitMilliseconds + bound.holdMilliseconds)) == 0 else {
            throw .system(operation: .lock, errno: pattern_errno())
        }
        do throws(StoreError) {
            lock = try TPMIndexLock(store: store, exclusive: exclusive)
        } catch {
            pattern_tpm_hold_watchdog_disarm()
            throw error
        }
        guard pattern_tpm_hold_watchdog_arm(UInt32(bound.holdMilliseconds)) == 0 else {
            let errno = pattern_errno()
            release()
            throw .system(operation: .lock, errno: errno)
        }
    }

    /// Lets go of the lock, then of the hold's watchdog (a conversation's stays armed).
    public func release() {
        lock.release()
        pattern_tpm_hold_watchdog_disarm()
    }
}
