import CPatternSystem

/// Any of the last `remembered` distinct wrong patterns typed again within `windowSeconds` of being judged wrong
/// is answered "wrong" without being counted, hashed, or put to the TPM (Android's 2025 rate limiter does the
/// same: it tells an attacker nothing, and a person who retypes a mistake, goes back and forth between two
/// near misses, or a locker that re-submits one, would lose a try each time).
///
/// Each wrong guess is remembered as a tag, with the time, in the user's attempt record: HMAC-SHA256 under the repeat key of
/// the user, the store record the guess was judged against and the guess's canonical digits. Never the digits:
/// the key is 32 random bytes in `.<store name>.repeat-key` beside the store (root, 0600, like the store), not
/// in the state directory the record is in, so a copy of /var/lib (a backup) holds nothing a guess can be
/// tested against; no user can read it or derive it. The store record is part of the tag, so a new pattern
/// never inherits the old one's remembered wrong guess.
public enum RepeatedGuess {
    /// Length of the key and of a tag.
    public static let bytes = 32
    /// How many distinct wrong guesses are remembered (Android: 5).
    public static let remembered = 5
    /// How long a wrong guess is remembered, in seconds (Android: 5 minutes).
    public static let windowSeconds: Int64 = 300

    static let label: [UInt8] = Array("pam_pattern repeated guess v1\u{0}".utf8)

    /// The tag of `pattern` guessed for `user` against `record`.
    public static func tag(key: [UInt8], user: [UInt8], record: StoreRecord, pattern: Pattern) -> [UInt8] {
        // One buffer reserved whole and wiped after: the digits must not stay in freed memory.
        var message: [UInt8] = []
        message.reserveCapacity(label.count + user.count + record.hash.count + pattern.dots.count + 2)
        message.append(contentsOf: label)
        message.append(contentsOf: user)
        message.append(0)
        message.append(contentsOf: record.hash)
        message.append(0)
        for dot in pattern.dots { message.append(dot &+ 0x30) }
        defer { message.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
        return SHA256.hmac(key: key, message: message)
    }
}

/// A wrong guess as the attempt record remembers it: its tag (RepeatedGuess) and when it was judged wrong.
public struct RememberedWrongGuess: Equatable, Sendable {
    public let tag: [UInt8]
    /// Seconds since the epoch, never negative; 0 for a tag written before times were kept (long expired).
    public let time: Int64

    public init(tag: [UInt8], time: Int64) {
        self.tag = tag
        self.time = max(time, 0)
    }

    /// Whether a guess at `now` with this tag is a repeat: the same tag, judged wrong at most `windowSeconds`
    /// ago (a time ahead of `now`, a clock set back, is no repeat: counted).
    func isRepeat(of tag: [UInt8], at now: Int64) -> Bool {
        return self.tag == tag && now >= time && now - time <= RepeatedGuess.windowSeconds
    }
}

extension PatternStore {
    /// The repeat key (RepeatedGuess), made on first use. nil when there is none and none can be made (a
    /// read-only /etc): then no guess is taken for a repeat and every one is counted, as before.
    public func repeatKey() -> [UInt8]? {
        guard let location = try? SafeFile.split(path),
            let directory = try? SafeFile.openDirectory(location.directory, create: false)
        else { return nil }
        defer { SystemCall.close(directory) }
        let nameBytes = [0x2E] + location.nameBytes + Array(".repeat-key".utf8)
        guard let name = SystemCall.cString(nameBytes) else { return nil }
        if let key = PatternStore.readKey(in: directory, name) { return key }
        var fresh = [UInt8](repeating: 0, count: RepeatedGuess.bytes)
        let filled = fresh.withUnsafeMutableBytes { pattern_random_bytes($0.baseAddress, $0.count) }
        defer { fresh.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
        guard filled == 0 else { return nil }
        // Two first guesses at once may both write one: the last rename wins, and a tag made under the other key
        // only fails to match (that repeat is counted). Nothing worse can come of the race.
        let tempPrefix = nameBytes + Array(".tmp.".utf8)
        SafeFile.sweepTemps(in: directory, prefix: tempPrefix)
        try? SafeFile.replace(in: directory, name: name, tempPrefix: tempPrefix, with: fresh)
        return PatternStore.readKey(in: directory, name)
    }

    /// The key file's 32 bytes, checked like the store (root, 0600, one link, regular); nil otherwise.
    private static func readKey(in directory: Int32, _ name: [CChar]) -> [UInt8]? {
        guard let fd = try? SystemCall.openat(directory, name, SafeFile.readFlags) else { return nil }
        defer { SystemCall.close(fd) }
        guard (try? SafeFile.checkFile(fd, limit: Int64(RepeatedGuess.bytes))) != nil,
            let bytes = try? SystemCall.readAll(fd, limit: RepeatedGuess.bytes), bytes.count == RepeatedGuess.bytes
        else { return nil }
        return bytes
    }
}
