import CPatternSystem

/// An open, exclusively flocked state file. Closing releases the lock.
struct LockedThrottleState {
    private(set) var fd: Int32
    /// Another user's login may wait for this lock (su and sudo run the module as its caller's real uid): held
    /// as real uid root, so the caller cannot stop the holder (SignalProofHold). Ended by `close`.
    private let hold: SignalProofHold

    init(fd: Int32, hold: SignalProofHold) {
        self.fd = fd
        self.hold = hold
    }

    /// Parses the state under the lock.
    func read() throws(StoreError) -> ThrottleState {
        return try LockedThrottleState.read(fd)
    }

    /// Parses the state and, when its last failure lies after `now`, rewrites it as `now` first.
    func read(normalisedAt now: Int64) throws(StoreError) -> ThrottleState {
        var state = try read()
        if state.lastFailure > now && now >= 0 {
            state.lastFailure = now
            try write(state)
        }
        return state
    }

    static func read(_ fd: Int32) throws(StoreError) -> ThrottleState {
        let read: [UInt8]?
        do { read = try SystemCall.readAll(fd, limit: Int(ThrottleStore.maximumFileBytes), at: 0) } catch {
            throw .system(operation: .read, errno: error.code)
        }
        guard let bytes = read else { throw .malformedState }
        guard let state = ThrottleState.parse(bytes) else { throw .malformedState }
        return state
    }

    /// Writes the record in place and fsyncs it: when this returns, the count survives a crash or a SIGKILL.
    func write(_ state: ThrottleState) throws(StoreError) {
        let bytes = state.encoded()
        do { try SystemCall.writeAll(fd, bytes, at: 0) } catch {
            if error.code == EFBIG { throw .fileSizeLimit(bytes: Int64(bytes.count)) }
            throw .system(operation: .write, errno: error.code)
        }
        // Only needed for a file written by a different (longer) format; a no-op on a 31-byte file.
        do { try SystemCall.ftruncate(fd, off_t(bytes.count)) } catch {
            throw .system(operation: .truncate, errno: error.code)
        }
        do { try SystemCall.fsync(fd) } catch { throw .system(operation: .fsync, errno: error.code) }
    }

    mutating func close() {
        SystemCall.close(fd)
        fd = -1
        hold.end()
    }
}
