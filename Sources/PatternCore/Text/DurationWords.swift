/// A wait as a person is told it: its largest unit and, when that is not whole, the next smaller one
/// ("45 seconds", "4 minutes 54 seconds", "3 hours 2 minutes"). The module and patternctl word every wait
/// from this, each with its own gettext call (the msgids must stay literals at the call).
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
