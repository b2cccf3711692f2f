/// What `patternctl set --draw` and its drawing window (pattern-draw) say to each other on two pipes, in
/// authproto's framing (`AuthprotoFraming`, which the pad already reads): patternctl runs the
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
}
