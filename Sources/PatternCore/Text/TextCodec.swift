/// The small text codecs of the files and messages, in one place: decimal numbers, lower-case hex, and bytes
/// made safe to print. Each file format says which spelling it allows (FILEFORMAT.md); these functions never
/// trap on any input.
public enum TextCodec {
    /// Decimal digits of `value`; a negative value is written as 0 (no format here has a sign). With `width`,
    /// zero-padded on the left to that many digits (the fixed-width state record), keeping the lowest digits
    /// of a longer value.
    public static func decimal(_ value: Int64, width: Int? = nil) -> [UInt8] {
        var digits = reversedDigits(UInt64(max(value, 0)))
        if let width {
            while digits.count < width { digits.append(0x30) }
            if digits.count > width { digits.removeLast(digits.count - width) }
        }
        return digits.reversed()
    }

    /// Decimal digits of `value` with a '-' when negative: for messages (no file format has a sign).
    public static func signedDecimal(_ value: Int64) -> [UInt8] {
        let digits = Array(reversedDigits(value.magnitude).reversed())
        return value < 0 ? [0x2D] + digits : digits
    }

    /// The digits of `value`, lowest first.
    static func reversedDigits(_ value: UInt64) -> [UInt8] {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(UInt8(truncatingIfNeeded: 0x30 &+ rest % 10))
            rest /= 10
        } while rest > 0
        return digits
    }

    /// Parses ASCII decimal digits (no sign, no spaces) that fit Int64; nil for anything else, never traps.
    /// `leadingZeros: false` refuses "01" (one spelling per value: the store's time, the helper's numbers);
    /// `maximumDigits` refuses longer input before reading it.
    public static func parseDecimal<Digits: Collection>(
        _ bytes: Digits, leadingZeros: Bool = true, maximumDigits: Int = Int.max
    ) -> Int64? where Digits.Element == UInt8 {
        guard let first = bytes.first, bytes.count <= maximumDigits else { return nil }
        if !leadingZeros && first == 0x30 && bytes.count > 1 { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte &- 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Hex of `bytes`, two digits a byte: lower-case (the file formats' one spelling), or upper-case for a
    /// byte shown to a person ("0x1B").
    public static func hex(_ bytes: [UInt8], uppercase: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            let high = hexDigits[Int(byte >> 4)]
            let low = hexDigits[Int(byte & 0x0F)]
            out.append(uppercase && high >= 0x61 ? high &- 0x20 : high)
            out.append(uppercase && low >= 0x61 ? low &- 0x20 : low)
        }
        return out
    }

    /// The bytes of lower-case hex (one spelling per value); nil for an odd length or any other character.
    public static func parseHex<Digits: Collection>(_ text: Digits) -> [UInt8]? where Digits.Element == UInt8 {
        guard text.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var high: UInt8? = nil
        for char in text {
            let nibble: UInt8
            switch char {
            case 0x30...0x39: nibble = char &- 0x30
            case 0x61...0x66: nibble = char &- 0x61 &+ 10
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return out
    }

    /// A copy safe for a log line or a message: printable ASCII kept, every other byte '?' (a name or a path
    /// can hold escape sequences or newlines that would forge a log line); with `limit`, at most that many
    /// bytes, then "...". `space: false` turns spaces into '?' too (a field of a space-separated line).
    public static func printable(_ bytes: [UInt8], limit: Int? = nil, space: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        let shown = limit.map { bytes.prefix($0) } ?? bytes[...]
        out.reserveCapacity(shown.count + 3)
        let lowest: UInt8 = space ? 0x20 : 0x21
        for byte in shown { out.append(byte >= lowest && byte < 0x7F ? byte : 0x3F) }
        if let limit, bytes.count > limit { out.append(contentsOf: "...".utf8) }
        return out
    }

    /// "0644": the permission bits of a file mode as four octal digits (for messages about unsafe files).
    public static func octal(_ mode: UInt32) -> String {
        let bits = mode & 0o7777
        let digits: [UInt8] = [
            UInt8(0x30 + ((bits >> 9) & 7)), UInt8(0x30 + ((bits >> 6) & 7)),
            UInt8(0x30 + ((bits >> 3) & 7)), UInt8(0x30 + (bits & 7)),
        ]
        return String(decoding: digits, as: UTF8.self)
    }
}
