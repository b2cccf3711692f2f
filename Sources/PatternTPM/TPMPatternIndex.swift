import CPatternTPM
import PatternCoreEmbedded

/// A user's pattern held by the TPM: one PIN Fail NV index per user (see TPMRecord, TPMPinAuth).
///
/// The index: authread|ownerread|no_da (its own failure count; the chip-wide dictionary-attack
/// counter is never touched, so one user's guesses lock nobody else), pinLimit = the throttle's
/// lock_after, write policy PolicyCommandCode(NV_Write) + PolicyNvWritten(NO) (OR'd with a per-record
/// unsatisfiable tag, TPMPinAuth.policyTag): the single write at enrolment succeeds, every later
/// write fails, the owner's included, so nobody resets the count.
/// The owner can only delete the index, and the pattern with it.
public enum TPMPatternIndex {
    /// The write policy of an index whose record will have `salt` (TPMPinAuth.policyTag): its own conversation,
    /// before the one that defines the index (enroll(_:user:salt:pinLimit:policy:on:)).
    public static func writePolicy(salt: [UInt8], on tpm: TPMConnection) throws(TPMFailure) -> TPMWritePolicy {
        let tag = TPMPinAuth.policyTag(salt: salt)
        var branch = [UInt8](repeating: 0, count: Int(PATTERN_TPM_AUTH_SIZE))
        var digest = [UInt8](repeating: 0, count: Int(PATTERN_TPM_AUTH_SIZE))
        let rc = tag.withUnsafeBufferPointer { tagBytes in
            branch.withUnsafeMutableBufferPointer { branchBytes in
                digest.withUnsafeMutableBufferPointer { digestBytes in
                    pattern_tpm_pin_write_policy(
                        tpm.context, tagBytes.baseAddress, branchBytes.baseAddress, digestBytes.baseAddress)
                }
            }
        }
        guard rc == 0 else { throw TPMFailure(code: rc) }
        return TPMWritePolicy(tag: tag, branch: branch, digest: digest)
    }

    /// Defines an index for `user`'s `pattern` at the lowest free handle, with `policy` (writePolicy of the same
    /// `salt`), and returns its record. `salt` must be TPMPinAuth.saltSize fresh random bytes.
    public static func enroll(
        _ pattern: Pattern, user: [UInt8], salt: [UInt8], pinLimit: UInt32, policy: TPMWritePolicy,
        on tpm: TPMConnection
    ) throws(TPMFailure) -> TPMRecord {
        guard salt.count == TPMPinAuth.saltSize, pinLimit > 0, policy.tag == TPMPinAuth.policyTag(salt: salt) else {
            throw TPMFailure(code: 0x7E00_0001)
        }
        var auth = TPMPinAuth.value(salt: salt, user: user, pattern: pattern)
        defer { for i in auth.indices { auth[i] = 0 } }
        let tag = policy.tag
        var start = TPMIndexRange.first
        // Another enrolment may take the handle between the listing and the definition: try the next.
        for _ in 0..<16 {
            let defined = try tpm.definedIndexes(from: start, through: TPMIndexRange.last)
            guard let handle = TPMIndexRange.firstFree(defined: defined, from: start) else {
                throw TPMFailure(code: 0x14C)
            }
            var name = [UInt8](repeating: 0, count: TPMRecord.nameSize)
            let rc = auth.withUnsafeBufferPointer { authBytes in
                tag.withUnsafeBufferPointer { tagBytes in
                    policy.branch.withUnsafeBufferPointer { branchBytes in
                        policy.digest.withUnsafeBufferPointer { digestBytes in
                            name.withUnsafeMutableBufferPointer { nameBytes in
                                pattern_tpm_define_pin_index(
                                    tpm.context, handle, authBytes.baseAddress, tagBytes.baseAddress,
                                    branchBytes.baseAddress, digestBytes.baseAddress, pinLimit,
                                    nameBytes.baseAddress)
                            }
                        }
                    }
                }
            }
            let failure = TPMFailure(code: rc)
            if failure.isHandleTaken && handle < TPMIndexRange.last {
                start = handle + 1
                continue
            }
            guard rc == 0 else { throw failure }
            guard let record = TPMRecord(handle: handle, name: name, salt: salt) else {
                throw TPMFailure(code: 0x7E00_0002)
            }
            return record
        }
        throw TPMFailure(code: 0x14C)
    }

    /// Asks the TPM whether `pattern` is `user`'s: one read of the index with the derived auth in an HMAC
    /// session bound to the session-key index (`sessionKey`, TPMSessionKeyFile), or salted by a key made for
    /// it when there is no session key or it does not prove itself. A wrong pattern is counted by the TPM
    /// itself.
    public static func check(
        _ pattern: Pattern, user: [UInt8], record: TPMRecord, sessionKey: [UInt8]?,
        on tpm: TPMConnection
    ) -> TPMCheckOutcome {
        var auth = TPMPinAuth.value(salt: record.salt, user: user, pattern: pattern)
        defer { for i in auth.indices { auth[i] = 0 } }
        let key = sessionKey.flatMap { $0.count == TPMSessionKeyFile.size ? $0 : nil }
        let rc = auth.withUnsafeBufferPointer { authBytes in
            record.name.withUnsafeBufferPointer { nameBytes in
                withOptionalBytes(key) { keyBytes in
                    pattern_tpm_check_pin(
                        tpm.context, record.handle, nameBytes.baseAddress, authBytes.baseAddress,
                        TPMIndexRange.sessionKey, keyBytes)
                }
            }
        }
        return TPMCheckOutcome.classify(rc)
    }

    private static func withOptionalBytes(
        _ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?) -> UInt32
    ) -> UInt32 {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// The TPM's failure count and limit for the record's index (owner read; not a try).
    public static func counter(
        of record: TPMRecord, on tpm: TPMConnection
    )
        throws(TPMFailure) -> (failures: UInt32, limit: UInt32)
    {
        var failures: UInt32 = 0
        var limit: UInt32 = 0
        let rc = record.name.withUnsafeBufferPointer { nameBytes in
            pattern_tpm_read_counter(tpm.context, record.handle, nameBytes.baseAddress, &failures, &limit)
        }
        guard rc == 0 else { throw TPMFailure(code: rc) }
        return (failures, limit)
    }

    /// Deletes the index at `handle` whatever it is (the orphan sweep: an index in the range no record names).
    public static func removeUnrecorded(handle: UInt32, on tpm: TPMConnection) throws(TPMFailure) {
        guard TPMIndexRange.handles.contains(handle) else { throw TPMFailure(code: 0x7E00_0001) }
        var name = [UInt8](repeating: 0, count: TPMRecord.nameSize)
        let read = name.withUnsafeMutableBufferPointer { pattern_tpm_index_name(tpm.context, handle, $0.baseAddress) }
        guard read == 0 else { throw TPMFailure(code: read) }
        let rc = name.withUnsafeBufferPointer { pattern_tpm_undefine(tpm.context, handle, $0.baseAddress) }
        guard rc == 0 else { throw TPMFailure(code: rc) }
    }

    /// Deletes the record's index (only if the index at the handle is still the recorded one).
    public static func remove(_ record: TPMRecord, on tpm: TPMConnection) throws(TPMFailure) {
        let rc = record.name.withUnsafeBufferPointer { nameBytes in
            pattern_tpm_undefine(tpm.context, record.handle, nameBytes.baseAddress)
        }
        guard rc == 0 else { throw TPMFailure(code: rc) }
    }
}
