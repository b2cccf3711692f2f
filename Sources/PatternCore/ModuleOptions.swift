import CPatternSystem

/// The module's arguments from its pam.d line, e.g.
/// `auth sufficient pam_pattern.so nullok show_grid deny=3 [prompt=Your pattern: ]`.
///
/// Parsing never fails: as PAM modules do, an unknown option or a bad value is
/// reported as a problem (the module logs it) and ignored, so the option keeps
/// its default. A typo in pam.d must not lock everyone out, and must not
/// silently weaken anything either: every default is the strict choice.
/// Works on bytes only (Embedded Swift: no String comparison).
public struct ModuleOptions: Equatable, Sendable {
    /// `store=PATH`: the pattern store (absolute path).
    public var storePath: [UInt8] = ModuleOptions.defaultStorePath
    /// `state=DIR`: the directory of per-user throttle state files (absolute path).
    public var stateDirectory: [UInt8] = ModuleOptions.defaultStateDirectory
    /// `nullok`: a user without a pattern is skipped (PAM_IGNORE) instead of refused.
    public var nullok = false
    /// `layout=phone|numpad`: how typed digits map onto the 3x3 grid.
    public var layout: KeypadLayout = .phone
    /// `minlen=N` (4...9): the fewest dots a typed pattern may have.
    public var minimumLength = 4
    /// `deny=N`, `unlock_time=SECONDS`, `lock_after=N`: the guess throttle.
    public var throttle = ThrottleSettings()
    /// `show_grid`: show the empty 3x3 grid (PAM_TEXT_INFO) before the prompt.
    public var showGrid = false
    /// `prompt=TEXT` (use `[prompt=Text with spaces: ]` in pam.d): the echo-off prompt.
    public var prompt: [UInt8] = ModuleOptions.defaultPrompt
    /// `forward_pass`: one prompt for pattern or password; a non-matching answer is
    /// handed on as PAM_AUTHTOK for the next module (pam_unix try_first_pass).
    public var forwardPass = false
    /// `allow_remote`: also accept a pattern when PAM_RHOST names a remote host.
    public var allowRemote = false
    /// `debug`: log each decision (never the digits) at LOG_DEBUG.
    public var debug = false

    /// "Pattern: "
    public static let defaultPrompt: [UInt8] = Array("Pattern: ".utf8)
    /// "Pattern or password: ", the default prompt with `forward_pass`.
    public static let defaultForwardPrompt: [UInt8] = Array("Pattern or password: ".utf8)
    /// "/etc/security/pam_pattern/patterns"
    public static let defaultStorePath: [UInt8] = PatternStore.defaultPath
    /// "/var/lib/pam_pattern"
    public static let defaultStateDirectory: [UInt8] = ThrottleStore.defaultDirectory
    /// The accepted `minlen=` values (a 3x3 pattern has 4 to 9 dots).
    public static let minimumLengthRange: ClosedRange<Int> = 4...9
    /// The accepted `deny=` values (free failures before the first wait).
    public static let denyRange: ClosedRange<Int> = 1...1000
    /// The accepted `unlock_time=` values in seconds (up to one year).
    public static let unlockTimeRange: ClosedRange<Int64> = 1...31_536_000
    /// The accepted `lock_after=` values (failures after which the pattern is disabled;
    /// 0: never disabled, only the growing waits apply).
    public static let lockAfterRange: ClosedRange<Int> = 0...100_000
    /// Longest accepted `prompt=` in bytes.
    public static let maximumPromptBytes = 200
    /// Longest accepted path in bytes (PATH_MAX - 1).
    public static let maximumPathBytes = 4095
    /// Longest piece of an offending option quoted back in a problem message.
    static let maximumQuotedBytes = 64

    /// The prompt to show: `prompt=` when given, else "Pattern: ", or
    /// "Pattern or password: " with `forward_pass` (one prompt serves both).
    public var effectivePrompt: [UInt8] {
        if forwardPass && prompt == Self.defaultPrompt { return Self.defaultForwardPrompt }
        return prompt
    }

    /// All defaults.
    public init() {}

    /// Parses the module arguments (argv of pam_sm_authenticate, without NULs).
    /// Later occurrences of an option override earlier ones.
    /// - Returns: the options, and one human-readable message per ignored argument.
    public static func parse(_ arguments: [[UInt8]]) -> (options: ModuleOptions, problems: [[UInt8]]) {
        var options = ModuleOptions()
        var problems: [[UInt8]] = []
        for argument in arguments {
            if let problem = options.apply(argument) {
                problems.append(problem)
            }
        }
        return (options, problems)
    }

    /// Applies one argument; returns a problem message when it is ignored.
    mutating func apply(_ argument: [UInt8]) -> [UInt8]? {
        let equals = UInt8(ascii: "=")
        var name = argument[...]
        var value: ArraySlice<UInt8>? = nil
        if let index = argument.firstIndex(of: equals) {
            name = argument[argument.startIndex..<index]
            value = argument[(index + 1)...]
        }

        // Flags: a value is a mistake ("nullok=0" must not silently mean nullok).
        if let flag = Flag(name: name) {
            if value != nil {
                return Self.problem("option ", argument, " takes no value, ignored")
            }
            switch flag {
            case .nullok: nullok = true
            case .showGrid: showGrid = true
            case .forwardPass: forwardPass = true
            case .allowRemote: allowRemote = true
            case .debug: debug = true
            }
            return nil
        }

        guard let setting = Setting(name: name) else {
            return Self.problem("unknown option ", argument, ", ignored")
        }
        guard let value, !value.isEmpty else {
            return Self.problem("option ", argument, " needs a value, ignored")
        }
        switch setting {
        case .store:
            guard Self.isAcceptablePath(value) else {
                return Self.problem("store= needs an absolute path, ignored: ", argument, "")
            }
            storePath = Array(value)
        case .state:
            guard Self.isAcceptablePath(value) else {
                return Self.problem("state= needs an absolute path, ignored: ", argument, "")
            }
            stateDirectory = Array(value)
        case .layout:
            guard let parsed = KeypadLayout(optionValue: Array(value)) else {
                return Self.problem("layout= must be phone or numpad, ignored: ", argument, "")
            }
            layout = parsed
        case .minlen:
            guard let number = Self.decimal(value, in: Self.minimumLengthRange) else {
                return Self.problem("minlen= must be 4 to 9, ignored: ", argument, "")
            }
            minimumLength = number
        case .deny:
            guard let number = Self.decimal(value, in: Self.denyRange) else {
                return Self.problem("deny= must be 1 to 1000, ignored: ", argument, "")
            }
            throttle.deny = number
        case .unlockTime:
            guard let number = Self.decimal(value, in: Self.unlockTimeRange) else {
                return Self.problem("unlock_time= must be 1 to 31536000 seconds, ignored: ", argument, "")
            }
            throttle.unlockTime = number
        case .lockAfter:
            guard let number = Self.decimal(value, in: Self.lockAfterRange) else {
                return Self.problem("lock_after= must be 0 (never) to 100000, ignored: ", argument, "")
            }
            throttle.lockAfter = number
        case .prompt:
            guard value.count <= Self.maximumPromptBytes, !value.contains(where: { $0 < 0x20 || $0 == 0x7f }) else {
                return Self.problem("prompt= must be at most 200 printable bytes, ignored: ", argument, "")
            }
            prompt = Array(value)
        }
        return nil
    }

    /// The boolean options.
    enum Flag {
        case nullok, showGrid, forwardPass, allowRemote, debug
        init?(name: ArraySlice<UInt8>) {
            if name.elementsEqual("nullok".utf8) { self = .nullok }
            else if name.elementsEqual("show_grid".utf8) { self = .showGrid }
            else if name.elementsEqual("forward_pass".utf8) { self = .forwardPass }
            else if name.elementsEqual("allow_remote".utf8) { self = .allowRemote }
            else if name.elementsEqual("debug".utf8) { self = .debug }
            else { return nil }
        }
    }

    /// The options that take a value (`name=value`).
    enum Setting {
        case store, state, layout, minlen, deny, unlockTime, lockAfter, prompt
        init?(name: ArraySlice<UInt8>) {
            if name.elementsEqual("store".utf8) { self = .store }
            else if name.elementsEqual("state".utf8) { self = .state }
            else if name.elementsEqual("layout".utf8) { self = .layout }
            else if name.elementsEqual("minlen".utf8) { self = .minlen }
            else if name.elementsEqual("deny".utf8) { self = .deny }
            else if name.elementsEqual("unlock_time".utf8) { self = .unlockTime }
            else if name.elementsEqual("lock_after".utf8) { self = .lockAfter }
            else if name.elementsEqual("prompt".utf8) { self = .prompt }
            else { return nil }
        }
    }

    /// An absolute path that fits PATH_MAX and is not just "/".
    static func isAcceptablePath(_ value: ArraySlice<UInt8>) -> Bool {
        guard let first = value.first, first == UInt8(ascii: "/") else { return false }
        return value.count > 1 && value.count <= maximumPathBytes
    }

    /// Parses plain ASCII decimal digits (no sign, no spaces) into `range`.
    /// Returns nil for anything else, including values too large for Int64:
    /// never traps.
    static func decimal(_ bytes: ArraySlice<UInt8>, in range: ClosedRange<Int64>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var result: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            result = sum
        }
        return range.contains(result) ? result : nil
    }

    /// `decimal(_:in:)` for Int ranges.
    static func decimal(_ bytes: ArraySlice<UInt8>, in range: ClosedRange<Int>) -> Int? {
        guard let value = decimal(bytes, in: Int64(range.lowerBound)...Int64(range.upperBound)) else { return nil }
        return Int(exactly: value)
    }

    /// "before" + the offending argument (quoted, capped, non-printables as '?') + "after".
    /// Sanitised because it ends up in syslog.
    static func problem(_ before: StaticString, _ argument: [UInt8], _ after: StaticString) -> [UInt8] {
        var message: [UInt8] = []
        before.withUTF8Buffer { message.append(contentsOf: $0) }
        message.append(UInt8(ascii: "\""))
        for byte in argument.prefix(maximumQuotedBytes) {
            message.append(byte >= 0x20 && byte < 0x7f ? byte : UInt8(ascii: "?"))
        }
        if argument.count > maximumQuotedBytes {
            message.append(contentsOf: "...".utf8)
        }
        message.append(UInt8(ascii: "\""))
        after.withUTF8Buffer { message.append(contentsOf: $0) }
        return message
    }
}
