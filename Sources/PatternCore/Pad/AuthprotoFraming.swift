/// authproto's framing, `<type> <decimal length>\n<bytes>\n`: how xsecurelock's authproto_pam talks to the pad,
/// and how patternctl talks to its drawing window (DrawWindowProtocol). Read in one place so the pad's reader
/// and patternctl's cannot disagree, and so it runs in the Embedded build the pad links.
public enum AuthprotoFraming {
    /// The longest packet either side reads (authproto_pam refuses longer packets itself: len < 0xFFFF).
    public static let maximumPacketBytes = 0xFFFF

    /// One packet as bytes.
    public static func frame(_ type: UInt8, _ bytes: [UInt8]) -> [UInt8] {
        [type, 0x20] + TextCodec.decimal(Int64(bytes.count)) + [0x0A] + bytes + [0x0A]
    }

    /// What the start of `buffer` holds.
    public enum Parsed: Equatable {
        /// More bytes are needed.
        case incomplete
        /// Not this framing: the stream is unusable.
        case broken
        /// A whole packet: its type, where its bytes are in `buffer`, and how many bytes it took.
        case packet(type: UInt8, bytes: Range<Int>, consumed: Int)
    }

    /// Reads the first packet of `buffer`.
    public static func parse(_ buffer: [UInt8]) -> Parsed {
        guard buffer.count >= 3 else { return .incomplete }
        guard buffer[1] == 0x20 else { return .broken }
        var index = 2
        var length = 0
        while index < buffer.count && buffer[index] != 0x0A {
            let byte = buffer[index]
            guard byte >= 0x30 && byte <= 0x39, index < 8 else { return .broken }
            length = length * 10 + Int(byte - 0x30)
            index += 1
        }
        guard index < buffer.count else { return .incomplete }
        guard length < maximumPacketBytes, index > 2 else { return .broken }
        let start = index + 1
        guard buffer.count >= start + length + 1 else { return .incomplete }
        guard buffer[start + length] == 0x0A else { return .broken }
        return .packet(type: buffer[0], bytes: start..<(start + length), consumed: start + length + 1)
    }
}
