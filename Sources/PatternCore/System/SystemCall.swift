import CPatternSystem

/// Every system call the store and the throttle make, in one place: EINTR is retried here (`valueOrErrno`),
/// -1 becomes a thrown `Errno`, and paths are bytes turned into NUL-terminated C strings here.
/// (Model: apple/swift-system, `valueOrErrno(retryOnInterrupt:)` and its syscall wrappers.)
public enum SystemCall {
    /// Runs `call` until it returns something other than -1 with EINTR; -1 with any other errno is thrown.
    /// The one retry loop: a signal arriving during a system call must not turn into a failed login.
    static func valueOrErrno<I: FixedWidthInteger>(
        retryOnInterrupt: Bool = true, _ call: () -> I
    ) throws(Errno) -> I {
        while true {
            let result = call()
            if result != -1 { return result }
            let error = Errno.current
            if !(retryOnInterrupt && error.code == EINTR) { throw error }
        }
    }

    /// Bytes plus a NUL, or nil if the bytes already contain a NUL (the C call would see a shorter path).
    public static func cString(_ bytes: [UInt8]) -> [CChar]? {
        var result: [CChar] = []
        result.reserveCapacity(bytes.count + 1)
        for byte in bytes {
            if byte == 0 { return nil }
            result.append(CChar(bitPattern: byte))
        }
        result.append(0)
        return result
    }

    /// The corresponding C function is `open`. The descriptor is never 0, 1 or 2 (see `aboveStdio`).
    static func open(_ path: [CChar], _ flags: Int32, _ mode: mode_t = 0) throws(Errno) -> Int32 {
        return try aboveStdio(valueOrErrno { pattern_open(path, flags, mode) })
    }

    /// The corresponding C function is `openat`. The descriptor is never 0, 1 or 2 (see `aboveStdio`).
    static func openat(_ directory: Int32, _ name: [CChar], _ flags: Int32, _ mode: mode_t = 0) throws(Errno) -> Int32 {
        return try aboveStdio(valueOrErrno { pattern_openat(directory, name, flags, mode) })
    }

    /// A host started with fds 0-2 closed (su and sudo keep what the caller left) would hand us 0, 1 or 2
    /// for a store or state file, and its next message to "stderr" would land in that file. Moved to >= 3.
    static func aboveStdio(_ fd: Int32) throws(Errno) -> Int32 {
        return try valueOrErrno(retryOnInterrupt: false) { pattern_fd_above_stdio(fd) }
    }

    /// The corresponding C function is `close`. Errors are ignored: on Linux the descriptor is gone either way,
    /// and every write that matters was already checked by fsync.
    static func close(_ fd: Int32) {
        if fd >= 0 { _ = CPatternSystem.close(fd) }
    }

    /// The corresponding C function is `fstat`.
    static func fstat(_ fd: Int32) throws(Errno) -> stat {
        var info = stat()
        _ = try valueOrErrno { CPatternSystem.fstat(fd, &info) }
        return info
    }

    /// One read into `buffer[start...]`, from the file offset, or at `offset` when given (pread, which leaves
    /// the file offset alone). Returns the byte count, 0 at end of file. The corresponding C functions are
    /// `read` and `pread`.
    public static func read(
        _ fd: Int32, into buffer: inout [UInt8], from start: Int, at offset: Int64? = nil
    )
        throws(Errno) -> Int
    {
        guard start >= 0 && start < buffer.count else { return 0 }
        let result = buffer.withUnsafeMutableBytes { raw -> Result<Int, Errno> in
            guard let base = raw.baseAddress else { return .success(0) }
            return Result { () throws(Errno) -> Int in
                try valueOrErrno {
                    if let offset { return pread(fd, base + start, raw.count - start, off_t(offset)) }
                    return CPatternSystem.read(fd, base + start, raw.count - start)
                }
            }
        }
        return try result.get()
    }

    /// The one read loop: reads to end of file (from `offset` when given, see `read`). Returns nil as soon as
    /// more than `limit` bytes arrive (the file grew past the cap). `size`, the file's size when the caller's
    /// checks already know it (SafeFile.checkFile), sizes the buffer to the file (see `bufferBytes`).
    static func readAll(_ fd: Int32, limit: Int, at offset: Int64? = nil, size: Int64? = nil) throws(Errno) -> [UInt8]?
    {
        var result: [UInt8] = []
        let largest = limit < 65536 ? limit + 1 : 65536
        let bytes = size.map { bufferBytes(size: $0, from: offset ?? 0, atLeast: 512, atMost: largest) } ?? largest
        var chunk = [UInt8](repeating: 0, count: bytes)
        while true {
            let count = try read(fd, into: &chunk, from: 0, at: offset.map { $0 + Int64(result.count) })
            if count == 0 { return result }
            if count > limit || result.count > limit - count { return nil }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// A read buffer for a file of `size` bytes read from `offset`: what is left plus one (so the read that
    /// follows sees the end of file), within `atLeast...atMost`. Why: a buffer is zero-filled, and every fresh
    /// page of it is a page fault, which is most of the cost of a short-lived process such as the helper (a
    /// 64 KiB buffer for a 73-byte configuration file was 16 faults). A file that grew since its size was
    /// taken is still read whole, in more reads.
    static func bufferBytes(size: Int64, from offset: Int64, atLeast: Int, atMost: Int) -> Int {
        let left = size > offset && offset >= 0 ? size - offset : 0
        let wanted = left < Int64(atMost) ? Int(left) + 1 : atMost
        return min(atMost, max(atLeast, wanted))
    }

    /// Writes every byte to a file at the file offset, or at `offset` when given (pwrite). Under the caller's
    /// RLIMIT_FSIZE it writes all or nothing (see `FileSizeRoom`).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64? = nil) throws(Errno) {
        var start = Int64(0)
        if let offset { start = offset } else { start = Int64(try valueOrErrno { lseek(fd, 0, SEEK_CUR) }) }
        let room = try FileSizeRoom(end: start + Int64(bytes.count))
        defer { room.restore() }
        try writeEvery(fd, bytes, at: offset)
    }

    /// Writes every byte to a stream (stdout, stderr: a terminal or a pipe, which has no offset and no file
    /// size limit to lift), through the same loop as `writeAll`.
    public static func writeToStream(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
        try writeEvery(fd, bytes, at: nil)
    }

    /// The one write loop: writes every byte, continuing after short writes and EINTR. The corresponding C
    /// functions are `write` and `pwrite`.
    private static func writeEvery(_ fd: Int32, _ bytes: [UInt8], at offset: Int64?) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { raw -> Result<Int, Errno> in
                guard let base = raw.baseAddress else { return .success(0) }
                return Result { () throws(Errno) -> Int in
                    try valueOrErrno {
                        if let offset { return pwrite(fd, base + done, raw.count - done, off_t(offset) + off_t(done)) }
                        return CPatternSystem.write(fd, base + done, raw.count - done)
                    }
                }
            }
            let written = try result.get()
            // write(2) returning 0 for a non-empty buffer makes no progress: treat as an I/O error.
            if written == 0 { throw Errno(code: EIO) }
            done += written
        }
    }

    /// The corresponding C function is `fsync`.
    static func fsync(_ fd: Int32) throws(Errno) {
        _ = try valueOrErrno { CPatternSystem.fsync(fd) }
    }

    /// The corresponding C function is `ftruncate`.
    static func ftruncate(_ fd: Int32, _ length: off_t) throws(Errno) {
        _ = try valueOrErrno { CPatternSystem.ftruncate(fd, length) }
    }

    /// The corresponding C function is `fchmod`.
    static func fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) {
        _ = try valueOrErrno { CPatternSystem.fchmod(fd, mode) }
    }

    /// The corresponding C function is `fchown`.
    static func fchown(_ fd: Int32, _ owner: uid_t, _ group: gid_t) throws(Errno) {
        _ = try valueOrErrno { CPatternSystem.fchown(fd, owner, group) }
    }

    /// flock(2) that waits at most `milliseconds` (LOCK_NB polled in C, no signals): EWOULDBLOCK when
    /// another process held the lock the whole time.
    static func flock(_ fd: Int32, _ operation: Int32, waitingAtMost milliseconds: Int32) throws(Errno) {
        _ = try valueOrErrno(retryOnInterrupt: false) { pattern_flock_bounded(fd, operation, milliseconds) }
    }

    /// A signal during a wait for the lock must not turn into "lock failed" or, worse, "no lock".
    /// The corresponding C function is `flock`.
    static func flock(_ fd: Int32, _ operation: Int32) throws(Errno) {
        _ = try valueOrErrno { pattern_flock(fd, operation) }
    }

    /// Renames within one directory. The corresponding C function is `renameat`.
    static func renameat(_ directory: Int32, _ from: [CChar], _ to: [CChar]) throws(Errno) {
        _ = try valueOrErrno { CPatternSystem.renameat(directory, from, directory, to) }
    }

    /// The corresponding C function is `unlinkat`.
    static func unlinkat(_ directory: Int32, _ name: [CChar]) throws(Errno) {
        _ = try valueOrErrno { CPatternSystem.unlinkat(directory, name, 0) }
    }

    /// The corresponding C function is `mkdir`.
    static func mkdir(_ path: [CChar], _ mode: mode_t) throws(Errno) {
        _ = try valueOrErrno { CPatternSystem.mkdir(path, mode) }
    }

    /// The names in a directory (without "." and ".."), read through a duplicate of `directory`.
    /// The corresponding C functions are `fdopendir` and `readdir`.
    static func names(in directory: Int32) throws(Errno) -> [[UInt8]] {
        // A close-on-exec duplicate (fcntl is variadic, so C), so a fork in another thread cannot inherit it.
        let copy = try valueOrErrno(retryOnInterrupt: false) { pattern_dup_cloexec(directory) }
        guard let stream = fdopendir(copy) else {
            let error = Errno.current
            close(copy)
            throw error
        }
        defer { _ = closedir(stream) }
        rewinddir(stream)
        var result: [[UInt8]] = []
        while true {
            pattern_set_errno(0)
            guard let entry = readdir(stream) else {
                let code = pattern_errno()
                if code != 0 { throw Errno(code: code) }
                return result
            }
            guard let cName = pattern_dirent_name(entry) else { continue }
            var name: [UInt8] = []
            var index = 0
            while index < 256 {
                let byte = UInt8(bitPattern: cName[index])
                if byte == 0 { break }
                name.append(byte)
                index += 1
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            result.append(name)
        }
    }

    /// RLIMIT_FSIZE limits every write that reaches past its offset, in place or not, and su/sudo hand the
    /// caller's limit down: a 31-byte state write under `prlimit --fsize=5` is cut after 5 bytes and su is
    /// killed by SIGXFSZ. Every write of the store and the state goes through this: the soft limit is
    /// raised up to the hard limit for the write and put back after; when even the hard limit is too
    /// small, nothing is written (EFBIG before the first byte), so no file is ever left torn.
    struct FileSizeRoom {
        private var saved = rlimit()
        private var raised: Int32 = 0

        init(end: Int64) throws(Errno) {
            if pattern_file_size_room(end, &saved, &raised) != 0 { throw Errno.current }
        }

        func restore() {
            var copy = saved
            pattern_file_size_restore(&copy, raised)
        }
    }
}
