import CPatternSystem

/// Finding one user's record in a whole store, as the module does at every login.
///
/// Every line is still checked and nothing is skipped: a line whose fields, user name or time are malformed,
/// or a missing final newline, is an error naming the line, so line boundaries and who is enrolled are never
/// guessed. What is NOT re-checked for other users' lines is the inside of their hash (its alphabet and '$'
/// fields): it cannot change this user's answer, and checking it was 60% of a lookup. The looked-up user's
/// line gets the full `StoreRecord.parse(line:)`. Duplicates are checked for the looked-up user; `patternctl`
/// (the full `parseStore`, run before every write) reports any other. Result: a 100,000-user store is
/// looked up in about a millisecond (bench/), not 90 ms.
enum StoreLookup {
    /// Bytes read at a time. A valid line is at most 249 bytes (100 + 1 + 128 + 1 + 19), so a window this size
    /// without a newline holds a line that is malformed anyway.
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
            let count = window.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return CPatternSystem.read(fd, base + filled, buffer.count - filled)
            }
            if count < 0 {
                let error = Errno.current
                if error.code == EINTR { continue }
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
                case .success: problem = .badTime  // cannot happen: a valid line is at most 249 bytes
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
                // memchr: the libc scan is vectorised; a byte loop here was the slowest part of a lookup.
                guard let hit = memchr(base + lineStart, 0x0A, bytes.count - lineStart) else { break }
                let lineEnd = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
                switch check(line) {
                case .failure(let problem):
                    return .failure(.malformedLine(lineNumber: lineNumber, reason: problem))
                case .success(let userLength):
                    if userLength == user.count, matches(line, user) {
                        if let first = found {
                            return .failure(.duplicateUser(lineNumber: lineNumber, firstLineNumber: first.line))
                        }
                        switch StoreRecord.parse(line: ArraySlice(line)) {
                        case .success(let record): found = (record, lineNumber)
                        case .failure(let problem):
                            return .failure(.malformedLine(lineNumber: lineNumber, reason: problem))
                        }
                    }
                }
                lineStart = lineEnd + 1
                lineNumber += 1
            }
            return .success(lineStart)
        }

        private func matches(_ line: UnsafeBufferPointer<UInt8>, _ user: [UInt8]) -> Bool {
            return user.withUnsafeBufferPointer { name -> Bool in
                guard let lineBase = line.baseAddress, let nameBase = name.baseAddress else { return false }
                return memcmp(lineBase, nameBase, name.count) == 0
            }
        }
    }

    /// Checks one line's structure (without its newline): three ':'-separated fields, a valid user name, a
    /// hash field that starts with "$y$" within the length cap, a valid time. Returns the user field's length.
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
        // hash: "$y$" then up to the second ':' (memchr: the hash is most of the line)
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
        return first
    }
}
