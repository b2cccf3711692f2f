/// A log or error sentence built as bytes. Embedded Swift turns every String interpolation into a lot of code
/// (the module must stay under 256 KiB); the configuration messages are built with this instead.
struct MessageBytes {
    var bytes: [UInt8] = []

    mutating func add(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Decimal digits, '-' for negative numbers.
    mutating func add(number: Int64) {
        bytes.append(contentsOf: TextCodec.signedDecimal(number))
    }

    /// Anything outside printable ASCII as '?' (it may end up in syslog).
    mutating func add(printable: [UInt8]) {
        bytes.append(contentsOf: TextCodec.printable(printable))
    }
}
