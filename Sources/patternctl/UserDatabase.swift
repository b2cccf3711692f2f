import Glibc
import PatternCore

/// Users as patternctl names them (Strings), looked up through the core's one passwd lookup (`Account`).
enum UserDatabase {
    /// True when `name` is a user the system knows (a failed lookup counts as unknown).
    static func exists(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        return ((try? Account.uid(of: Array(name.utf8))) ?? nil) != nil
    }

    /// The login name of `uid`, if it has one.
    static func name(of uid: uid_t) -> String? {
        Account.name(of: UInt32(uid)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whom a command without USER is about: the person who ran sudo
    /// (SUDO_USER), else the user running patternctl.
    static func invokingUser() -> String? {
        if let sudoUser = getenv("SUDO_USER") {
            let name = String(cString: sudoUser)
            if !name.isEmpty { return name }
        }
        return name(of: getuid())
    }
}
