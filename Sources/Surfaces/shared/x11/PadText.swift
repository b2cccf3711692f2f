import CPatternPad
import PatternCoreEmbedded

/// The pad's bytes: C strings read bounded, literals and numbers as bytes, characters counted.
package enum PadText {
    /// The bytes of a NUL-terminated C string of at most `limit` bytes; nil for NULL or a longer one.
    package static func bytes(_ pointer: UnsafePointer<CChar>?, limit: Int) -> [UInt8]? {
        guard let pointer else { return nil }
        var length = 0
        while length <= limit && pointer[length] != 0 { length += 1 }
        guard length <= limit else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    static func bytes(_ text: StaticString) -> [UInt8] {
        var out: [UInt8] = []
        text.withUTF8Buffer { out.append(contentsOf: $0) }
        return out
    }

    static func number(_ n: Int64) -> [UInt8] { TextCodec.signedDecimal(n) }

    /// The number of characters (UTF-8 lead bytes) in `bytes`.
    static func characterCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }
}
