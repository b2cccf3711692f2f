/// The auth value of a user's TPM PIN Fail index, derived from the pattern.
///
/// HMAC-SHA256 keyed with the record's random salt over a domain label, the user name and the
/// pattern's canonical dots. It is deliberately fast: guessing is stopped by the TPM (the index's
/// pinLimit), not by the cost of this function, and the value is never stored anywhere (the TPM
/// keeps it; the store line holds only the salt). The salt makes two users with the same pattern,
/// or one user enrolling the same pattern again, get unrelated values; the user name binds a value
/// to one person even if a record is copied to another line.
public enum TPMPinAuth {
    /// Random bytes per record (stored in hex in the record, which sets their number).
    public static let saltSize = TPMRecord.saltSize

    static let label: [UInt8] = Array("pam_pattern tpm pin v1".utf8)

    /// The 32-byte auth value for `user` drawing `pattern` under `salt`.
    public static func value(salt: [UInt8], user: [UInt8], pattern: Pattern) -> [UInt8] {
        var message = label
        message.append(0)
        message.append(contentsOf: user)
        message.append(0)
        message.append(contentsOf: pattern.digits)
        return SHA256.hmac(key: salt, message: message)
    }

    static let tagLabel: [UInt8] = Array("pam_pattern tpm record v1".utf8)

    /// The unsatisfiable branch of the index's write policy: a hash of the salt, so every record's
    /// index has its own Name (a TPM Name covers the write policy, not the auth value) and a record
    /// never matches another index later defined at its handle.
    public static func policyTag(salt: [UInt8]) -> [UInt8] {
        var message = tagLabel
        message.append(0)
        message.append(contentsOf: salt)
        return SHA256.hash(message)
    }
}
