/// An option with a value checked against its row of `PatternOption.table`: what both the pam.d argument parser
/// and the configuration file parser produce, and what `PatternSettings.apply` consumes.
public struct OptionSetting: Equatable, Sendable {
    public let key: OptionKey
    public let value: OptionValue

    public init(_ key: OptionKey, _ value: OptionValue) {
        self.key = key
        self.value = value
    }

    /// Longest accepted path in bytes (PATH_MAX - 1).
    public static let maximumPathBytes = 4095

    /// Checks `value` (nil when none was given) against `spec`'s kind. Works on bytes only.
    public static func parse(_ spec: PatternOption, value: ArraySlice<UInt8>?) throws(OptionProblem) -> OptionSetting {
        guard case .flag = spec.kind else {
            guard let value, !value.isEmpty else { throw .needsValue }
            return OptionSetting(spec.key, try parseValue(spec.kind, value))
        }
        // A flag with a value is a mistake ("nullok=0" must not silently mean nullok).
        if value != nil { throw .takesNoValue }
        return OptionSetting(spec.key, .on)
    }

    private static func parseValue(_ kind: OptionKind, _ value: ArraySlice<UInt8>) throws(OptionProblem) -> OptionValue
    {
        switch kind {
        case .flag:
            throw .takesNoValue
        case .number(let range):
            guard let number = decimal(value), range.contains(number) else { throw .outOfRange(range) }
            return .number(number)
        case .path:
            guard value.first == UInt8(ascii: "/"), value.count > 1, value.count <= maximumPathBytes,
                !value.contains(0)
            else { throw .notAbsolutePath }
            return .bytes(Array(value))
        case .layout:
            guard let layout = KeypadLayout(optionValue: Array(value)) else { throw .notALayout }
            return .layout(layout)
        case .text(let maximumBytes):
            guard value.count <= maximumBytes, !value.contains(where: { $0 < 0x20 || $0 == 0x7f }) else {
                throw .notPrintable(maximumBytes: maximumBytes)
            }
            return .bytes(Array(value))
        case .yesNo:
            if value.elementsEqual("yes".utf8) { return .yes(true) }
            if value.elementsEqual("no".utf8) { return .yes(false) }
            throw .notYesOrNo
        case .tpmMode:
            guard let mode = TPMMode(word: value) else { throw .notATPMMode }
            return .tpmMode(mode)
        case .serviceNames:
            guard let names = ServiceNames.parse(value) else { throw .notServiceNames }
            return .names(names)
        }
    }

    /// Plain ASCII decimal digits (no sign, no spaces). Nil for anything else, including values too large for
    /// Int64: never traps.
    public static func decimal(_ bytes: ArraySlice<UInt8>) -> Int64? { TextCodec.parseDecimal(bytes) }
}

/// A checked option value.
public enum OptionValue: Equatable, Sendable {
    /// A flag that was given.
    case on
    case number(Int64)
    /// A path or a text.
    case bytes([UInt8])
    case layout(KeypadLayout)
    /// `yes` (true) or `no` (false).
    case yes(Bool)
    case tpmMode(TPMMode)
    /// PAM service names, each once.
    case names([[UInt8]])
}

/// Why an option's value was refused. The sentence names the option and what it accepts, never the value
/// (callers quote it, sanitised, where they log).
public enum OptionProblem: Error, Equatable, Sendable {
    case takesNoValue
    case needsValue
    case outOfRange(ClosedRange<Int64>)
    case notAbsolutePath
    case notALayout
    case notPrintable(maximumBytes: Int)
    case notYesOrNo
    case notATPMMode
    case notServiceNames

    /// "must be a whole number from 4 to 9", completing "<name> ...".
    public var requirement: String { String(decoding: requirementBytes, as: UTF8.self) }

    /// `requirement` as bytes (what the module logs).
    public var requirementBytes: [UInt8] {
        var message = MessageBytes()
        switch self {
        case .takesNoValue: message.add("takes no value")
        case .needsValue: message.add("needs a value")
        case .outOfRange(let range):
            message.add("must be a whole number from ")
            message.add(number: range.lowerBound)
            message.add(" to ")
            message.add(number: range.upperBound)
        case .notAbsolutePath:
            message.add("must be an absolute path (at most ")
            message.add(number: Int64(OptionSetting.maximumPathBytes))
            message.add(" bytes)")
        case .notALayout: message.add("must be phone or numpad")
        case .notPrintable(let maximumBytes):
            message.add("must be at most ")
            message.add(number: Int64(maximumBytes))
            message.add(" printable bytes")
        case .notYesOrNo: message.add("must be yes or no")
        case .notATPMMode: message.add("must be yes, no or auto")
        case .notServiceNames:
            message.add("must be PAM service names (lower-case letters, digits, . _ + -, at most ")
            message.add(number: Int64(ServiceNames.maximumNameBytes))
            message.add(" bytes each) separated by commas or spaces")
        }
        return message.bytes
    }
}
