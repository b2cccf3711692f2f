import CPatternSystem

/// The account a user name belongs to now, from the system user database (through NSS): the one passwd lookup
/// of the module, the helper and patternctl.
/// A pattern belongs to an account, not to a name: a store record carries its account's uid, and a record
/// whose uid is not the uid that name has now (the account was deleted, and maybe a new one made with the
/// same name) is never used.
public enum Account {
    /// The uid of the account named `user`, nil when there is no such account.
    public static func uid(of user: [UInt8]) throws(StoreError) -> UInt32? {
        guard let name = SystemCall.cString(user) else { return nil }
        var uid: uid_t = 0
        switch pattern_account_lookup(name, &uid, nil, 0, nil) {
        case 0: return UInt32(uid)
        case 1: return nil
        default: throw .system(operation: .accountLookup, errno: pattern_errno())
        }
    }

    /// The login name of the account whose uid is `uid`; nil when there is none, when the lookup fails or
    /// when the name is longer than any user name the store can hold (`StoreRecord.maximumUserNameBytes`): to
    /// each caller (the helper naming its caller, patternctl naming whoever runs it) all three mean "nobody
    /// it may act for".
    public static func name(of uid: UInt32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: StoreRecord.maximumUserNameBytes)
        var found = uid_t(uid)
        var length = 0
        let status = buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
            pattern_account_lookup(nil, &found, pointer.baseAddress, pointer.count, &length)
        }
        guard status == 0, length <= buffer.count else { return nil }
        return Array(buffer[0..<length])
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
