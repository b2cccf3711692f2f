/// Why /etc/security/pam_pattern.conf (or the file `conf=` names) cannot be used. Every case fails closed:
/// the module returns PAM_AUTHINFO_UNAVAIL and logs `message(path:)`, patternctl prints it and exits 1.
public enum ConfError: Error, Equatable, Sendable {
    /// The file or its directory failed a safety check, or could not be read.
    case unsafe(StoreError)
    /// A line is not a comment, blank, or a valid `key = value` (1-based line number).
    case malformed(line: Int, problem: ConfLineProblem)

    /// The longest piece of a line quoted back in a message.
    static let maximumQuotedBytes = 40

    /// "/etc/security/pam_pattern.conf line 3: deny must be a whole number from 1 to 1000". The path and any
    /// quoted text are sanitised (they end up in syslog).
    public func message(path: [UInt8]) -> String {
        let file = ConfError.printable(path)
        switch self {
        case .unsafe(let error): return "\(file): \(error.message)"
        case .malformed(let line, let problem): return "\(file) line \(line): \(problem.message)"
        }
    }

    /// Bytes as text, with anything but printable ASCII shown as '?'.
    static func printable(_ bytes: [UInt8]) -> String {
        var clean: [UInt8] = []
        for byte in bytes { clean.append(byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: "?")) }
        return String(decoding: clean, as: UTF8.self)
    }
}

/// What is wrong with one line of the configuration file.
public enum ConfLineProblem: Equatable, Sendable {
    /// Longer than `ConfFile.maximumLineBytes`.
    case tooLong
    /// A control character other than tab (a NUL, a carriage return, an escape).
    case controlCharacter
    /// Text without '=' (not quoted: a wrong `conf=` could name a file of secrets).
    case missingEquals
    /// A key that no option has (kept only when it looks like a key: lower-case letters, digits, '_').
    case unknownKey([UInt8])
    /// An option that belongs on a pam.d line only.
    case argumentOnly(OptionKey)
    /// A value the option does not accept.
    case badValue(OptionKey, OptionProblem)
    /// The key was already set on `firstLine`.
    case repeated(OptionKey, firstLine: Int)

    /// A sentence for the administrator.
    public var message: String {
        switch self {
        case .tooLong: return "the line is longer than \(ConfFile.maximumLineBytes) bytes"
        case .controlCharacter: return "the line contains a control character"
        case .missingEquals: return "expected 'key = value' (or a comment starting with '#')"
        case .unknownKey(let name):
            return name.isEmpty ? "unknown key" : "unknown key \"\(ConfError.printable(name))\""
        case .argumentOnly(let key):
            return "\(Self.name(key)) is a module argument for pam.d lines, not a key of this file"
        case .badValue(let key, let problem): return "\(Self.name(key)) \(problem.requirement)"
        case .repeated(let key, let firstLine): return "\(Self.name(key)) is already set on line \(firstLine)"
        }
    }

    static func name(_ key: OptionKey) -> String {
        PatternOption.spec(for: key).name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }
}
