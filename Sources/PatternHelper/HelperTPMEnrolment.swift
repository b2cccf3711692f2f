import CPatternSystem
import PatternCoreEmbedded
import PatternTPM

/// Patterns put into the TPM and taken out again: root's `tpm-enroll`, `tpm-remove` and `tpm-prune`, and the
/// self-service `set`/`enroll`/`remove` in TPM mode. The new index is defined before the store line changes and
/// an old one deleted only after, so a failure at any step leaves the user with a pattern that works; what a
/// killed helper can leave behind is an index no line names, which `tpm-prune` (`patternctl prune`) deletes.
enum HelperTPMEnrolment {
    /// The TPM's limit when lock_after is 0 ("never disabled"): a PIN Fail index always has one.
    static let limitWhenNeverDisabled: UInt32 = 20

    /// The most indexes the sweep deletes in one conversation: a deletion is two light commands and a flash
    /// write (NV_UndefineSpace), 0.14 s on the slowest chips' model (Tests/support/tpm_latency.py), so a page
    /// takes under a third of a change step's deadline (TPMLockBounds.changeMilliseconds).
    static let pruneIndexesPerConversation = 4

    /// The most an enrolment deletes before defining its own index, in the conversation that works out the new
    /// index's write policy: what killed enrolments left, a user's own old index among them. More than one
    /// enrolment can leave, so they never pile up; `tpm-prune` deletes any number.
    static let strayDeletionsPerEnrolment = 4

    /// The TPM of the system's configuration, for one step of a change (TPMConversationBound.change),
    /// holding the conversation lock beside the configuration's store.
    static func connect(_ options: PatternSettings) throws(TPMFailure) -> TPMConnection {
        try TPMConnection(
            tcti: String(decoding: options.tpmTCTI, as: UTF8.self), bound: .change,
            lockBeside: PatternStore(path: options.storePath))
    }

    /// Root's `tpm-enroll`: the typed digits under the same rules as any new pattern (minlen and strength), so a
    /// pattern held by the TPM is never weaker than a hashed one.
    static func enroll(user: [UInt8], typed: [UInt8], options: PatternSettings, now: Int64) -> HelperVerdict {
        switch SelfService.newPattern(
            typed, minimum: Pattern.clampedMinimumLength(options.minimumLength), rules: options.strength)
        {
        case .success(let pattern): return enroll(pattern, user: user, options: options, now: now)
        case .failure(let refusal): return refusal.verdict
        }
    }

    /// Puts `pattern` into the TPM as `user`'s, replacing whatever record the user had (a hash or an index).
    /// The TPM is held (its conversation lock) only while it works, never while the store's lock is waited for,
    /// and each conversation fits its deadline: one makes sure of the session key, one defines the index, the
    /// store line is written, a last one deletes the old index. Under the index lock two conversations: the
    /// strays' deletion with the new index's write policy, then the new index itself. The index lock (exclusive: no other enrolment
    /// is between its index and its line meanwhile) is held from before the index until the line, under the
    /// hold's watchdog (TPMIndexHold).
    static func enroll(_ pattern: Pattern, user: [UInt8], options: PatternSettings, now: Int64) -> HelperVerdict {
        let store = PatternStore(path: options.storePath)
        var salt = [UInt8](repeating: 0, count: TPMPinAuth.saltSize)
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255) }
        let lockAfter = options.throttle.lockAfter
        let limit = lockAfter > 0 ? UInt32(clamping: lockAfter) : limitWhenNeverDisabled
        do throws(TPMFailure) {
            try TPMSessionKey.ensure(beside: store) { () throws(TPMFailure) in try connect(options) }
        } catch {
            HelperLog.notice(
                "no TPM session key (\(error.hexCode): \(error.description)); checks salt their sessions instead")
        }
        // Before the TPM, as the sweep takes them: index lock, then conversation lock.
        let lock: TPMIndexHold
        do throws(StoreError) {
            lock = try TPMIndexHold(store: store, exclusive: true)
        } catch {
            return indexLockRefused("enrolment in the TPM", error)
        }
        // Under the lock no enrolment is between its index and its line: an index no line names is a stray
        // (a killed enrolment's new index, or the old one it had not deleted yet), deleted first, as the sweep
        // would. Only when a store exists to name them (as for the sweep).
        let named = storeExists(options) ? (try? store.load().compactMap { $0.tpmRecord?.handle }) : nil
        let policy: TPMWritePolicy
        do throws(TPMFailure) {
            let tpm = try connect(options)
            if let named {
                // An index the owner cannot delete (defined by another program in the range) must not stop
                // every enrolment: logged, and the enrolment goes on.
                var deleted = 0
                do throws(TPMFailure) {
                    _ = try sweepPage(
                        from: TPMIndexRange.first, sparing: named, deleting: strayDeletionsPerEnrolment, on: tpm,
                        removed: &deleted, by: "enrolment")
                } catch {
                    HelperLog.notice("enrolment: an index no store line names stays (\(error.description))")
                }
            }
            policy = try TPMPatternIndex.writePolicy(salt: salt, on: tpm)
        } catch {
            lock.release()
            return refused("enrolment in the TPM failed (the new index's write policy)", error, user)
        }
        let record: TPMRecord
        do throws(TPMFailure) {
            record = try TPMPatternIndex.enroll(
                pattern, user: user, salt: salt, pinLimit: limit, policy: policy, on: try connect(options))
        } catch {
            lock.release()
            return refused("enrolment in the TPM failed (defining the new index)", error, user)
        }
        let old: TPMRecord?
        do throws(StoreError) {
            old = try store.record(for: user)?.tpmRecord
            try store.save(StoreRecord(user: user, hash: record.text, setAt: now))
        } catch {
            // The lock first (its hold covers no more conversation): the index is unnamed now, which a sweep may
            // delete as well.
            lock.release()
            do throws(TPMFailure) { try TPMPatternIndex.remove(record, on: try connect(options)) } catch {}
            HelperLog.critical("enrolment in the TPM: pattern store unusable: \(error.message)")
            return .unavailable
        }
        // The line names the new index: from here on the old one is an orphan the sweep may delete as well.
        lock.release()
        try? ThrottleStore(directory: options.stateDirectory).reset(user: user)
        if let old, old != record { removeIndex(of: old, user: user, options: options) }
        HelperLog.notice(HelperLog.line("pattern enrolled in the TPM for user ", user))
        return .accepted
    }

    /// The answer when the TPM index lock could not be had: its holder named in syslog and to the caller.
    static func indexLockRefused(_ what: String, _ error: StoreError) -> HelperVerdict {
        if case .lockBusy = error {
            HelperLog.notice(
                "\(what): the TPM index lock (\(TPMLockBounds.index.suffix) beside the store) was held past "
                    + "the wait by an enrolment, a removal or a sweep; nothing changed")
            return .tpmRefused(.busy)
        }
        HelperLog.critical("\(what): the TPM index lock is unusable: \(error.message)")
        return .unavailable
    }

    /// Deletes the index of a record the store no longer holds (replaced or removed). A failure leaves an index
    /// no line names: logged, and `tpm-prune` deletes it later.
    static func removeIndex(of old: TPMRecord, user: [UInt8], options: PatternSettings) {
        do throws(TPMFailure) {
            let tpm = try connect(options)
            removeIndex(of: old, user: user, on: tpm)
        } catch {
            logStays(user, error)
        }
    }

    static func removeIndex(of old: TPMRecord, user: [UInt8], on tpm: TPMConnection) {
        do throws(TPMFailure) { try TPMPatternIndex.remove(old, on: tpm) } catch {
            // Gone already (a cleared TPM) or another index at the handle: nothing of this record is left.
            if error.code == 0x18B || error.code == 0x7E00_0002 { return }
            logStays(user, error)
        }
    }

    private static func logStays(_ user: [UInt8], _ error: TPMFailure) {
        HelperLog.notice(
            HelperLog.line(
                "the previous TPM index stays defined (\(error.hexCode): \(error.description); patternctl prune deletes it) for user ",
                user))
    }

    /// Root's `tpm-remove`: the store line first (from then on the pattern opens nothing, whatever the TPM
    /// does), then the index.
    static func remove(user: [UInt8], options: PatternSettings) -> HelperVerdict {
        let store = PatternStore(path: options.storePath)
        do throws(StoreError) {
            guard let stored = try store.record(for: user), let record = stored.tpmRecord else { return .notEnrolled }
            // Only if it is still the same line (a change meanwhile keeps its new index).
            guard try store.removeIfUnchanged(stored) else { return .notEnrolled }
            try? ThrottleStore(directory: options.stateDirectory).reset(user: user)
            removeIndex(of: record, user: user, options: options)
        } catch {
            HelperLog.critical("tpm-remove: pattern store unusable: \(error.message)")
            return .unavailable
        }
        HelperLog.notice(HelperLog.line("TPM pattern removed for user ", user))
        return .accepted
    }

    /// Root's `tpm-prune`: deletes the indexes of pam_pattern's handle range that no store line names, any
    /// number of them, a page per conversation. Each page holds the index lock exclusively (so no enrolment is
    /// between defining its index and writing its line) and reads the store's lines again under it.
    static func prune(options: PatternSettings) -> HelperVerdict {
        let store = PatternStore(path: options.storePath)
        // No store file at all: the patterns may be in a store this configuration no longer names; an index is
        // an orphan only when a store that exists does not name it.
        guard storeExists(options) else {
            HelperLog.notice("tpm-prune: no pattern store, so no index is taken for an orphan; nothing deleted")
            return .pruned(0)
        }
        let root = Array("root".utf8)
        var removed = 0
        var from: UInt32? = TPMIndexRange.first
        var named: [UInt32] = []
        // Any number of indexes: a page of them per conversation, until the last page.
        while let start = from {
            let lock: TPMIndexHold
            do throws(StoreError) {
                lock = try TPMIndexHold(store: store, exclusive: true)
            } catch {
                return indexLockRefused("tpm-prune", error)
            }
            defer { lock.release() }
            do throws(StoreError) {
                // Every line, even of a deleted account: its index is not an orphan until the line goes.
                named = try store.load().compactMap { $0.tpmRecord?.handle }
            } catch {
                HelperLog.critical("tpm-prune: pattern store unusable: \(error.message)")
                return .unavailable
            }
            do throws(TPMFailure) {
                from = try sweepPage(
                    from: start, sparing: named, deleting: pruneIndexesPerConversation, on: try connect(options),
                    removed: &removed, by: "tpm-prune")
            } catch {
                return refused("tpm-prune: the TPM refused to list or delete an index", error, root)
            }
        }
        // No pattern in the TPM any more: its session key goes too (the next enrolment makes a new one).
        if named.isEmpty {
            do throws(TPMFailure) { try TPMSessionKey.remove(on: try connect(options)) } catch {
                return refused("tpm-prune: the TPM refused to delete the session-key index", error, root)
            }
        }
        return .pruned(removed)
    }

    /// Deletes, on `tpm`, at most `most` of the indexes of the range from `start` on that no line names (the
    /// caller holds the index lock exclusively), counting them into `removed`; where the next page starts, or
    /// nil when none is left.
    static func sweepPage(
        from start: UInt32, sparing named: [UInt32], deleting most: Int, on tpm: TPMConnection, removed: inout Int,
        by who: String
    ) throws(TPMFailure) -> UInt32? {
        let defined = try tpm.definedIndexes(from: start, through: TPMIndexRange.last)
        var deleted = 0
        for handle in defined where TPMIndexRange.handles.contains(handle) && !named.contains(handle) {
            if deleted == most { return handle }
            try TPMPatternIndex.removeUnrecorded(handle: handle, on: tpm)
            deleted += 1
            removed += 1
            HelperLog.notice("\(who): deleted index \(handle) (decimal), named by no store line")
        }
        // A full listing may have more after it.
        guard defined.count == TPMConnection.listingLimit, let last = defined.last, last < TPMIndexRange.last
        else { return nil }
        return last + 1
    }

    /// Whether the configuration's store file exists: an index is an orphan only when a store that exists does
    /// not name it (with none, the patterns may be in a store this configuration no longer names).
    static func storeExists(_ options: PatternSettings) -> Bool {
        guard let path = SystemCall.cString(options.storePath) else { return false }
        return access(path, F_OK) == 0
    }

    /// The problem as the caller is told it, after a syslog line naming the TPM's own result (its code and
    /// tpm2-tss's description), or the deadline that passed.
    static func refused(_ what: String, _ error: TPMFailure, _ user: [UInt8]) -> HelperVerdict {
        if error.code == TPMFailure.tooSlow {
            HelperLog.notice(
                HelperLog.line(
                    "\(what): the TPM answered too slowly (its conversation's deadline, "
                        + "\(TPMLockBounds.changeMilliseconds) ms, passed; nothing was kept) for user ", user))
            return .tpmRefused(.tooSlow)
        }
        HelperLog.notice(HelperLog.line("\(what) (\(error.hexCode): \(error.description)) for user ", user))
        if error.isOwnerAuthorizationRefused { return .tpmRefused(.ownerAuthorization) }
        if error.isFull { return .tpmRefused(.full) }
        // Another conversation held the TPM past the wait, or it did not answer in time: a TPM error (logged).
        if error.code == TPMFailure.busy || error.code == 0xA_000A { return .tpmRefused(.failed) }
        // No TPM to use: tpm2-tss missing, or a TCTI the layer does not take. Anything else (the TPM's own
        // answer, or the software stack's) is an error, its code in the syslog line above.
        if error.isNoTPM { return .tpmRefused(.absent) }
        return .tpmRefused(.failed)
    }
}
