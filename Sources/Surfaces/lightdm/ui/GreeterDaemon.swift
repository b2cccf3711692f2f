import CPatternPad
import PatternCoreEmbedded

/// The LightDM daemon as the greeter reaches it: the table of calls the greeter's C main fills (pattern_greeter.h),
/// and the user PAM is asked about (nil: PAM asks the name).
struct GreeterDaemon {
    let calls: UnsafePointer<pattern_greeter_daemon>
    var user: [UInt8]?

    func authenticate() -> Bool {
        guard let call = calls.pointee.authenticate else { return false }
        guard let user else { return call(nil) == 0 }
        return Self.withCString(user) { call($0) == 0 }
    }

    /// `answer`: NUL-terminated, in the locked secret page.
    func respond(_ answer: UnsafeMutablePointer<UInt8>) -> Bool {
        guard let call = calls.pointee.respond else { return false }
        return answer.withMemoryRebound(to: CChar.self, capacity: 1) { call($0) == 0 }
    }

    func cancel() { _ = calls.pointee.cancel_authentication?() }

    func startSession(_ key: [UInt8]?) -> Bool {
        guard let call = calls.pointee.start_session else { return false }
        guard let key else { return call(nil) == 0 }
        return Self.withCString(key) { call($0) == 0 }
    }

    var lockHint: Bool { (calls.pointee.lock_hint?() ?? 0) != 0 }
    var selectUserHint: [UInt8]? { Self.text(calls.pointee.select_user_hint?()) }
    var hideUsersHint: Bool { (calls.pointee.hide_users_hint?() ?? 0) != 0 }
    var defaultSession: [UInt8]? { Self.text(calls.pointee.default_session?()) }
    var hostname: [UInt8] { Self.text(calls.pointee.hostname?()) ?? [] }
    /// The keyboard layout's short name ("us"), empty when unknown.
    var layout: [UInt8] { Self.text(calls.pointee.layout?()) ?? [] }

    /// Shut down, restart or sleep (PATTERN_GREETER_SHUT_DOWN ...): whether the daemon's system allows it, and the
    /// call.
    func canPower(_ which: Int32) -> Bool { (calls.pointee.can_power?(which) ?? 0) != 0 }
    func power(_ which: Int32) -> Bool { (calls.pointee.power?(which) ?? -1) == 0 }

    /// The users LightDM offers (its user list: AccountsService, or /etc/passwd by its own rules).
    func users() -> [(login: [UInt8], name: [UInt8], loggedIn: Bool, session: [UInt8]?)] {
        var found: [(login: [UInt8], name: [UInt8], loggedIn: Bool, session: [UInt8]?)] = []
        let count = min(1000, Int(calls.pointee.user_count?() ?? 0))
        for i in 0..<count {
            let index = Int32(i)
            guard let login = Self.text(calls.pointee.user_login?(index)) else { continue }
            let name = Self.text(calls.pointee.user_display_name?(index)) ?? login
            let loggedIn = (calls.pointee.user_logged_in?(index) ?? 0) != 0
            found.append((login, name, loggedIn, Self.text(calls.pointee.user_session?(index))))
        }
        return found
    }

    /// The sessions of the daemon's sessions directories: key and name.
    func sessions() -> [(key: [UInt8], name: [UInt8])] {
        var found: [(key: [UInt8], name: [UInt8])] = []
        let count = min(1000, Int(calls.pointee.session_count?() ?? 0))
        for i in 0..<count {
            let index = Int32(i)
            guard let key = Self.text(calls.pointee.session_key?(index)) else { continue }
            found.append((key, Self.text(calls.pointee.session_name?(index)) ?? key))
        }
        return found
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> [UInt8]? {
        guard let bytes = PadText.bytes(pointer, limit: 4096), !bytes.isEmpty else { return nil }
        return bytes
    }

    static func withCString(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Bool) -> Bool {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { body($0) }
        }
    }
}
