import CPatternSystem

/// Whole-file replacement for root-only files (the store, the attempt records): write a fresh temp file,
/// fsync it, rename it over the old one, fsync the directory. A reader always sees the old or the new file,
/// never a mix, and a writer killed at any point (SIGKILL, SIGXFSZ from an inherited file-size limit)
/// leaves the old file whole plus at most one temp file, which the next writer sweeps.
extension SafeFile {
    /// Removes temp files (names starting with `prefix`) a killed writer left behind. Call it with the
    /// file's lock held, so none is in use. Best effort: a failure here must not block the write.
    static func sweepTemps(in directory: Int32, prefix: [UInt8]) {
        guard let names = try? SystemCall.names(in: directory) else { return }
        for name in names where name.count > prefix.count && Array(name[0..<prefix.count]) == prefix {
            if let cName = SystemCall.cString(name) { try? SystemCall.unlinkat(directory, cName) }
        }
    }

    /// Writes `bytes` to `<tempPrefix><pid>.<n>` (root:root 0600 whatever the group and umask), fsyncs it, renames it over `name`
    /// and fsyncs the directory. On any failure the temp file is removed and the old file is untouched.
    /// `durable: false` skips both fsyncs, for files whose loss in a crash costs only history: still never
    /// torn for a reader (rename), but a crash may leave the old file, or an empty or partial one.
    static func replace(
        in directory: Int32, name: [CChar], tempPrefix: [UInt8], with bytes: [UInt8],
        durable: Bool = true
    ) throws(StoreError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY
        let pid = TextCodec.decimal(Int64(getpid()))
        var attempt: Int64 = 0
        var tempName: [CChar] = []
        var fd: Int32 = -1
        while fd < 0 {
            guard let candidate = SystemCall.cString(tempPrefix + pid + [0x2E] + TextCodec.decimal(attempt))
            else { throw .invalidPath }
            do {
                fd = try SystemCall.openat(directory, candidate, flags, 0o600)
                tempName = candidate
            } catch {
                // EEXIST: a name we did not sweep (another file's writer cannot use our prefix); try the next.
                if error.code != EEXIST || attempt >= 100 { throw .system(operation: .open, errno: error.code) }
                attempt += 1
            }
        }
        // One cleanup path: whatever step fails, the temp file is closed and removed, the old file untouched.
        var step = SystemOperation.chmod
        do throws(Errno) {
            try makeRootOwned(fd, mode: 0o600)  // root:root and exactly 0600 whatever the group and umask
            step = .write
            try SystemCall.writeAll(fd, bytes)
            step = .fsync
            if durable { try SystemCall.fsync(fd) }
            SystemCall.close(fd)
            fd = -1
            step = .rename
            try SystemCall.renameat(directory, tempName, name)
        } catch {
            SystemCall.close(fd)
            try? SystemCall.unlinkat(directory, tempName)
            if step == .write && error.code == EFBIG { throw .fileSizeLimit(bytes: Int64(bytes.count)) }
            throw .system(operation: step, errno: error.code)
        }
        // The rename is durable only once the directory is synced.
        do throws(Errno) { if durable { try SystemCall.fsync(directory) } } catch {
            throw .system(operation: .fsync, errno: error.code)
        }
    }
}
