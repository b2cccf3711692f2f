import Glibc

/// Looks users up in the system user database (passwd, NSS).
enum UserDatabase {
    /// True when `name` is a user the system knows. The corresponding C function is `getpwnam_r`.
    static func exists(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        return withPasswd { entry, buffer, size, result in
            getpwnam_r(name, entry, buffer, size, result)
        } != nil
    }

    /// The login name of `uid`, if it has one. The corresponding C function is `getpwuid_r`.
    static func name(of uid: uid_t) -> String? {
        withPasswd { entry, buffer, size, result in
            getpwuid_r(uid, entry, buffer, size, result)
        }
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

    /// Runs one getpw*_r lookup, growing the buffer on ERANGE; returns pw_name.
    private static func withPasswd(
        _ lookup: (
            UnsafeMutablePointer<passwd>, UnsafeMutablePointer<CChar>, Int,
            UnsafeMutablePointer<UnsafeMutablePointer<passwd>?>
        ) -> Int32
    ) -> String? {
        var size = 1024
        while size <= 1 << 20 {
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>? = nil
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            let status = lookup(&entry, buffer, size, &result)
            if status == ERANGE {
                size *= 4
                continue
            }
            guard status == 0, let found = result, let name = found.pointee.pw_name else { return nil }
            return String(cString: name)
        }
        return nil
    }
}
