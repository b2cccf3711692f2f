import CPatternSystem

/// /etc/security/pam_pattern.conf: the system policy the module, the setuid helper and patternctl all read.
///
/// In the style of pam_faillock's faillock.conf: one `key = value` per line, `#` starts a comment (to the end
/// of the line), blank lines are ignored. The keys are the rows of `PatternOption.table` whose scope is `.both` or `.conf`.
/// Unlike faillock, which logs and skips what it does not understand, anything wrong fails closed: this file
/// sets the throttle, and a typo must not silently leave the defaults in place. A missing file (or a missing
/// directory) means the defaults. The file must be root's alone to change (owner root, not writable by group
/// or others, not a symlink, one link, in a root-owned directory nobody else can write), and may be readable
/// by everyone: the module reads it as whichever user runs the screen locker.
public struct ConfFile: Sendable {
    /// "/etc/security/pam_pattern.conf"
    public static let defaultPath: [UInt8] = Array("/etc/security/pam_pattern.conf".utf8)
    /// A larger file is refused (the commented default is about 3 KiB).
    public static let maximumFileBytes: Int64 = 65536
    /// A longer line is refused.
    public static let maximumLineBytes = 8192

    public let path: [UInt8]

    public init(path: [UInt8] = ConfFile.defaultPath) {
        self.path = path
    }

    /// The file's settings in file order; [] when the file or its directory does not exist.
    public func settings() throws(ConfError) -> [OptionSetting] {
        guard let bytes = try read() else { return [] }
        return try Self.parse(bytes)
    }

    /// The file's bytes after the safety checks, or nil when there is no file.
    func read() throws(ConfError) -> [UInt8]? {
        let location: SafeFile.Location
        do { location = try SafeFile.split(path) } catch { throw .unsafe(error) }
        let directory: Int32
        do {
            guard let opened = try SafeFile.openDirectory(location.directory, create: false) else { return nil }
            directory = opened
        } catch {
            throw .unsafe(error)
        }
        defer { SystemCall.close(directory) }
        let fd: Int32
        do {
            fd = try SystemCall.openat(directory, location.name, SafeFile.readFlags)
        } catch {
            if error.code == ENOENT { return nil }
            throw .unsafe(SafeFile.fileOpenError(error))
        }
        defer { SystemCall.close(fd) }
        let size: Int64
        do {
            size = try SafeFile.checkFile(fd, limit: Self.maximumFileBytes, othersMayRead: true)
        } catch {
            throw .unsafe(error)
        }
        let bytes: [UInt8]?
        do {
            bytes = try SystemCall.readAll(fd, limit: Int(Self.maximumFileBytes), size: size)
        } catch {
            throw .unsafe(.system(operation: .read, errno: error.code))
        }
        // Grew past the cap after the size check.
        guard let bytes else {
            throw .unsafe(.tooLarge(bytes: Self.maximumFileBytes + 1, limit: Self.maximumFileBytes))
        }
        return bytes
    }

    /// Parses a whole file. Every line is a comment, blank, or `key = value` with a known configuration key
    /// given once, whose value its row of `PatternOption.table` accepts.
    public static func parse(_ bytes: [UInt8]) throws(ConfError) -> [OptionSetting] {
        var settings: [OptionSetting] = []
        var lines: [Int] = []  // the line of each setting, for "repeats line N"
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = bytes[start..<end]
            start = end + 1
            if line.count > maximumLineBytes { throw .malformed(line: lineNumber, problem: .tooLong) }
            guard let setting = try parseLine(line, number: lineNumber) else { continue }
            for index in settings.indices where settings[index].key == setting.key {
                throw .malformed(line: lineNumber, problem: .repeated(setting.key, firstLine: lines[index]))
            }
            settings.append(setting)
            lines.append(lineNumber)
        }
        return settings
    }

    /// One line without its newline: nil for a blank or comment line.
    static func parseLine(_ raw: ArraySlice<UInt8>, number: Int) throws(ConfError) -> OptionSetting? {
        var line = raw
        if let hash = line.firstIndex(of: UInt8(ascii: "#")) { line = line[line.startIndex..<hash] }
        for byte in line where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            throw .malformed(line: number, problem: .controlCharacter)
        }
        line = trimmed(line)
        if line.isEmpty { return nil }
        guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
            throw .malformed(line: number, problem: .missingEquals)
        }
        let name = trimmed(line[line.startIndex..<equals])
        let value = trimmed(line[(equals + 1)...])
        guard let spec = PatternOption.named(name) else {
            let looksLikeKey =
                name.count <= ConfError.maximumQuotedBytes
                && name.allSatisfy {
                    ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                        || $0 == UInt8(ascii: "_")
                }
            throw .malformed(line: number, problem: .unknownKey(looksLikeKey ? Array(name) : []))
        }
        guard spec.isConfKey else { throw .malformed(line: number, problem: .argumentOnly(spec.key)) }
        do {
            return try OptionSetting.parse(spec, value: value)
        } catch {
            throw .malformed(line: number, problem: .badValue(spec.key, error))
        }
    }

    /// Without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }
}
