import PatternCoreEmbedded
import PatternTPM

/// Root's `tpm-enroll` and `tpm-remove`: a user's pattern moved into the TPM, or out of it again. The index is
/// defined before the store line changes and the old one deleted only after, so a failure at any step leaves the
/// user with a pattern that works (at worst an unused index, which `tpm-remove` of a later record never touches).
enum HelperTPMEnrolment {
    /// The TPM's limit when lock_after is 0 ("never disabled"): a PIN Fail index always has one.
    static let limitWhenNeverDisabled: UInt32 = 20

    static func enroll(user: [UInt8], typed: [UInt8], options: ModuleOptions, now: Int64) -> HelperVerdict {
        let minimum = Pattern.clampedMinimumLength(options.minimumLength)
        let pattern: Pattern
        do throws(PatternError) {
            pattern = try Pattern.parse(typed, layout: .phone, minimumLength: minimum)
        } catch {
            return .malformed(minimumLength: minimum)
        }
        let store = PatternStore(path: options.storePath)
        let tpm: TPMConnection
        do throws(TPMFailure) {
            tpm = try TPMConnection(tcti: String(decoding: options.tpmTCTI, as: UTF8.self))
        } catch {
            return unavailable("tpm-enroll: no TPM", error, user)
        }
        var salt = [UInt8](repeating: 0, count: TPMPinAuth.saltSize)
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255) }
        let lockAfter = options.throttle.lockAfter
        let limit = lockAfter > 0 ? UInt32(clamping: lockAfter) : limitWhenNeverDisabled
        let record: TPMRecord
        do throws(TPMFailure) {
            record = try TPMPatternIndex.enroll(pattern, user: user, salt: salt, pinLimit: limit, on: tpm)
        } catch {
            return unavailable("tpm-enroll: the TPM refused to define the index", error, user)
        }
        do throws(StoreError) {
            let old = try store.record(for: user)?.tpmRecord
            try store.save(StoreRecord(user: user, hash: record.text, setAt: now))
            try? ThrottleStore(directory: options.stateDirectory).reset(user: user)
            if let old, old != record {
                do throws(TPMFailure) { try TPMPatternIndex.remove(old, on: tpm) } catch {
                    HelperLog.notice(HelperLog.line("tpm-enroll: the previous index stays defined for user ", user))
                }
            }
        } catch {
            do throws(TPMFailure) { try TPMPatternIndex.remove(record, on: tpm) } catch {}
            HelperLog.critical("tpm-enroll: pattern store unusable: \(error.message)")
            return .unavailable
        }
        HelperLog.notice(HelperLog.line("pattern enrolled in the TPM for user ", user))
        return .accepted
    }

    static func remove(user: [UInt8], options: ModuleOptions) -> HelperVerdict {
        let store = PatternStore(path: options.storePath)
        do throws(StoreError) {
            guard let record = try store.record(for: user)?.tpmRecord else { return .notEnrolled }
            let tpm: TPMConnection
            do throws(TPMFailure) {
                tpm = try TPMConnection(tcti: String(decoding: options.tpmTCTI, as: UTF8.self))
            } catch {
                return unavailable("tpm-remove: no TPM", error, user)
            }
            do throws(TPMFailure) {
                try TPMPatternIndex.remove(record, on: tpm)
            } catch {
                // Gone already (cleared TPM) or another index at the handle: the line goes, that index stays.
                guard error.code == 0x18B || error.code == 0x7E00_0002 else {
                    return unavailable("tpm-remove: the TPM refused", error, user)
                }
            }
            _ = try store.remove(user: user)
            try? ThrottleStore(directory: options.stateDirectory).reset(user: user)
        } catch {
            HelperLog.critical("tpm-remove: pattern store unusable: \(error.message)")
            return .unavailable
        }
        HelperLog.notice(HelperLog.line("TPM pattern removed for user ", user))
        return .accepted
    }

    static func unavailable(_ what: String, _ error: TPMFailure, _ user: [UInt8]) -> HelperVerdict {
        HelperLog.notice(HelperLog.line("\(what) (\(error.description)) for user ", user))
        return .unavailable
    }
}
