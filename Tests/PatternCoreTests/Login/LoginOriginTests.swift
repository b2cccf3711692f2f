import Testing

@testable import PatternCore

@Suite struct LoginOriginTests {
    @Test(arguments: [
        ("", ""),  // sudo, su, login on a console
        ("", "ssh"),  // sudo inside an ssh session: the host is not ours to judge
        ("localhost", ":0"),  // xsecurelock's authproto_pam with its defaults
        ("localhost", ":99"),
        ("localhost", ":1.0"),
        ("127.0.0.1", ":0"),
        ("::1", ":12.3"),
    ])
    func local(host: String, tty: String) {
        #expect(!LoginOrigin.isRemote(host: Array(host.utf8), tty: Array(tty.utf8)))
    }

    @Test(arguments: [
        ("localhost", "ssh"),  // sshd, tunnelled through a forward to this host
        ("127.0.0.1", "ssh"),
        ("::1", "ssh"),
        ("localhost", ""),
        ("localhost", "/dev/pts/3"),
        ("localhost", "localhost:10.0"),  // ssh X forwarding: the keyboard is elsewhere
        ("localhost", "otherhost:0"),
        ("localhost", ":"),
        ("localhost", ":0."),
        ("localhost", ":0.1.2"),
        ("localhost", ":x"),
        ("localhost", ":00000000000"),
        ("203.0.113.7", ":0"),
        ("example.org", ":0"),
        ("localhost.", ":0"),
        ("127.0.0.2", ":0"),
        ("LOCALHOST", ":0"),
    ])
    func remote(host: String, tty: String) {
        #expect(LoginOrigin.isRemote(host: Array(host.utf8), tty: Array(tty.utf8)))
    }
}
