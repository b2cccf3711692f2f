import CPatternSystem

/// Helpers for the C strings libpam hands over and takes. Everything is bounded:
/// no scan past `limit` bytes, no force unwraps.
enum CString {
    /// The bytes of a NUL-terminated string, or nil when `pointer` is NULL or the
    /// string is longer than `limit` bytes (it is then not read past limit + 1).
    static func bytes(_ pointer: UnsafePointer<CChar>?, limit: Int) -> [UInt8]? {
        guard let pointer, limit >= 0 else { return nil }
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length + 1) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Length of a NUL-terminated string, looking at no more than `limit` bytes
    /// (returns `limit` when the string is at least that long).
    static func length(_ pointer: UnsafePointer<CChar>, limit: Int) -> Int {
        return strnlen(pointer, limit)
    }

    /// Calls `body` with a NUL-terminated copy of `bytes`. A NUL inside `bytes`
    /// becomes '?' so the C side sees the whole text.
    static func with<R>(_ bytes: [UInt8], orElse fallback: R, _ body: (UnsafePointer<CChar>) -> R) -> R {
        var copy: [UInt8] = []
        copy.reserveCapacity(bytes.count + 1)
        for byte in bytes { copy.append(byte == 0 ? UInt8(ascii: "?") : byte) }
        copy.append(0)
        return copy.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return fallback }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { body($0) }
        }
    }

    /// At most `limit` bytes of a NUL-terminated string (cut, not refused, when longer); [] for NULL.
    static func prefix(_ pointer: UnsafePointer<CChar>?, limit: Int) -> [UInt8] {
        guard let pointer, limit > 0 else { return [] }
        let length = strnlen(pointer, limit)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}
