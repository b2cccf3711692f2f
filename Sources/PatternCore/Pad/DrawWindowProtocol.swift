/// What `patternctl set --draw` and its drawing window (pattern-draw) say to each other on two pipes, in
/// authproto's framing (`AuthprotoFraming`, which the pad already reads): patternctl runs the
/// same conversation as the typed `patternctl set` (the helper, the strength rules, every word of a verdict) and
/// asks the window for each entry; the window draws, reads the drawing or the typed password, and answers. The
/// window decides nothing and never reaches the store; it sends dots ("1" top left to "9" bottom right), which
/// patternctl reads as the keys of its layout.
public enum DrawWindowProtocol {
    /// patternctl to the window.
    public enum Request: UInt8, Sendable {
        /// Draw your current pattern (a change: checked by the helper and counted like a login). Its text is a
        /// `CurrentAsk`: whether a drawing may be tried now, and whether the password is offered instead.
        case current = 0x63  // c
        /// Type your account password (a first pattern, or a forgotten one).
        case password = 0x77  // w
        /// Draw the new pattern. Its text is a `NewAsk`: the rules it is judged by, shown live as it is drawn.
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
    /// The answer to `current` when the person chose their account password instead (a forgotten pattern).
    public static let usePassword: UInt8 = 0x66  // f

    /// What comes with `current`, as "WAIT OFFERED": whether a drawing may be tried now (0: it may, N > 0: the
    /// seconds until one may, -1: disabled) and whether the account password is offered instead (1). Its own
    /// type, not the throttle's verdict: the protocol sits below the throttle (ARCHITECTURE.md, "The core's
    /// layers"); patternctl says what the throttle's verdict means here.
    public struct CurrentAsk: Equatable, Sendable {
        /// Whether the current pattern may be drawn now.
        public enum Lock: Equatable, Sendable {
            case open
            case wait(seconds: Int64)
            case disabled
        }

        public var lock: Lock
        public var passwordOffered: Bool

        public init(lock: Lock, passwordOffered: Bool) {
            self.lock = lock
            self.passwordOffered = passwordOffered
        }

        public var encoded: [UInt8] {
            let wait: Int64
            switch lock {
            case .open: wait = 0
            case .wait(let seconds): wait = max(1, seconds)
            case .disabled: wait = -1
            }
            return TextCodec.signedDecimal(wait) + [0x20, passwordOffered ? 0x31 : 0x30]
        }

        /// nil for text that is not two such numbers (an older patternctl sends none: then nothing is offered).
        public init?(_ text: [UInt8]) {
            let parts = text.split(separator: 0x20, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 1, parts[1][parts[1].startIndex] & 0xFE == 0x30 else {
                return nil
            }
            let negative = parts[0].first == 0x2D
            guard let value = TextCodec.parseDecimal(negative ? parts[0].dropFirst() : parts[0]) else { return nil }
            switch (negative, value) {
            case (true, 1): lock = .disabled
            case (true, _): return nil
            case (false, 0): lock = .open
            case (false, _): lock = .wait(seconds: value)
            }
            passwordOffered = parts[1][parts[1].startIndex] == 0x31
        }
    }

    /// What comes with `new`, as "MINLEN LEVEL": the minimum length and the level of strength= patternctl
    /// judges the drawing by.
    public struct NewAsk: Equatable, Sendable {
        public var minimumLength: Int
        public var rules: StrengthRules

        public init(minimumLength: Int, rules: StrengthRules) {
            self.minimumLength = Pattern.clampedMinimumLength(minimumLength)
            self.rules = rules
        }

        public var encoded: [UInt8] {
            TextCodec.decimal(Int64(minimumLength)) + [0x20] + TextCodec.decimal(Int64(rules.rawValue))
        }

        public init?(_ text: [UInt8]) {
            let parts = text.split(separator: 0x20, omittingEmptySubsequences: false)
            guard parts.count == 2, let length = TextCodec.parseDecimal(parts[0]), length <= 9,
                let level = TextCodec.parseDecimal(parts[1]), let rules = StrengthRules(rawValue: Int(level))
            else { return nil }
            self.init(minimumLength: Int(length), rules: rules)
        }
    }
}
