/// What `patternctl set --draw` and its drawing window (pattern-draw) say to each other on two pipes, in
/// authproto's framing (`<type> <decimal length>\n<bytes>\n`, which the pad already reads): patternctl runs the
/// same conversation as the typed `patternctl set` (the helper, the strength rules, every word of a verdict) and
/// asks the window for each entry; the window draws, reads the drawing or the typed password, and answers. The
/// window decides nothing and never reaches the store; it sends dots ("1" top left to "9" bottom right), which
/// patternctl reads as the keys of its layout.
public enum DrawWindowProtocol {
    /// patternctl to the window.
    public enum Request: UInt8, Sendable {
        /// Draw your current pattern (a change: checked by the helper and counted like a login).
        case current = 0x63  // c
        /// Type your account password (a first pattern, or a forgotten one).
        case password = 0x77  // w
        /// Draw the new pattern.
        case new = 0x6E  // n
        /// Draw it again to confirm.
        case again = 0x61  // a
        /// Why the last entry was not taken, or why nothing was changed (the text): shown in red.
        case error = 0x65  // e
        /// What is happening (the text).
        case info = 0x69  // i
        /// The new pattern is stored.
        case done = 0x64  // d

        /// Whether the window answers it (with `answer` or `cancel`).
        public var asks: Bool {
            switch self {
            case .current, .password, .new, .again: return true
            case .error, .info, .done: return false
            }
        }
    }

    /// The window's answer: the drawn dots, or the typed password.
    public static let answer: UInt8 = 0x70  // p
    /// The person closed the window or pressed Esc: nothing is changed.
    public static let cancel: UInt8 = 0x78  // x
    /// The longest packet either side reads (authproto's own limit).
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
