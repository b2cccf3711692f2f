/// Which system call failed, carried by `StoreError.system`.
public enum SystemOperation: Equatable, Sendable {
    case open, openDirectory, makeDirectory, stat, read, write, fsync, rename, unlink, lock, truncate, chmod,
        chown, listDirectory, crypt, accountLookup

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
        case .chown: return "fchown"
        case .listDirectory: return "readdir"
        case .crypt: return "crypt"
        case .accountLookup: return "getpwnam_r"
        }
    }
}
