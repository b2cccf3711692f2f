/// A wait as a person is told it: its largest unit and, when that is not whole, the next smaller one
/// ("45 seconds", "4 minutes 54 seconds", "3 hours 2 minutes"). The module, the pad and patternctl say every
/// wait through `said`, so it reads the same from sudo, a lock screen and the CLI.
public struct DurationWords: Equatable, Sendable {
    public enum Unit: Equatable, Sendable {
        case second, minute, hour
    }

    public let unit: Unit
    public let count: Int64
    /// How many of the next smaller unit follow (seconds after minutes, minutes after hours); 0: none, and
    /// always 0 after seconds.
    public let rest: Int64

    /// Less than a second is said as one second: a wait that is still running is never "0 seconds".
    public init(seconds: Int64) {
        let s = seconds < 1 ? 1 : seconds
        if s < 60 {
            (unit, count, rest) = (.second, s, 0)
        } else if s < 3600 {
            (unit, count, rest) = (.minute, s / 60, s % 60)
        } else {
            (unit, count, rest) = (.hour, s / 3600, (s % 3600) / 60)
        }
    }

    /// The unit `rest` counts.
    public var restUnit: Unit { unit == .hour ? .minute : .second }
}

extension DurationWords {
    /// The wait in the person's language (MessageCatalogue): "4 minutes 54 seconds", "1 minute".
    public var said: [UInt8] {
        let larger = Self.count(count, of: unit)
        guard rest > 0 else { return larger }
        return MessageCatalogue.localized("%1$s %2$s", larger, Self.count(rest, of: restUnit))
    }

    /// "1 minute", "54 seconds".
    static func count(_ n: Int64, of unit: Unit) -> [UInt8] {
        let digits = TextCodec.decimal(n)
        switch unit {
        case .second: return MessageCatalogue.localizedPlural("%s second", "%s seconds", n, digits)
        case .minute: return MessageCatalogue.localizedPlural("%s minute", "%s minutes", n, digits)
        case .hour: return MessageCatalogue.localizedPlural("%s hour", "%s hours", n, digits)
        }
    }
}
