import CPatternSystem

/// The checks shared by the store and the throttle state files: a root-owned directory nobody else can
/// write, and a file that is a plain root-only regular file. Every check runs on an open descriptor
/// (fstat), so the thing checked is the thing read.
enum SafeFile {
    /// How long any lock on a store or state file is waited for, in the module and in patternctl: a holder
    /// keeps a state file's for one read and one fsync'd 31-byte write, so only a stopped or stuck process holds
    /// it longer, and nobody else's login may hang behind that (the module then fails closed:
    /// PAM_AUTHINFO_UNAVAIL).
    static let lockWaitMilliseconds: Int32 = 5000

    /// A path split into its directory and its last component, both NUL-terminated.
    struct Location {
        var directory: [CChar]
        var name: [CChar]
        var nameBytes: [UInt8]
    }

    /// Splits `path` at its last '/'. A path without '/' lives in ".". Refuses empty names, a trailing '/',
    /// "." and "..", and NUL bytes.
    static func split(_ path: [UInt8]) throws(StoreError) -> Location {
        var slash = -1
        for index in path.indices where path[index] == 0x2F { slash = index }
        let directoryBytes: [UInt8]
        if slash < 0 {
            directoryBytes = [0x2E]
        } else if slash == 0 {
            directoryBytes = [0x2F]
        } else {
            directoryBytes = Array(path[0..<slash])
        }
        let nameBytes = Array(path[(slash + 1)..<path.count])
        if nameBytes.isEmpty || nameBytes == [0x2E] || nameBytes == [0x2E, 0x2E] { throw .invalidPath }
        guard let directory = SystemCall.cString(directoryBytes), let name = SystemCall.cString(nameBytes) else {
            throw .invalidPath
        }
        return Location(directory: directory, name: name, nameBytes: nameBytes)
    }

    /// Opens a directory without following a final symlink and checks it: a directory, owned by root,
    /// not writable by group or others. With `create`, a missing directory is made 0700 first (its parent
    /// must exist). Returns nil for a missing directory when not creating.
    static func openDirectory(_ path: [CChar], create: Bool) throws(StoreError) -> Int32? {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd: Int32 = -1
        do {
            fd = try SystemCall.open(path, flags)
        } catch {
            switch error.code {
            case ENOENT:
                if !create { return nil }
                var made = true
                do {
                    try SystemCall.mkdir(path, 0o700)
                } catch {
                    if error.code != EEXIST { throw .system(operation: .makeDirectory, errno: error.code) }
                    made = false
                }
                do {
                    fd = try SystemCall.open(path, flags)
                } catch {
                    throw directoryOpenError(error, path)
                }
                // root:root and exactly 0700 whatever group and umask the caller left us.
                if made {
                    do { try makeRootOwned(fd, mode: 0o700) } catch {
                        SystemCall.close(fd)
                        throw .system(operation: .chmod, errno: error.code)
                    }
                }
            default:
                throw directoryOpenError(error, path)
            }
        }
        do {
            try checkDirectory(fd)
        } catch {
            SystemCall.close(fd)
            throw error
        }
        return fd
    }

    private static func directoryOpenError(_ error: Errno, _ path: [CChar]) -> StoreError {
        switch error.code {
        case ENOENT: return .missingDirectory
        case ENOTDIR:
            // O_DIRECTORY|O_NOFOLLOW reports a symlink as ENOTDIR; lstat only names the refusal.
            var info = stat()
            if lstat(path, &info) == 0 && pattern_s_islnk(info.st_mode) != 0 { return .directoryIsSymlink }
            return .notADirectory
        case ELOOP: return .directoryIsSymlink
        default: return .system(operation: .openDirectory, errno: error.code)
        }
    }

    static func checkDirectory(_ fd: Int32) throws(StoreError) {
        let info: stat
        do { info = try SystemCall.fstat(fd) } catch { throw .system(operation: .stat, errno: error.code) }
        if pattern_s_isdir(info.st_mode) == 0 { throw .notADirectory }
        if info.st_uid != 0 { throw .directoryNotOwnedByRoot(uid: UInt32(info.st_uid)) }
        if info.st_mode & 0o022 != 0 { throw .directoryWritableByOthers(mode: UInt32(info.st_mode & 0o7777)) }
    }

    /// Maps an open(2) failure on the file itself: ELOOP from O_NOFOLLOW means a symlink.
    static func fileOpenError(_ error: Errno) -> StoreError {
        switch error.code {
        case ELOOP: return .isSymlink
        case ENXIO: return .notRegularFile  // a socket, or a FIFO opened for writing with O_NONBLOCK
        default: return .system(operation: .open, errno: error.code)
        }
    }

    /// The file checks, on an open descriptor: a regular file, owned by root, no group/other permission bits
    /// (write reported before read; with `othersMayRead`, only write is refused), exactly one
    /// link, at most `limit` bytes. Returns the size.
    static func checkFile(_ fd: Int32, limit: Int64, othersMayRead: Bool = false) throws(StoreError) -> Int64 {
        let info: stat
        do { info = try SystemCall.fstat(fd) } catch { throw .system(operation: .stat, errno: error.code) }
        if pattern_s_isreg(info.st_mode) == 0 { throw .notRegularFile }
        if info.st_uid != 0 { throw .notOwnedByRoot(uid: UInt32(info.st_uid)) }
        let mode = UInt32(info.st_mode & 0o7777)
        if mode & 0o022 != 0 { throw .writableByOthers(mode: mode) }
        if !othersMayRead && mode & 0o077 != 0 { throw .accessibleByOthers(mode: mode) }
        if info.st_nlink != 1 { throw .hardLinked(links: UInt64(info.st_nlink)) }
        let size = Int64(info.st_size)
        if size > limit { throw .tooLarge(bytes: size, limit: limit) }
        return size
    }

    /// Gives a file or directory this process just made the owner root:root and exactly `mode`, whatever the
    /// caller's group and umask: the setuid helper and the module under sudo run with the person's gid, which
    /// a new file would otherwise get (FILEFORMAT.md: root:root). Not root: nothing to give (and no right to).
    static func makeRootOwned(_ fd: Int32, mode: mode_t) throws(Errno) {
        if geteuid() == 0 { try SystemCall.fchown(fd, 0, 0) }
        try SystemCall.fchmod(fd, mode)
    }

    /// Opens (creating 0600) the lock file ".<name><suffix>" beside `location` in `directory`, checks it like
    /// any file here, and flocks it with `operation` (bounded wait). Returns the descriptor; closing it releases
    /// the lock.
    static func takeLockFile(
        in directory: Int32, _ location: Location, suffix: String, _ operation: Int32,
        waitingAtMost milliseconds: Int32 = lockWaitMilliseconds
    ) throws(StoreError) -> Int32 {
        guard let name = SystemCall.cString([0x2E] + location.nameBytes + Array(suffix.utf8)) else {
            throw .invalidPath
        }
        let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
        let fd: Int32
        do { fd = try SystemCall.openat(directory, name, flags, 0o600) } catch {
            throw fileOpenError(error)
        }
        do throws(StoreError) {
            _ = try checkFile(fd, limit: 0)
            // Root's and 0600 (checked), made now or by an earlier run: its group root's too, as every file here.
            if geteuid() == 0 {
                do throws(Errno) { try SystemCall.fchown(fd, 0, 0) } catch {
                    throw .system(operation: .chown, errno: error.code)
                }
            }
            // Bounded like every lock here: a stopped process must not hang the next one for ever.
            try takeLock(fd, operation, waitingAtMost: milliseconds)
        } catch {
            SystemCall.close(fd)
            throw error
        }
        return fd
    }

    /// flock with the bounded wait; a wait that runs out is `StoreError.lockBusy`.
    static func takeLock(
        _ fd: Int32, _ operation: Int32, waitingAtMost milliseconds: Int32 = lockWaitMilliseconds
    ) throws(StoreError) {
        do { try SystemCall.flock(fd, operation, waitingAtMost: milliseconds) } catch {
            if error.code == EWOULDBLOCK { throw .lockBusy(waitedSeconds: Int((milliseconds + 999) / 1000)) }
            throw .system(operation: .lock, errno: error.code)
        }
    }

    /// Flags for opening a file to read: never follow a symlink, never leak to children, never become the
    /// controlling terminal, never block on a FIFO (the type check then refuses it).
    static var readFlags: Int32 {
        O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK
    }
}
