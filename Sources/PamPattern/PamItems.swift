import CPamShim
import PatternCoreEmbedded

/// The PAM items the module reads and writes, as bytes.
struct PamItems {
    let handle: OpaquePointer?

    /// Longest remote host name looked at; longer counts as remote anyway.
    static let maximumHostBytes = 1024

    /// Result of asking libpam for the user.
    enum UserLookup {
        case user([UInt8])
        /// pam_get_user failed with this code (e.g. PAM_CONV_ERR when it had to prompt and could not).
        case failed(Int32)
        /// NULL, empty, too long, or a name no store line can hold.
        case unusable
    }

    /// pam_get_user: the user to authenticate (libpam prompts if the application gave none).
    func user() -> UserLookup {
        guard let handle else { return .failed(PAM_SYSTEM_ERR) }
        var name: UnsafePointer<CChar>? = nil
        let code = pam_pattern_get_user(handle, &name)
        guard code == PAM_SUCCESS else { return .failed(code) }
        guard let bytes = CString.bytes(name, limit: StoreRecord.maximumUserNameBytes),
            StoreRecord.isValidUserName(bytes)
        else { return .unusable }
        return .user(bytes)
    }

    /// PAM_USER as set now, without prompting (nil when unset).
    func currentUser() -> [UInt8]? {
        guard let handle else { return nil }
        guard let name = pam_pattern_get_item_string(handle, PAM_USER) else { return nil }
        return CString.bytes(name, limit: StoreRecord.maximumUserNameBytes)
    }

    /// True when the login comes over the network (LoginOrigin: PAM_RHOST, and PAM_TTY for the one local program
    /// that sets PAM_RHOST to this host). An over-long host or terminal is cut, which keeps it remote.
    func isRemote() -> Bool {
        guard let handle else { return false }
        let host = CString.prefix(pam_pattern_get_item_string(handle, PAM_RHOST), limit: PamItems.maximumHostBytes)
        let tty = CString.prefix(pam_pattern_get_item_string(handle, PAM_TTY), limit: PamItems.maximumHostBytes)
        return LoginOrigin.isRemote(host: host, tty: tty)
    }

    /// The PAM service pam_pattern_helper runs to check an account password (pam.d/patternctl).
    static let passwordCheckService: [UInt8] = Array("patternctl".utf8)

    /// The PAM service alone, cut at `limit` bytes (the attempt record's field size unless told).
    func service(limit: Int = AttemptRecord.maximumFieldBytes) -> [UInt8] {
        guard let handle else { return [] }
        return CString.prefix(pam_pattern_get_item_string(handle, PAM_SERVICE), limit: limit)
    }

    /// Program, terminal and remote host of this attempt, for the attempt record (each cut to the record's
    /// field size; unset items are empty). The program is what the person ran, named as they know it: the
    /// host's name with its PAM service when they differ ("authproto_pam(common-auth)" for xsecurelock), the
    /// service alone when they agree ("sudo").
    func origin() -> AttemptOrigin {
        let limit = AttemptRecord.maximumFieldBytes
        guard let handle else { return AttemptOrigin(service: [], tty: [], remoteHost: []) }
        return AttemptOrigin(
            service: AttemptOrigin.program(
                CString.prefix(pam_pattern_program_name(), limit: limit), service: service()),
            tty: CString.prefix(pam_pattern_get_item_string(handle, PAM_TTY), limit: limit),
            remoteHost: CString.prefix(pam_pattern_get_item_string(handle, PAM_RHOST), limit: limit))
    }

    /// PAM_AUTHTOK as an earlier module left it (pam_unix, after the password), nil when unset or longer than
    /// `limit` bytes. The caller zeroes the copy.
    func authToken(limit: Int) -> [UInt8]? {
        guard let handle else { return nil }
        return CString.bytes(pam_pattern_get_item_string(handle, PAM_AUTHTOK), limit: limit)
    }

    /// Sets PAM_AUTHTOK (forward_pass only). libpam copies the string.
    func setAuthToken(_ token: UnsafePointer<CChar>) -> Int32 {
        guard let handle else { return PAM_SYSTEM_ERR }
        return pam_pattern_set_authtok(handle, token)
    }
}
