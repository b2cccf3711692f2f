/// Why typed input is not a pattern. None of these count as a guess: they are
/// typing mistakes or too short to be a real pattern (Android does the same).
public enum PatternError: Error, Equatable, Sendable {
    /// Nothing but separators (or nothing at all) was typed.
    case empty
    /// The input is longer than `Pattern.maximumInputBytes`; refused before any work.
    case tooLong(byteCount: Int)
    /// A byte that is neither a dot (1-9) nor a separator (space, '-'); position is 1-based.
    case notADot(character: UInt8, position: Int)
    /// A '0': the keypad has a 0 key but the grid has no dot 0; position is 1-based.
    case zero(position: Int)
    /// The pattern reaches this dot (1...9) a second time, typed or picked up by a line.
    case dotUsedTwice(dot: UInt8)
    /// The canonical pattern has fewer dots than the minimum.
    case tooShort(dotCount: Int, minimum: Int)

    /// A sentence a person understands, naming the character, dot or length,
    /// with the dot named by the phone key (see `message(layout:)`).
    public var message: String {
        return message(layout: .phone)
    }

    /// The sentence for a user of `layout`: a dot is named by the key that
    /// user types for it, so a numpad user reads their own digit.
    public func message(layout: KeypadLayout) -> String {
        switch self {
        case .empty:
            return "No pattern was entered."
        case .tooLong(let byteCount):
            return
                "The input is too long (\(byteCount) bytes); a pattern is at most \(Pattern.maximumInputBytes) bytes."
        case .notADot(let character, let position):
            return
                "\(PatternError.describe(character)) at position \(position) is not a dot; type the dots as digits 1 to 9."
        case .zero(let position):
            return "'0' at position \(position) is not a dot; the dots are numbered 1 to 9."
        case .dotUsedTwice(let dot):
            return
                "Dot \(layout.key(forDot: dot) ?? dot) (\(PatternError.placeName(of: dot))) is used twice; each dot can be used only once, and a line across an unused dot uses it."
        case .tooShort(let dotCount, let minimum):
            let dots = dotCount == 1 ? "1 dot" : "\(dotCount) dots"
            return "The pattern has \(dots); at least \(minimum) are needed."
        }
    }

    /// Where a dot sits on the grid, in words ("top left", "centre").
    static func placeName(of dot: UInt8) -> String {
        switch dot {
        case 1: return "top left"
        case 2: return "top middle"
        case 3: return "top right"
        case 4: return "middle left"
        case 5: return "centre"
        case 6: return "middle right"
        case 7: return "bottom left"
        case 8: return "bottom middle"
        case 9: return "bottom right"
        default: return "not on the grid"
        }
    }

    /// A byte as a person should see it: 'x' for printable ASCII, else its hex
    /// value (control bytes and UTF-8 pieces would garble a terminal or log).
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte <= 0x7E {
            return "'" + String(decoding: [byte], as: UTF8.self) + "'"
        }
        return "Byte 0x" + String(decoding: TextCodec.hex([byte], uppercase: true), as: UTF8.self)
    }
}
