/// Which keys the user types for the dots.
///
/// The dots are always numbered like a phone keypad (1 2 3 on top). A computer
/// numpad has 7 8 9 on its top row, so a user who "draws" on a numpad types
/// 7 for the top-left dot; `numpad` maps the keys back to the dots.
public enum KeypadLayout: Sendable {
    /// 1 2 3 on the top row: key N is dot N.
    case phone
    /// 7 8 9 on the top row (a computer keypad): key 7 is dot 1, key 1 is dot 7.
    case numpad

    /// Parses the module option value: "phone" or "numpad" (exact, lower case).
    /// Bytes, not String, so the Embedded build never needs Unicode tables.
    public init?(optionValue: [UInt8]) {
        if optionValue == Array("phone".utf8) {
            self = .phone
        } else if optionValue == Array("numpad".utf8) {
            self = .numpad
        } else {
            return nil
        }
    }

    /// The dot (1...9) for a typed key (1...9); nil for anything else.
    public func dot(forKey key: UInt8) -> UInt8? {
        guard key >= 1 && key <= 9 else { return nil }
        switch self {
        case .phone:
            return key
        case .numpad:
            // Rows are swapped top <-> bottom; the middle row stays.
            if key >= 7 { return key - 6 }
            if key <= 3 { return key + 6 }
            return key
        }
    }

    /// The key (1...9) a user of this layout types for a dot (1...9); nil for anything else.
    /// The numpad mapping is its own inverse.
    public func key(forDot dot: UInt8) -> UInt8? {
        return self.dot(forKey: dot)
    }
}

extension Pattern {
    /// The keys a user of `layout` types for this pattern, as ASCII digits:
    /// what every message shows, so a numpad user sees their own digits.
    public func keyDigits(layout: KeypadLayout) -> [UInt8] {
        return dots.map { (layout.key(forDot: $0) ?? 0) &+ 0x30 }
    }

    /// The keys as a string of digits (dots 1 2 5 9 are "7893" on a numpad). For people only.
    public func keyString(layout: KeypadLayout) -> String {
        return String(decoding: keyDigits(layout: layout), as: UTF8.self)
    }
}
