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
/// Result: a 100,000-user store is looked up in a few milliseconds (bench/), not 90 ms.
enum StoreLookup {
    /// Bytes read at a time. A valid line is at most 260 bytes (100 + 1 + 10 + 1 + 128 + 1 + 19), so a window
    /// this size without a newline holds a line that is malformed anyway.
    static let windowBytes = 65536

    /// The record of `user` in `bytes` (a whole store file), nil if the user has no line.
    static func find(_ user: [UInt8], in bytes: [UInt8]) throws(StoreError) -> StoreRecord? {
        var scan = Scan(user: user)
        let result: Result<Int, StoreError> = bytes.withUnsafeBufferPointer { buffer in scan.feed(buffer) }
        let consumed = try result.get()
        if consumed < bytes.count { throw .malformedLine(lineNumber: scan.lineNumber, reason: .missingNewline) }
        return scan.found?.record
    }

    /// The record of `user` in the open store `fd`, read in windows: constant memory (a 100,000-user store
    /// never sits in the module's memory whole) and no page faults for a file-sized buffer. Reads at most
    /// `limit` bytes.
    static func find(_ user: [UInt8], readingFrom fd: Int32, limit: Int64) throws(StoreError) -> StoreRecord? {
        var scan = Scan(user: user)
        var window = [UInt8](repeating: 0, count: windowBytes)
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
                // A whole window without a newline: one over-long line. Its check names the problem.
                let problem: LineProblem
                switch window.withUnsafeBufferPointer({ check($0) }) {
                case .failure(let found): problem = found
                case .success: problem = .badTime  // cannot happen: a valid line is at most 260 bytes
                }
                throw .malformedLine(lineNumber: scan.lineNumber, reason: problem)
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
                if let quick = StoreLookup.quickLine(base, from: lineStart, count: bytes.count) {
                    (userLength, lineEnd) = quick
                } else {
                    // memchr: the libc scan is vectorised.
                    guard let hit = memchr(base + lineStart, 0x0A, bytes.count - lineStart) else { break }
                    lineEnd = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    switch check(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])) {
                    case .failure(let problem):
                        return .failure(.malformedLine(lineNumber: lineNumber, reason: problem))
                    case .success(let length): userLength = length
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

    /// The common case in one pass over a window: a line starting at `start` that is certainly well formed
    /// and complete. Returns its user field's length and the index of its newline; nil when unsure (the
    /// caller then finds the line end and runs the exact `check`). Every read is below `count`.
    static func quickLine(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> (Int, Int)? {
        // The line's end first, so that no search below can run into the next line. A valid line is at most
        // 260 bytes plus its newline.
        guard start < count, let newline = memchr(base + start, 0x0A, min(count - start, 261)) else { return nil }
        let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        // user: up to the first ':' within the length cap. Its bytes are not checked here (see the type's
        // comment): the looked-up user's line gets the full parse.
        guard let colon = memchr(base + start, 0x3A, min(end - start, StoreRecord.maximumUserNameBytes + 1)) else {
            return nil
        }
        let userEnd = base.distance(to: colon.assumingMemoryBound(to: UInt8.self))
        if userEnd == start || end - userEnd < 6 { return nil }
        // uid (absent in records written before they carried one): 1...10 bytes up to the next ':'
        var first = userEnd
        if base[userEnd + 1] != 0x24 {
            guard let uidColon = memchr(base + userEnd + 1, 0x3A, min(end - userEnd - 1, 11)) else { return nil }
            first = base.distance(to: uidColon.assumingMemoryBound(to: UInt8.self))
            if first == userEnd + 1 || end - first < 6 { return nil }
        }
        // hash: "$y$", then up to the next ':' within the cap (memchr: the hash is most of the line)
        if base[first + 1] != 0x24 || base[first + 2] != 0x79 || base[first + 3] != 0x24 { return nil }
        guard let hit = memchr(base + first + 4, 0x3A, min(end - first - 4, StoreRecord.maximumHashBytes - 2)) else {
            return nil
        }
        let second = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        // time: 1...19 bytes and no third ':'
        let timeLength = end - second - 1
        if timeLength < 1 || timeLength > 19 || memchr(base + second + 1, 0x3A, timeLength) != nil { return nil }
        return (userEnd - start, end)
    }

    /// Checks one line's structure (without its newline): three or four ':'-separated fields, a valid user name,
    /// a uid (four fields), a hash field that starts with "$y$" within the length cap, a valid time. Returns the
    /// user field's length.
    /// One pass in the common case; any doubt goes to `StoreRecord.parse(line:)`, which names the problem.
    static func check(_ line: UnsafeBufferPointer<UInt8>) -> Result<Int, LineProblem> {
        if let userLength = quickCheck(line) { return .success(userLength) }
        switch StoreRecord.parse(line: ArraySlice(line)) {
        case .failure(let problem): return .failure(problem)
        case .success(let record): return .success(record.user.count)  // valid after all (e.g. a 19-digit time)
        }
    }

    /// The fast path of `check`: the user field's length for a line that is certainly well formed, nil when
    /// unsure.
    private static func quickCheck(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = line.count
        guard let base = line.baseAddress else { return nil }
        // user: bytes up to the first ':', none of them space, control or DEL
        var first = 0
        while first < count {
            let byte = line[first]
            if byte == 0x3A { break }
            if byte <= 0x20 || byte == 0x7F { return nil }
            first += 1
        }
        if first == 0 || first > StoreRecord.maximumUserNameBytes || count - first < 6 { return nil }
        let userLength = first
        // uid: 1...9 digits without a leading zero (cannot exceed the maximum); anything else goes to the parser
        if line[first + 1] != 0x24 {
            var index = first + 1
            while index < count && line[index] != 0x3A {
                if line[index] &- 0x30 > 9 { return nil }
                index += 1
            }
            let digits = index - first - 1
            if digits < 1 || digits > 9 || (digits > 1 && line[first + 1] == 0x30) || count - index < 6 { return nil }
            first = index
        }
        // hash: "$y$" then up to the next ':' (memchr: the hash is most of the line)
        if line[first + 1] != 0x24 || line[first + 2] != 0x79 || line[first + 3] != 0x24 { return nil }
        guard let hit = memchr(base + first + 4, 0x3A, count - first - 4) else { return nil }
        let second = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        let hashLength = second - first - 1
        if hashLength > StoreRecord.maximumHashBytes { return nil }
        // time: 1...18 digits (cannot overflow), no leading zero, nothing else (so no third ':')
        let digits = count - second - 1
        if digits < 1 || digits > 18 || (digits > 1 && line[second + 1] == 0x30) { return nil }
        var index = second + 1
        while index < count {
            if line[index] &- 0x30 > 9 { return nil }
            index += 1
        }
        return userLength
    }
}
