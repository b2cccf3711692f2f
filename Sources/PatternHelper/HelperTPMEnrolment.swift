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

    /// The most indexes the sweep looks at in one conversation: 64 deletions take about 1.3 s at 20 ms a
    /// command (a discrete chip), well within a change's 5 s deadline. Less than a listing holds, so a full page
    /// always means more may follow.
    static let pruneIndexesPerConversation = 64

    /// The TPM of the system's configuration, for a change (TPMConversationBound.change), holding the
    /// conversation lock beside the configuration's store.
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
    /// The TPM is held (its conversation lock) only while it works, never while the store's lock is waited for:
    /// one conversation defines the index, the store line is written, a second one deletes the old index.
    static func enroll(_ pattern: Pattern, user: [UInt8], options: PatternSettings, now: Int64) -> HelperVerdict {
        let store = PatternStore(path: options.storePath)
        // Before the TPM, as the sweep takes them: index lock, then conversation lock.
        let lock: TPMIndexLock
        do throws(StoreError) {
            lock = try TPMIndexLock(store: store, exclusive: false)
        } catch {
            HelperLog.critical("enrolment in the TPM: pattern store unusable: \(error.message)")
            return .unavailable
        }
        defer { lock.release() }
        var salt = [UInt8](repeating: 0, count: TPMPinAuth.saltSize)
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255) }
        let lockAfter = options.throttle.lockAfter
        let limit = lockAfter > 0 ? UInt32(clamping: lockAfter) : limitWhenNeverDisabled
        let record: TPMRecord
        do throws(TPMFailure) {
            let tpm = try connect(options)
            do throws(TPMFailure) { try TPMSessionKey.ensure(beside: store, on: tpm) } catch {
                HelperLog.notice("no TPM session key (\(error.description)); checks salt their sessions instead")
            }
            record = try TPMPatternIndex.enroll(pattern, user: user, salt: salt, pinLimit: limit, on: tpm)
        } catch {
            return refused("enrolment in the TPM failed", error, user)
        }
        let old: TPMRecord?
        do throws(StoreError) {
            old = try store.record(for: user)?.tpmRecord
            try store.save(StoreRecord(user: user, hash: record.text, setAt: now))
        } catch {
            do throws(TPMFailure) { try TPMPatternIndex.remove(record, on: try connect(options)) } catch {}
            HelperLog.critical("enrolment in the TPM: pattern store unusable: \(error.message)")
            return .unavailable
        }
        try? ThrottleStore(directory: options.stateDirectory).reset(user: user)
        if let old, old != record { removeIndex(of: old, user: user, options: options) }
        HelperLog.notice(HelperLog.line("pattern enrolled in the TPM for user ", user))
        return .accepted
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
                "the previous TPM index stays defined (\(error.description); patternctl prune deletes it) for user ",
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

    /// Root's `tpm-prune`: deletes the indexes of pam_pattern's handle range that no store line names. Holds the
    /// index lock exclusively, so no enrolment is between defining its index and writing its line.
    static func prune(options: PatternSettings) -> HelperVerdict {
        let store = PatternStore(path: options.storePath)
        // No store file at all: the patterns may be in a store this configuration no longer names; an index is
        // an orphan only when a store that exists does not name it.
        guard let path = SystemCall.cString(options.storePath), access(path, F_OK) == 0 else {
            HelperLog.notice("tpm-prune: no pattern store, so no index is taken for an orphan; nothing deleted")
            return .pruned(0)
        }
        let named: [UInt32]
        let lock: TPMIndexLock
        do throws(StoreError) {
            lock = try TPMIndexLock(store: store, exclusive: true)
            // Every line, even of a deleted account: its index is not an orphan until the line goes.
            named = try store.load().compactMap { $0.tpmRecord?.handle }
        } catch {
            if case .lockBusy = error {
                HelperLog.notice(
                    "tpm-prune: an enrolment into the TPM held the TPM index lock past the wait; nothing deleted")
                return .tpmRefused(.busy)
            }
            HelperLog.critical("tpm-prune: pattern store unusable: \(error.message)")
            return .unavailable
        }
        defer { lock.release() }
        let root = Array("root".utf8)
        var removed = 0
        var from: UInt32? = TPMIndexRange.first
        // Any number of indexes: a page of them per conversation, until the last page.
        while let start = from {
            do throws(TPMFailure) {
                from = try prunePage(from: start, sparing: named, options: options, removed: &removed)
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

    /// One conversation of the sweep: deletes the unnamed indexes among the first `pruneIndexesPerConversation`
    /// defined from `start` on (counting them into `removed`); where the next page starts, or nil after the last.
    private static func prunePage(
        from start: UInt32, sparing named: [UInt32], options: PatternSettings, removed: inout Int
    ) throws(TPMFailure) -> UInt32? {
        let tpm = try connect(options)
        let defined = try tpm.definedIndexes(from: start, through: TPMIndexRange.last)
        let page = defined.prefix(pruneIndexesPerConversation)
        for handle in page where TPMIndexRange.handles.contains(handle) && !named.contains(handle) {
            try TPMPatternIndex.removeUnrecorded(handle: handle, on: tpm)
            removed += 1
            HelperLog.notice("tpm-prune: deleted index \(handle) (decimal), named by no store line")
        }
        guard defined.count > page.count, let last = page.last, last < TPMIndexRange.last else { return nil }
        return last + 1
    }

    /// The problem as the caller is told it, after a syslog line naming the TPM's own result.
    static func refused(_ what: String, _ error: TPMFailure, _ user: [UInt8]) -> HelperVerdict {
        HelperLog.notice(HelperLog.line("\(what) (\(error.description)) for user ", user))
        if error.isOwnerAuthorizationRefused { return .tpmRefused(.ownerAuthorization) }
        if error.isFull { return .tpmRefused(.full) }
        // Another conversation held the TPM past the wait, or it did not answer in time: a TPM error (logged).
        if error.code == TPMFailure.busy || error.code == 0xA_000A { return .tpmRefused(.failed) }
        // Not the TPM's own answer (the TCTI could not reach it, a bad TCTI): there is no TPM to use.
        if error.code >= 0x1_0000 { return .tpmRefused(.absent) }
        return .tpmRefused(.failed)
    }
}
