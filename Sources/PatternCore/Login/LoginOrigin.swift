/// Whether a login comes over the network, from PAM_RHOST and PAM_TTY (pam_pattern(8), "allow_remote").
///
/// Local: no PAM_RHOST (sudo, su, login on a console, most screen lockers), or PAM_RHOST naming this host
/// ("localhost", "127.0.0.1", "::1") together with a PAM_TTY that is a local X display (":0", ":1.0"). That
/// second case is xsecurelock's authproto_pam: it sets PAM_RHOST=localhost and PAM_TTY=$DISPLAY by convention.
/// Everything else is remote, loopback included: sshd sets PAM_TTY "ssh" and, for a tunnelled login
/// (ssh -p 2222 localhost through a forward), PAM_RHOST 127.0.0.1 or localhost; an X display with a host part
/// ("localhost:10.0", ssh's X forwarding) is a keyboard somewhere else.
public enum LoginOrigin {
    /// True when the login must be treated as remote.
    public static func isRemote(host: [UInt8], tty: [UInt8]) -> Bool {
        if host.isEmpty { return false }
        return !(isLoopbackName(host) && isLocalDisplay(tty))
    }

    /// The names a local program uses for this host.
    static func isLoopbackName(_ host: [UInt8]) -> Bool {
        return host.elementsEqual("localhost".utf8) || host.elementsEqual("127.0.0.1".utf8)
            || host.elementsEqual("::1".utf8)
    }

    /// ":N" or ":N.S" (decimal N and S): an X display on this machine, no host part.
    static func isLocalDisplay(_ tty: [UInt8]) -> Bool {
        guard tty.first == UInt8(ascii: ":") else { return false }
        let rest = tty.dropFirst()
        let parts = rest.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return false }
        for part in parts {
            guard !part.isEmpty, part.count <= 10, part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        }
        return true
    }
}
