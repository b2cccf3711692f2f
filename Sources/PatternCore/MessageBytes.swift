/// A log or error sentence built as bytes. Embedded Swift turns every String interpolation into a lot of code
/// (the module must stay under 256 KiB); the configuration messages are built with this instead.
struct MessageBytes {
    var bytes: [UInt8] = []

    mutating func add(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Decimal digits, '-' for negative numbers.
    mutating func add(number: Int64) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = number.magnitude
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(truncatingIfNeeded: 0x30 &+ rest % 10))
            rest /= 10
        } while rest > 0
        bytes.append(contentsOf: digits.reversed())
    }

    /// Anything outside printable ASCII as '?' (it may end up in syslog).
    mutating func add(printable: [UInt8]) {
        for byte in printable { bytes.append(byte >= 0x20 && byte < 0x7F ? byte : UInt8(ascii: "?")) }
    }

    /// An option's name from the table.
    mutating func add(option key: OptionKey) {
        add(PatternOption.spec(for: key).name)
    }
}
