import CPatternSystem

/// The account a user name belongs to now, from the system user database (getpwnam_r through NSS).
/// A pattern belongs to an account, not to a name: a store record carries its account's uid, and a record
/// whose uid is not the uid that name has now (the account was deleted, and maybe a new one made with the
/// same name) is never used.
public enum Account {
    /// The uid of the account named `user`, nil when there is no such account.
    public static func uid(of user: [UInt8]) throws(StoreError) -> UInt32? {
        guard let name = SystemCall.cString(user) else { return nil }
        var uid: uid_t = 0
        switch pattern_account_uid(name, &uid) {
        case 0: return UInt32(uid)
        case 1: return nil
        default: throw .system(operation: .accountLookup, errno: pattern_errno())
        }
    }
}

extension StoreRecord {
    /// Throws `accountMismatch` unless the record may be used for the account that has its name now: a record
    /// without a uid (written before records carried one) is used as it is until patternctl next writes the
    /// store and binds it; a record with a uid needs an account of that name with exactly that uid.
    public func requireAccount() throws(StoreError) {
        guard let recorded = uid else { return }
        let current = try Account.uid(of: user)
        if current != recorded { throw .accountMismatch(recordUid: recorded, accountUid: current) }
    }
}
