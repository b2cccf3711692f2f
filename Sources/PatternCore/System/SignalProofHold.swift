import CPatternSystem

/// Real uid root while a lock another user may wait for is held. A setuid-root process (su, pam_pattern_helper)
/// keeps its caller's real uid, and kill(2) lets a user signal any process whose real uid is theirs: stopped
/// while it held the victim's state lock, su would freeze the victim's logins and root's `patternctl` for as
/// long as it stayed stopped. With real uid 0 only root can signal the holder. Taken before the lock, given back
/// after it is released; nothing changes in a process that is root in full or not root at all. The saved uid
/// stays unchanged (the host's own way back), and the effective uid is never touched.
struct SignalProofHold {
    /// The real uid to give back, or -1 when nothing was changed.
    private let savedRealUID: Int

    /// Takes real uid root now (when euid is 0 and the real uid is not).
    init() {
        savedRealUID = pattern_take_real_uid_root()
    }

    /// Gives the caller's real uid back. Call once, after the lock is released.
    func end() {
        pattern_restore_real_uid(savedRealUID)
    }

    /// Takes real uid root, then runs `take` (which takes a lock): what it took, with the hold to end once that
    /// lock is released; or, when `take` fails, the caller's real uid back at once and `take`'s error.
    static func taking<Taken, Failure: Error>(
        _ take: () throws(Failure) -> Taken
    ) throws(Failure) -> (taken: Taken, hold: SignalProofHold) {
        let hold = SignalProofHold()
        do throws(Failure) {
            return (try take(), hold)
        } catch {
            hold.end()
            throw error
        }
    }
}
