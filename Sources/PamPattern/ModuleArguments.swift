/// Reading argv from the pam.d line.
enum ModuleArguments {
    /// At most this many arguments are read (the rest are ignored).
    static let maximumCount = 64
    /// Arguments longer than this are dropped (PatternSettings then never sees them).
    static let maximumBytes = 8192
    /// pam_fail_delay on failure: 2 s, as pam_unix.
    static let failDelayMicroseconds: UInt32 = 2_000_000

    static func read(argc: Int32, argv: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [[UInt8]] {
        guard let argv, argc > 0 else { return [] }
        let count = Int(argc) > maximumCount ? maximumCount : Int(argc)
        var arguments: [[UInt8]] = []
        for index in 0..<count {
            // An over-long or NULL argument becomes an empty one: reported as unknown.
            arguments.append(CString.bytes(argv[index], limit: maximumBytes) ?? [])
        }
        return arguments
    }
}
