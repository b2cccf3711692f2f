import CPatternSystem

/// Finding one user's record in a whole store, as the module does at every login.
///
/// Every line's structure is checked and nothing is skipped: an empty line, a wrong number of fields, a
/// field over its length cap, a hash field that is not "$y$...", or a missing final newline is an error naming
/// the line, so line boundaries and who is enrolled are never guessed. What is NOT re-checked on other users'
/// lines is the content of their fields (name bytes, hash alphabet, time digits): a bad byte there cannot
/// change this user's answer, and checking it was most of a lookup. The looked-up user's line gets the full
/// `StoreRecord.parse(line:)`, and duplicates are checked for that user. `patternctl` runs the full
/// `parseStore` before every write and for status/list, so such a store is still refused there.
///
/// One fast path (`fastLine`) takes a well-formed line in two memchr calls; any line it is unsure of goes to
/// the full parser, which either accepts it (a TPM record) or names its problem. The store fuzz target keeps
/// this equal to `StoreRecord.parseStore`. Result: a 100,000-user store is looked up in a few milliseconds
/// (bench/), not 90 ms.
enum StoreLookup {
    /// Bytes read at a time, at most. A valid line is at most `maximumLineBytes` + 1, so a window of at least
    /// `maximumLineBytes` + 2 without a newline holds a line that is malformed anyway.
    static let windowBytes = 65536

    /// The longest valid line without its newline: user, uid (10 digits), hash, time (19 digits), 3 ':'.
    static let maximumLineBytes = StoreRecord.maximumUserNameBytes + 1 + 10 + 1 + StoreRecord.maximumHashBytes + 1 + 19

    /// The record of `user` in the open store `fd`, read in windows: constant memory (a 100,000-user store
    /// never sits in the module's memory whole) and no page faults for a file-sized buffer. Reads at most
    /// `limit` bytes. `size`, the store's size when it was checked, sizes the window: a small store gets one its
    /// own size (SystemCall.bufferBytes), and any window holds a valid line.
    static func find(
        _ user: [UInt8], readingFrom fd: Int32, size: Int64, limit: Int64
    ) throws(StoreError)
        -> StoreRecord?
    {
        var scan = Scan(user: user)
        let bytes = SystemCall.bufferBytes(size: size, from: 0, atLeast: maximumLineBytes + 2, atMost: windowBytes)
        var window = [UInt8](repeating: 0, count: bytes)
        var filled = 0
        var total: Int64 = 0
        while true {
            let count: Int
            do { count = try SystemCall.read(fd, into: &window, from: filled) } catch {
                throw .system(operation: .read, errno: error.code)
            }
            if count == 0 {
                if filled > 0 { throw .malformedLine(lineNumber: scan.lineNumber, reason: .missingNewline) }
                return scan.found?.record
            }
            total += Int64(count)
            if total > limit { throw .tooLarge(bytes: total, limit: limit) }
            filled += count
            let result: Result<Int, StoreError> = window.withUnsafeBufferPointer { buffer in
                scan.feed(UnsafeBufferPointer(rebasing: buffer[0..<filled]))
            }
            let consumed = try result.get()
            if consumed == 0 && filled == window.count {
                // A whole window without a newline: one over-long line, which the full parser names.
                if case .failure(let problem) = StoreRecord.parse(line: window[...]) {
                    throw .malformedLine(lineNumber: scan.lineNumber, reason: problem)
                }
                throw .malformedLine(lineNumber: scan.lineNumber, reason: .wrongFieldCount(1))  // cannot happen
            }
            // Keep the partial last line at the front of the window.
            if consumed > 0 {
                let rest = filled - consumed
                window.withUnsafeMutableBufferPointer { buffer in
                    if let base = buffer.baseAddress, rest > 0 { memmove(base, base + consumed, rest) }
                }
                filled = rest
            }
        }
    }

    /// The state of one lookup, fed complete lines window by window.
    struct Scan {
        let user: [UInt8]
        var lineNumber = 1
        var found: (record: StoreRecord, line: Int)? = nil

        init(user: [UInt8]) { self.user = user }

        /// Checks every complete line in `bytes`; returns how many bytes (whole lines) were consumed.
        mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Int, StoreError> {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return .success(0) }
            var lineStart = 0
            while lineStart < bytes.count {
                let userLength: Int
                let lineEnd: Int
                if let fast = StoreLookup.fastLine(base, from: lineStart, count: bytes.count) {
                    (userLength, lineEnd) = fast
                } else {
                    // Unsure: the full parser decides (memchr: the libc scan is vectorised).
                    guard let hit = memchr(base + lineStart, 0x0A, bytes.count - lineStart) else { break }
                    lineEnd = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    switch StoreRecord.parse(
                        line: ArraySlice(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])))
                    {
                    case .failure(let problem):
                        return .failure(.malformedLine(lineNumber: lineNumber, reason: problem))
                    case .success(let record): userLength = record.user.count
                    }
                }
                if userLength == user.count, matches(base + lineStart, user) {
                    if let first = found {
                        return .failure(.duplicateUser(lineNumber: lineNumber, firstLineNumber: first.line))
                    }
                    switch StoreRecord.parse(
                        line: ArraySlice(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])))
                    {
                    case .success(let record): found = (record, lineNumber)
                    case .failure(let problem):
                        return .failure(.malformedLine(lineNumber: lineNumber, reason: problem))
                    }
                }
                lineStart = lineEnd + 1
                lineNumber += 1
            }
            return .success(lineStart)
        }

        private func matches(_ line: UnsafePointer<UInt8>, _ user: [UInt8]) -> Bool {
            return user.withUnsafeBufferPointer { name -> Bool in
                guard let nameBase = name.baseAddress else { return false }
                return memcmp(line, nameBase, name.count) == 0
            }
        }
    }

    /// The fast path: a line starting at `start` whose structure is certainly valid and complete, with a
    /// "$y$" hash. Returns its user field's length and the index of its newline; nil when unsure (the caller
    /// then hands the line to the full parser). Every read is below `count`. Every field is found with memchr
    /// (vectorised in libc; measured faster than a Swift byte loop even for the short fields).
    static func fastLine(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> (Int, Int)? {
        // The line's end first, so that no search below can run into the next line.
        guard start < count, let end = find(0x0A, base, from: start, within: min(count &- start, maximumLineBytes &+ 1))
        else { return nil }
        // user: 1...maximumUserNameBytes bytes up to the first ':'. Its bytes are not checked here (see the
        // type's comment): the looked-up user's line gets the full parse.
        guard
            let userEnd = find(
                0x3A, base, from: start, within: min(end &- start, StoreRecord.maximumUserNameBytes &+ 1)),
            userEnd != start, end &- userEnd >= 6
        else { return nil }
        // uid (absent in records written before they carried one): 1...10 bytes up to the next ':'
        var hashColon = userEnd
        if base[userEnd &+ 1] != 0x24 {
            guard let uidEnd = find(0x3A, base, from: userEnd &+ 1, within: min(end &- userEnd &- 1, 11)),
                uidEnd != userEnd &+ 1, end &- uidEnd >= 6
            else { return nil }
            hashColon = uidEnd
        }
        // hash: "$y$", then up to the next ':' within the cap
        if base[hashColon &+ 1] != 0x24 || base[hashColon &+ 2] != 0x79 || base[hashColon &+ 3] != 0x24 { return nil }
        guard
            let timeColon = find(
                0x3A, base, from: hashColon &+ 4, within: min(end &- hashColon &- 4, StoreRecord.maximumHashBytes &- 2))
        else { return nil }
        // time: 1...19 bytes and no further ':'
        let timeLength = end &- timeColon &- 1
        if timeLength < 1 || timeLength > 19 || find(0x3A, base, from: timeColon &+ 1, within: timeLength) != nil {
            return nil
        }
        return (userEnd &- start, end)
    }

    /// The index of the first `byte` in the `length` bytes from `start`, nil if none.
    @inline(__always)
    static func find(_ byte: Int32, _ base: UnsafePointer<UInt8>, from start: Int, within length: Int) -> Int? {
        guard let hit = memchr(base + start, byte, length) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
}
