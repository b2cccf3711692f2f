import CPatternSystem

/// ".<store name>.tpm-session-key" beside the store: the 32 random bytes that are the auth value of the TPM's
/// session-key index (TPMIndexRange.sessionKey). A check binds its HMAC session to that index: the session's
/// key comes from this secret and the TPM's nonces, so a bus observer, who never sees the secret, cannot test
/// patterns against what crosses the bus, and the TPM computes an HMAC instead of an ECC key and an ECDH per
/// check. Root-only like the store (0600, checked like every file here); written only by enrolment, under the
/// TPM conversation lock.
public struct TPMSessionKeyFile {
    public static let size = 32
    static let suffix = ".tpm-session-key"
    public let store: PatternStore

    public init(store: PatternStore) {
        self.store = store
    }

    /// The secret; nil when there is none, or the file is unsafe or not 32 bytes (the check then salts its
    /// session the slow way, and the next enrolment makes a new key).
    public func read() -> [UInt8]? {
        guard let location = try? SafeFile.split(store.path),
            let directory = try? SafeFile.openDirectory(location.directory, create: false)
        else { return nil }
        defer { SystemCall.close(directory) }
        guard let name = SystemCall.cString([0x2E] + location.nameBytes + Array(TPMSessionKeyFile.suffix.utf8)),
            let fd = try? SystemCall.openat(directory, name, SafeFile.readFlags)
        else { return nil }
        defer { SystemCall.close(fd) }
        guard (try? SafeFile.checkFile(fd, limit: Int64(TPMSessionKeyFile.size))) != nil,
            let bytes = try? SystemCall.readAll(fd, limit: TPMSessionKeyFile.size),
            bytes.count == TPMSessionKeyFile.size
        else { return nil }
        return bytes
    }

    /// Replaces the secret (whole-file replacement, fsynced).
    public func write(_ secret: [UInt8]) throws(StoreError) {
        guard secret.count == TPMSessionKeyFile.size else { throw .invalidPath }
        let location = try SafeFile.split(store.path)
        guard let directory = try SafeFile.openDirectory(location.directory, create: true) else {
            throw .missingDirectory
        }
        defer { SystemCall.close(directory) }
        let nameBytes = [0x2E] + location.nameBytes + Array(TPMSessionKeyFile.suffix.utf8)
        guard let name = SystemCall.cString(nameBytes) else { throw .invalidPath }
        try SafeFile.replace(in: directory, name: name, tempPrefix: nameBytes + [0x2E], with: secret)
    }
}
