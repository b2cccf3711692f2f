/// Every way reading or writing the pattern store or a throttle state file can fail. The module turns any of
/// these into PAM_AUTHINFO_UNAVAIL (fail closed); patternctl prints `message`.
public enum StoreError: Error, Equatable, Sendable {
    /// The directory holding the file does not exist.
    case missingDirectory
    /// The directory path names something that is not a directory.
    case notADirectory
    /// The directory path's last component is a symbolic link.
    case directoryIsSymlink
    /// The directory is owned by this uid, not root: its owner could swap the file.
    case directoryNotOwnedByRoot(uid: UInt32)
    /// The directory is writable by group or others (mode shown): they could swap the file.
    case directoryWritableByOthers(mode: UInt32)
    /// The file is a symbolic link (refused by O_NOFOLLOW).
    case isSymlink
    /// The file is not a regular file (a FIFO, device, directory, socket).
    case notRegularFile
    /// The file is owned by this uid, not root.
    case notOwnedByRoot(uid: UInt32)
    /// Group or others may write the file (mode shown).
    case writableByOthers(mode: UInt32)
    /// Group or others may read (or execute) the file (mode shown): the hashes fall offline in about an hour.
    case accessibleByOthers(mode: UInt32)
    /// The file has this many hard links: another name could keep or change the same content.
    case hardLinked(links: UInt64)
    /// The file is bigger than the cap (size shown).
    case tooLarge(bytes: Int64, limit: Int64)
    /// A line of the store is malformed (1-based line number).
    case malformedLine(lineNumber: Int, reason: LineProblem)
    /// A user appears twice; which entry counts would be a guess.
    case duplicateUser(lineNumber: Int, firstLineNumber: Int)
    /// The record was made for the account with uid `recordUid`, but the account with that name now has
    /// another uid, or (nil) no longer exists: the pattern belongs to a deleted account and is not used.
    case accountMismatch(recordUid: UInt32, accountUid: UInt32?)
    /// A throttle state file's content is not a valid record.
    case malformedState
    /// A user's attempt record is not in the documented format (FILEFORMAT.md, "Attempt record").
    case malformedAttemptRecord
    /// A user name that can never be stored (empty, too long, ':', whitespace, control bytes).
    case invalidUserName
    /// A path that contains a NUL byte, is empty, or ends in '/'.
    case invalidPath
    /// A hash that is not a well-formed "$y$" string (refused before writing it).
    case invalidHash
    /// Hashing failed in a step that also reads or writes the store (a guess checked by GuessGate, a pattern
    /// set by the helper).
    case hash(HashError)
    /// A system call failed with this errno.
    case system(operation: SystemOperation, errno: Int32)
    /// Another process held the lock for the whole bounded wait (seconds shown): a stopped su or sudo, a
    /// slow disk. Nothing was read or written.
    case lockBusy(waitedSeconds: Int)
    /// A write would reach past the caller's hard file-size limit (RLIMIT_FSIZE, bytes shown): refused
    /// before the first byte, so nothing is torn.
    case fileSizeLimit(bytes: Int64)
    /// The caller's CPU time limit (RLIMIT_CPU, seconds left shown) could end the check before it is done,
    /// keeping its count: refused before anything is counted.
    case cpuTimeLimit(secondsLeft: Int64)
    /// The user's pattern is held by the TPM, and the TPM cannot judge it now (no TPM here, a cleared TPM, a
    /// missing or different index; the TPM's response code shown). Not a guess: nothing was counted.
    case tpmUnavailable(code: UInt32)
    /// The user's pattern is held by the TPM and this process does not talk to a TPM: only the setuid helper
    /// does. The module sends such a record to the helper where it reads it; it meets this only when the record
    /// became a TPM record between that read and the guess. Not a guess: nothing was counted.
    case heldByTPM

    /// A sentence for the administrator. Never contains a user name, a hash or a pattern.
    public var message: String {
        switch self {
        case .missingDirectory: return "the directory does not exist"
        case .notADirectory: return "the directory path is not a directory"
        case .directoryIsSymlink: return "the directory is a symbolic link"
        case .directoryNotOwnedByRoot(let uid): return "the directory is owned by uid \(uid), not root"
        case .directoryWritableByOthers(let mode):
            return "the directory is writable by group or others (mode \(TextCodec.octal(mode)))"
        case .isSymlink: return "the file is a symbolic link"
        case .notRegularFile: return "the file is not a regular file"
        case .notOwnedByRoot(let uid): return "the file is owned by uid \(uid), not root"
        case .writableByOthers(let mode):
            return "the file is writable by group or others (mode \(TextCodec.octal(mode)))"
        case .accessibleByOthers(let mode):
            return "the file is readable by group or others (mode \(TextCodec.octal(mode)); it must be 0600)"
        case .hardLinked(let links): return "the file has \(links) hard links; it must have exactly one"
        case .tooLarge(let bytes, let limit): return "the file is \(bytes) bytes, more than the limit of \(limit)"
        case .malformedLine(let line, let reason): return "line \(line) is malformed: \(reason.message)"
        case .duplicateUser(let line, let first): return "line \(line) repeats the user of line \(first)"
        case .accountMismatch(let recorded, _):
            return
                "the pattern was set for uid \(recorded), which this name no longer has: refused (patternctl prune removes it)"
        case .malformedState: return "the throttle state file is malformed (reset it with patternctl)"
        case .malformedAttemptRecord: return "the attempt record is malformed (reset it with patternctl)"
        case .invalidUserName:
            return "invalid user name (empty, longer than \(StoreRecord.maximumUserNameBytes) bytes, "
                + "or containing ':', whitespace or a control character)"
        case .invalidPath: return "invalid path (empty, ends in '/', or contains a NUL byte)"
        case .invalidHash: return "invalid hash (not a yescrypt \"$y$\" crypt string)"
        case .hash(let error): return error.message
        case .system(let operation, let code): return "\(operation.name) failed (errno \(code))"
        case .lockBusy(let seconds):
            return "another process holds the lock (waited \(seconds) s); nothing was changed, try again"
        case .fileSizeLimit(let bytes):
            return "the file-size limit (ulimit -f) is below the \(bytes) bytes to write; nothing was written"
        case .cpuTimeLimit(let seconds):
            return "the CPU time limit (ulimit -t) leaves \(seconds) s, less than a check may take; nothing was counted"
        case .tpmUnavailable(let code): return "the TPM cannot check the pattern now (TPM result \(code))"
        case .heldByTPM: return "the pattern is held by the TPM: only pam_pattern_helper can check it"
        }
    }
}
