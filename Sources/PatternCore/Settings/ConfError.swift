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
    public func message(path: [UInt8]) -> String { String(decoding: messageBytes(path: path), as: UTF8.self) }

    /// `message(path:)` as bytes (what the module logs).
    public func messageBytes(path: [UInt8]) -> [UInt8] {
        var message = MessageBytes()
        message.add(printable: path)
        switch self {
        case .unsafe(let error):
            message.add(": ")
            message.bytes.append(contentsOf: error.message.utf8)
        case .malformed(let line, let problem):
            message.add(" line ")
            message.add(number: Int64(line))
            message.add(": ")
            problem.describe(into: &message)
        }
        return message.bytes
    }

    /// Bytes as text, with anything but printable ASCII shown as '?'.
    static func printable(_ bytes: [UInt8]) -> String {
        var message = MessageBytes()
        message.add(printable: bytes)
        return String(decoding: message.bytes, as: UTF8.self)
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
        var message = MessageBytes()
        describe(into: &message)
        return String(decoding: message.bytes, as: UTF8.self)
    }

    func describe(into message: inout MessageBytes) {
        switch self {
        case .tooLong:
            message.add("the line is longer than ")
            message.add(number: Int64(ConfFile.maximumLineBytes))
            message.add(" bytes")
        case .controlCharacter: message.add("the line contains a control character")
        case .missingEquals: message.add("expected 'key = value' (or a comment starting with '#')")
        case .unknownKey(let name):
            message.add("unknown key")
            if !name.isEmpty {
                message.add(" \"")
                message.add(printable: name)
                message.add("\"")
            }
        case .argumentOnly(let key):
            message.add(option: key)
            message.add(" is a module argument for pam.d lines, not a key of this file")
        case .badValue(let key, let problem):
            message.add(option: key)
            message.add(" ")
            message.bytes.append(contentsOf: problem.requirementBytes)
        case .repeated(let key, let firstLine):
            message.add(option: key)
            message.add(" is already set on line ")
            message.add(number: Int64(firstLine))
        }
    }
}
