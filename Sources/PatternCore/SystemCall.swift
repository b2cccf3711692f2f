import CPatternSystem

/// Which system call failed, carried by `StoreError.system`.
public enum SystemOperation: Equatable, Sendable {
    case open, openDirectory, makeDirectory, stat, read, write, fsync, rename, unlink, lock, truncate, chmod,
        listDirectory, crypt, accountLookup

    /// The C name, for messages.
    public var name: String {
        switch self {
        case .open: return "open"
        case .openDirectory: return "open (directory)"
        case .makeDirectory: return "mkdir"
        case .stat: return "fstat"
        case .read: return "read"
        case .write: return "write"
        case .fsync: return "fsync"
        case .rename: return "rename"
        case .unlink: return "unlink"
        case .lock: return "flock"
        case .truncate: return "ftruncate"
        case .chmod: return "fchmod"
        case .listDirectory: return "readdir"
        case .crypt: return "crypt"
        case .accountLookup: return "getpwnam_r"
        }
    }
}

/// A failed system call's errno, before the caller gives it a meaning.
struct Errno: Error, Equatable {
    var code: Int32
    static var current: Errno { Errno(code: pattern_errno()) }
}

/// Every system call the store and the throttle make, in one place: EINTR is retried here, -1 becomes a thrown
/// `Errno`, and paths are bytes turned into NUL-terminated C strings here. (Model: apple/swift-system.)
enum SystemCall {
    /// Bytes plus a NUL, or nil if the bytes already contain a NUL (the C call would see a shorter path).
    static func cString(_ bytes: [UInt8]) -> [CChar]? {
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
        while true {
            let fd = pattern_open(path, flags, mode)
            if fd >= 0 { return try aboveStdio(fd) }
            let error = Errno.current
            if error.code != EINTR { throw error }
        }
    }

    /// The corresponding C function is `openat`. The descriptor is never 0, 1 or 2 (see `aboveStdio`).
    static func openat(_ directory: Int32, _ name: [CChar], _ flags: Int32, _ mode: mode_t = 0) throws(Errno) -> Int32 {
        while true {
            let fd = pattern_openat(directory, name, flags, mode)
            if fd >= 0 { return try aboveStdio(fd) }
            let error = Errno.current
            if error.code != EINTR { throw error }
        }
    }

    /// A host started with fds 0-2 closed (su and sudo keep what the caller left) would hand us 0, 1 or 2
    /// for a store or state file, and its next message to "stderr" would land in that file. Moved to >= 3.
    static func aboveStdio(_ fd: Int32) throws(Errno) -> Int32 {
        let moved = pattern_fd_above_stdio(fd)
        if moved < 0 { throw Errno.current }
        return moved
    }

    /// The corresponding C function is `close`. Errors are ignored: on Linux the descriptor is gone either way,
    /// and every write that matters was already checked by fsync.
    static func close(_ fd: Int32) {
        if fd >= 0 { _ = CPatternSystem.close(fd) }
    }

    /// The corresponding C function is `fstat`.
    static func fstat(_ fd: Int32) throws(Errno) -> stat {
        var info = stat()
        if CPatternSystem.fstat(fd, &info) != 0 { throw Errno.current }
        return info
    }

    /// Reads to end of file. Returns nil as soon as more than `limit` bytes arrive (the file grew past the cap).
    static func readAll(_ fd: Int32, limit: Int) throws(Errno) -> [UInt8]? {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return CPatternSystem.read(fd, base, buffer.count)
            }
            if count < 0 {
                let error = Errno.current
                if error.code == EINTR { continue }
                throw error
            }
            if count == 0 { return result }
            if count > limit || result.count > limit - count { return nil }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes every byte, continuing after short writes and EINTR. The corresponding C function is `write`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
        let start = pattern_offset(fd)
        if start < 0 { throw Errno.current }
        let room = try FileSizeRoom(end: start + Int64(bytes.count))
        defer { room.restore() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return CPatternSystem.write(fd, base + offset, buffer.count - offset)
            }
            if written < 0 {
                let error = Errno.current
                if error.code == EINTR { continue }
                throw error
            }
            // write(2) returning 0 for a non-empty buffer makes no progress: treat as an I/O error.
            if written == 0 { throw Errno(code: EIO) }
            offset += written
        }
    }

    /// Writes every byte at `offset`, continuing after short writes and EINTR. The corresponding C function is `pwrite`.
    static func pwriteAll(_ fd: Int32, _ bytes: [UInt8], at start: off_t) throws(Errno) {
        let room = try FileSizeRoom(end: Int64(start) + Int64(bytes.count))
        defer { room.restore() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return CPatternSystem.pwrite(fd, base + offset, buffer.count - offset, start + off_t(offset))
            }
            if written < 0 {
                let error = Errno.current
                if error.code == EINTR { continue }
                throw error
            }
            if written == 0 { throw Errno(code: EIO) }
            offset += written
        }
    }

    /// The corresponding C function is `fsync`.
    static func fsync(_ fd: Int32) throws(Errno) {
        while CPatternSystem.fsync(fd) != 0 {
            let error = Errno.current
            if error.code != EINTR { throw error }
        }
    }

    /// The corresponding C function is `ftruncate`.
    static func ftruncate(_ fd: Int32, _ length: off_t) throws(Errno) {
        while CPatternSystem.ftruncate(fd, length) != 0 {
            let error = Errno.current
            if error.code != EINTR { throw error }
        }
    }

    /// The corresponding C function is `fchmod`.
    static func fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) {
        if CPatternSystem.fchmod(fd, mode) != 0 { throw Errno.current }
    }

    /// flock(2) that waits at most `milliseconds` (LOCK_NB polled in C, no signals): EWOULDBLOCK when
    /// another process held the lock the whole time.
    static func flock(_ fd: Int32, _ operation: Int32, waitingAtMost milliseconds: Int32) throws(Errno) {
        if pattern_flock_bounded(fd, operation, milliseconds) != 0 { throw Errno.current }
    }

    /// flock(2), EINTR retried in C. The corresponding C function is `flock`.
    static func flock(_ fd: Int32, _ operation: Int32) throws(Errno) {
        if pattern_flock(fd, operation) != 0 { throw Errno.current }
    }

    /// Renames within one directory. The corresponding C function is `renameat`.
    static func renameat(_ directory: Int32, _ from: [CChar], _ to: [CChar]) throws(Errno) {
        if CPatternSystem.renameat(directory, from, directory, to) != 0 { throw Errno.current }
    }

    /// The corresponding C function is `unlinkat`.
    static func unlinkat(_ directory: Int32, _ name: [CChar]) throws(Errno) {
        if CPatternSystem.unlinkat(directory, name, 0) != 0 { throw Errno.current }
    }

    /// The corresponding C function is `mkdir`.
    static func mkdir(_ path: [CChar], _ mode: mode_t) throws(Errno) {
        if CPatternSystem.mkdir(path, mode) != 0 { throw Errno.current }
    }

    /// The names in a directory (without "." and ".."), read through a duplicate of `directory`.
    /// The corresponding C functions are `fdopendir` and `readdir`.
    static func names(in directory: Int32) throws(Errno) -> [[UInt8]] {
        let copy = fcntlDup(directory)
        if copy < 0 { throw Errno.current }
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

    /// dup(2) with close-on-exec, so a fork in another thread cannot inherit it. (fcntl is variadic.)
    private static func fcntlDup(_ fd: Int32) -> Int32 {
        // dup3 needs a target; the portable way is fcntl(F_DUPFD_CLOEXEC), wrapped in C.
        return pattern_dup_cloexec(fd)
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

    /// Current wall-clock seconds since the epoch (for callers that need a default `now`).
    static func now() -> Int64 {
        return Int64(time(nil))
    }
}
