/// One enrolled user: a line `user:uid:hash:setAt\n` of the store, or `user:hash:setAt\n` as written before
/// records carried the account's uid (see FILEFORMAT.md).
public struct StoreRecord: Equatable, Sendable {
    /// The user name, bytes as PAM gives them.
    public var user: [UInt8]
    /// The crypt(5) yescrypt string "$y$<params>$<salt>$<hash>" of the canonical digits, or a TPM record
    /// "$tpm2$..." (TPMRecord: where the TPM holds the pattern; no hash at all).
    public var hash: [UInt8]
    /// When the pattern was set, seconds since the epoch.
    public var setAt: Int64
    /// The uid of the account the pattern was set for; nil for a record written before records carried it
    /// (patternctl fills it in at its next write of the store). See `requireAccount`.
    public var uid: UInt32?

    /// The largest uid a record holds ((uid_t)-1 means "no uid" to the kernel).
    public static let maximumUid: UInt32 = 4_294_967_294

    /// Longest user name accepted. Linux names are usually <= 32 bytes (useradd); 100 keeps the hex-encoded
    /// throttle file name (200 bytes) under NAME_MAX (255).
    public static let maximumUserNameBytes = 100
    /// Longest hash accepted (PatternHash.isValidHash).
    public static let maximumHashBytes = PatternHash.maximumHashBytes

    public init(user: [UInt8], hash: [UInt8], setAt: Int64, uid: UInt32? = nil) {
        self.user = user
        self.hash = hash
        self.setAt = setAt
        self.uid = uid
    }

    /// The TPM record when the TPM holds this user's pattern, nil for a yescrypt hash.
    public var tpmRecord: TPMRecord? { TPMRecord(text: hash) }

    /// What a store line's second field may hold: a yescrypt hash or a TPM record.
    public static func isValidCredential(_ field: [UInt8]) -> Bool {
        return PatternHash.isValidHash(field) || TPMRecord(text: field) != nil
    }

    /// The yescrypt cost (the `count` given to crypt_gensalt_rn), read from the hash's parameter field;
    /// nil if the parameters are not ones crypt_gensalt_rn("$y$", 1...11) produces.
    public var cost: Int? { PatternHash.cost(ofHash: hash) }

    /// True for a name that can be stored and used as a key: 1...maximumUserNameBytes bytes, none of them ':',
    /// a space, or a control byte (0x00-0x20, 0x7F). Bytes >= 0x80 (UTF-8 names) are allowed.
    public static func isValidUserName(_ user: [UInt8]) -> Bool {
        if user.isEmpty || user.count > maximumUserNameBytes { return false }
        for byte in user where byte <= 0x20 || byte == 0x7F || byte == 0x3A { return false }
        return true
    }

    /// The line for the file, newline included.
    public func encoded() -> [UInt8] {
        var line = user
        line.append(0x3A)
        if let uid {
            line.append(contentsOf: StoreRecord.decimal(Int64(uid)))
            line.append(0x3A)
        }
        line.append(contentsOf: hash)
        line.append(0x3A)
        line.append(contentsOf: StoreRecord.decimal(setAt))
        line.append(0x0A)
        return line
    }

    /// Decimal digits of a non-negative value (negative values are written as 0; the parser refuses signs).
    static func decimal(_ value: Int64) -> [UInt8] { TextCodec.decimal(value) }

    /// Parses a non-negative decimal without sign or leading zeros that fits Int64; nil otherwise.
    static func parseDecimal(_ bytes: ArraySlice<UInt8>) -> Int64? {
        TextCodec.parseDecimal(bytes, leadingZeros: false, maximumDigits: 19)
    }

    /// Parses one line (without its newline). Throws the problem; the caller adds the line number.
    static func parse(line: ArraySlice<UInt8>) -> Result<StoreRecord, LineProblem> {
        if line.isEmpty { return .failure(.emptyLine) }
        var separators: [Int] = []
        for index in line.indices where line[index] == 0x3A {
            separators.append(index)
            if separators.count > 3 { break }
        }
        guard separators.count == 2 || separators.count == 3 else {
            var count = 1
            for byte in line where byte == 0x3A { count += 1 }
            return .failure(.wrongFieldCount(count))
        }
        // Four fields: user, uid, hash, time. Three (written before records carried a uid): user, hash, time.
        let bound = separators.count == 3
        let hashStart = separators[bound ? 1 : 0] + 1
        let hashEnd = separators[bound ? 2 : 1]
        let user = Array(line[line.startIndex..<separators[0]])
        let hash = Array(line[hashStart..<hashEnd])
        let time = line[(hashEnd + 1)..<line.endIndex]
        guard isValidUserName(user) else { return .failure(.badUserName) }
        var uid: UInt32? = nil
        if bound {
            guard let value = parseDecimal(line[(separators[0] + 1)..<separators[1]]), value <= Int64(maximumUid)
            else { return .failure(.badUid) }
            uid = UInt32(value)
        }
        guard isValidCredential(hash) else { return .failure(.badHash) }
        guard let setAt = parseDecimal(time) else { return .failure(.badTime) }
        return .success(StoreRecord(user: user, hash: hash, setAt: setAt, uid: uid))
    }

    /// Parses a whole store. Strict: any malformed line, a missing final newline, or a repeated user is an
    /// error naming the line; nothing is ever skipped (a skipped line could change who is enrolled).
    /// An empty file is an empty store.
    public static func parseStore(_ bytes: [UInt8]) throws(StoreError) -> [StoreRecord] {
        var records: [StoreRecord] = []
        var lineStart = 0
        var lineNumber = 1
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                switch parse(line: bytes[lineStart..<index]) {
                case .failure(let problem):
                    throw .malformedLine(lineNumber: lineNumber, reason: problem)
                case .success(let record):
                    records.append(record)
                }
                lineNumber += 1
                lineStart = index + 1
            }
            index += 1
        }
        if lineStart < bytes.count {
            throw .malformedLine(lineNumber: lineNumber, reason: .missingNewline)
        }
        if let (line, first) = firstDuplicate(records) {
            throw .duplicateUser(lineNumber: line, firstLineNumber: first)
        }
        return records
    }

    /// The earliest line that repeats a user, with the line it repeats (1-based). Sorting instead of a
    /// Dictionary: no hashing and no libm (Dictionary's capacity math calls ceil) in the Embedded module.
    static func firstDuplicate(_ records: [StoreRecord]) -> (line: Int, first: Int)? {
        var order = Array(records.indices)
        order.sort { left, right in
            let a = records[left].user
            let b = records[right].user
            if a == b { return left < right }
            return a.lexicographicallyPrecedes(b)
        }
        var best: (line: Int, first: Int)? = nil
        var groupStart = 0
        var position = 1
        while position < order.count {
            if records[order[position]].user == records[order[groupStart]].user {
                let line = order[position] + 1
                if best == nil || line < (best?.line ?? Int.max) { best = (line, order[groupStart] + 1) }
            } else {
                groupStart = position
            }
            position += 1
        }
        return best
    }

    /// The bytes of a whole store, one encoded line per record, in order.
    public static func encodeStore(_ records: [StoreRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        for record in records { bytes.append(contentsOf: record.encoded()) }
        return bytes
    }
}
