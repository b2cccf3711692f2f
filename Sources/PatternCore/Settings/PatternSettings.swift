import CPatternSystem

/// pam_pattern's settings, as the module, the setuid helper and patternctl each obey them: the defaults, then
/// /etc/security/pam_pattern.conf (`ConfFile`), then, in the module only, the arguments of its pam.d line, e.g.
/// `auth sufficient pam_pattern.so nullok show_grid deny=3 [prompt=Your pattern: ]`.
///
/// The names, kinds and ranges live in `PatternOption.table`; this is the settings they fill. Argument parsing
/// never fails: as PAM modules do, an unknown option or a bad value is reported as a problem (the module logs
/// it) and ignored. A typo in pam.d must not lock everyone out, and must not silently weaken anything either:
/// every default is the strict choice. Works on bytes only (Embedded Swift: no String comparison).
public struct PatternSettings: Equatable, Sendable {
    /// `store=PATH`: the pattern store (absolute path).
    public var storePath: [UInt8] = PatternSettings.defaultStorePath
    /// `state=DIR`: the directory of per-user throttle state files (absolute path).
    public var stateDirectory: [UInt8] = PatternSettings.defaultStateDirectory
    /// `nullok`: a user without a pattern is skipped (PAM_IGNORE) instead of refused.
    public var nullok = false
    /// `layout=phone|numpad`: how typed digits map onto the 3x3 grid.
    public var layout: KeypadLayout = .phone
    /// `minlen=N` (`Pattern.minimumLengthRange`): the fewest dots a typed pattern may have.
    public var minimumLength = 4
    /// `deny=N`, `unlock_time=SECONDS`, `lock_after=N`: the guess throttle.
    public var throttle = ThrottleSettings()
    /// `show_grid`: show the empty 3x3 grid (PAM_TEXT_INFO) before the prompt.
    public var showGrid = false
    /// `prompt=TEXT` (use `[prompt=Text with spaces: ]` in pam.d): the echo-off prompt.
    public var prompt: [UInt8] = PatternSettings.defaultPrompt
    /// `forward_pass`: one prompt for pattern or password; a non-matching answer is
    /// handed on as PAM_AUTHTOK for the next module (pam_unix try_first_pass).
    public var forwardPass = false
    /// `forward_non_pattern`: the same one prompt, but only an answer that is not a pattern (a typed password) is
    /// handed on; a wrong pattern is told with its tries left and the next module asks for the password itself.
    /// For a stack that serves drawing screens and one-field screens alike (the profile): a wrong drawing must not
    /// become pam_unix's failed password (its fail delay, no tries left said, no password prompt in that run).
    public var forwardNonPattern = false
    /// `allow_remote`: also accept a pattern when PAM_RHOST names a remote host.
    public var allowRemote = false
    /// `empty_fails`: an empty answer is PAM_AUTH_ERR instead of PAM_IGNORE, so that `auth required
    /// pam_pattern.so` in front of the password really demands both (pressing Enter must not skip a factor).
    public var emptyFails = false
    /// `reset_on_success`: this line prompts for nothing and judges nothing; it clears the user's failures
    /// (PasswordReset) and returns PAM_IGNORE. Only for a place a failed authentication never reaches: the
    /// "Additional" block of common-auth, after pam_deny (pam-configs/pattern-reset).
    public var resetOnSuccess = false
    /// `debug`: log each decision (never the digits) at LOG_DEBUG.
    public var debug = false
    /// `cost=N`: the yescrypt cost of newly set patterns (patternctl and the helper; the module only verifies).
    public var cost = PatternHash.defaultCost
    /// `strength=0...3`: what setting a pattern refuses (StrengthRules; patternctl and the helper).
    public var strength = StrengthRules.standard
    /// `self_enroll=yes|no`: whether a user without a pattern may set a first one (after their password).
    public var selfEnroll = true
    /// `tpm=yes|no|auto`: whether patterns set from now on are held by the TPM (TPMMode; enrolment only).
    public var tpmMode: TPMMode = .no
    /// `tpm_tcti=...`: how the setuid helper reaches the TPM (the configuration file only: a caller never picks
    /// the TPM that judges its guesses). "device:/dev/tpmrm0", the kernel's resource manager, by default.
    public var tpmTCTI: [UInt8] = PatternSettings.defaultTPMTCTI
    public static let defaultTPMTCTI: [UInt8] = Array("device:/dev/tpmrm0".utf8)
    static let maximumTCTIBytes = 256
    /// `quiet_services = sddm`: the PAM services the module sends no message (PAM_ERROR_MSG, PAM_TEXT_INFO), as if
    /// their application had passed PAM_SILENT: only the prompt goes out. For SDDM before 0.20, whose daemon reads
    /// one message of its helper at a time and can lose the prompt that follows a message.
    public var quietServices: [[UInt8]] = []
    /// `conf=PATH`: the configuration file the settings were read from.
    public var confPath: [UInt8] = ConfFile.defaultPath

    /// "Pattern: "
    public static let defaultPrompt: [UInt8] = Array("Pattern: ".utf8)
    /// "Pattern or password: ", the default prompt with `forward_pass`.
    public static let defaultForwardPrompt: [UInt8] = Array("Pattern or password: ".utf8)
    /// "/etc/security/pam_pattern/patterns"
    public static let defaultStorePath: [UInt8] = PatternStore.defaultPath
    /// "/var/lib/pam_pattern"
    public static let defaultStateDirectory: [UInt8] = ThrottleStore.defaultDirectory
    /// Longest accepted `prompt=` in bytes.
    public static let maximumPromptBytes = 200
    /// Longest accepted path in bytes (PATH_MAX - 1).
    public static let maximumPathBytes = OptionSetting.maximumPathBytes
    /// Longest piece of an offending option quoted back in a problem message.
    static let maximumQuotedBytes = 64

    /// The prompt to show: `prompt=` when given, else "Pattern: ", or
    /// "Pattern or password: " with `forward_pass` (one prompt serves both).
    public var effectivePrompt: [UInt8] {
        if asksForPassword && prompt == Self.defaultPrompt { return Self.defaultForwardPrompt }
        return prompt
    }

    /// Whether the one prompt takes the password too (`forward_pass` or `forward_non_pattern`).
    public var asksForPassword: Bool { forwardPass || forwardNonPattern }

    /// All defaults.
    public init() {}

    /// Whether `service` (PAM_SERVICE) is one of `quiet_services`.
    public func isQuiet(service: [UInt8]) -> Bool { quietServices.contains(service) }

    /// Parses the module arguments (argv of pam_sm_authenticate, without NULs) over the defaults, without
    /// reading the configuration file. Later occurrences of an option override earlier ones.
    /// - Returns: the options, and one human-readable message per ignored argument.
    public static func parse(_ arguments: [[UInt8]]) -> (options: PatternSettings, problems: [[UInt8]]) {
        let (settings, problems) = settings(fromArguments: arguments)
        var options = PatternSettings()
        options.apply(settings)
        return (options, problems)
    }

    /// The module's options as it runs: the defaults, then the configuration file (`conf=` or
    /// /etc/security/pam_pattern.conf; missing means defaults), then the arguments, which override the file.
    /// Throws when the file is unsafe or malformed: the module then fails closed.
    public static func load(arguments: [[UInt8]]) throws(ConfError) -> (options: PatternSettings, problems: [[UInt8]]) {
        let (settings, problems) = settings(fromArguments: arguments)
        var confPath = ConfFile.defaultPath
        for setting in settings where setting.key == .conf {
            if case .bytes(let path) = setting.value { confPath = path }
        }
        var options = PatternSettings()
        options.confPath = confPath
        options.apply(try ConfFile(path: confPath).settings())
        options.apply(settings)
        return (options, problems)
    }

    /// Checks each argument against `PatternOption.table`. As PAM modules do, an unknown option or a bad value
    /// is reported and ignored, so the setting keeps its value from the file or the default.
    public static func settings(fromArguments arguments: [[UInt8]]) -> (settings: [OptionSetting], problems: [[UInt8]])
    {
        var settings: [OptionSetting] = []
        var problems: [[UInt8]] = []
        for argument in arguments {
            var name = argument[...]
            var value: ArraySlice<UInt8>? = nil
            if let index = argument.firstIndex(of: UInt8(ascii: "=")) {
                name = argument[argument.startIndex..<index]
                value = argument[(index + 1)...]
            }
            guard let spec = PatternOption.named(name) else {
                problems.append(problem("unknown option ", argument, ", ignored"))
                continue
            }
            guard spec.isArgument else {
                problems.append(problem("option ", argument, " ignored: it is set in pam_pattern.conf only"))
                continue
            }
            do {
                settings.append(try OptionSetting.parse(spec, value: value))
            } catch {
                var message = problem("option ", argument, " ignored: ")
                spec.name.withUTF8Buffer { message.append(contentsOf: $0) }
                message.append(UInt8(ascii: " "))
                message.append(contentsOf: error.requirementBytes)
                problems.append(message)
            }
        }
        return (settings, problems)
    }

    /// Applies settings in order (a later one overrides an earlier one).
    public mutating func apply(_ settings: [OptionSetting]) {
        for setting in settings { apply(setting) }
    }

    /// Applies one checked setting. One case per key and no `default:`, so a new key does not compile until it
    /// is applied here. A value of the wrong shape for its key cannot come out of `OptionSetting.parse`; it
    /// would change nothing.
    public mutating func apply(_ setting: OptionSetting) {
        let value = setting.value
        switch setting.key {
        case .conf: if case .bytes(let path) = value { confPath = path }
        case .store: if case .bytes(let path) = value { storePath = path }
        case .state: if case .bytes(let path) = value { stateDirectory = path }
        case .layout: if case .layout(let chosen) = value { layout = chosen }
        case .minlen: if case .number(let number) = value { minimumLength = Int(truncatingIfNeeded: number) }
        case .deny: if case .number(let number) = value { throttle.deny = Int(truncatingIfNeeded: number) }
        case .unlockTime: if case .number(let number) = value { throttle.unlockTime = number }
        case .lockAfter: if case .number(let number) = value { throttle.lockAfter = Int(truncatingIfNeeded: number) }
        case .cost: if case .number(let number) = value { cost = Int(truncatingIfNeeded: number) }
        case .strength:
            if case .number(let number) = value { strength = StrengthRules(level: Int(truncatingIfNeeded: number)) }
        case .selfEnroll: if case .yes(let allowed) = value { selfEnroll = allowed }
        case .tpm: if case .tpmMode(let mode) = value { tpmMode = mode }
        case .tpmTCTI: if case .bytes(let tcti) = value { tpmTCTI = tcti }
        case .quietServices: if case .names(let names) = value { quietServices = names }
        case .nullok: if value == .on { nullok = true }
        case .showGrid: if value == .on { showGrid = true }
        case .prompt: if case .bytes(let text) = value { prompt = text }
        case .forwardPass: if value == .on { forwardPass = true }
        case .forwardNonPattern: if value == .on { forwardNonPattern = true }
        case .emptyFails: if value == .on { emptyFails = true }
        case .allowRemote: if value == .on { allowRemote = true }
        case .resetOnSuccess: if value == .on { resetOnSuccess = true }
        case .debug: if value == .on { debug = true }
        }
    }

    /// The current value of `key`, in the table's terms (a flag reads as `.yes`), so code that walks the
    /// table (the fuzz target, patternctl) can check or print every setting without a switch of its own.
    public func value(of key: OptionKey) -> OptionValue {
        switch key {
        case .conf: return .bytes(confPath)
        case .store: return .bytes(storePath)
        case .state: return .bytes(stateDirectory)
        case .layout: return .layout(layout)
        case .minlen: return .number(Int64(minimumLength))
        case .deny: return .number(Int64(throttle.deny))
        case .unlockTime: return .number(throttle.unlockTime)
        case .lockAfter: return .number(Int64(throttle.lockAfter))
        case .cost: return .number(Int64(cost))
        case .strength: return .number(Int64(strength.rawValue))
        case .selfEnroll: return .yes(selfEnroll)
        case .tpm: return .tpmMode(tpmMode)
        case .tpmTCTI: return .bytes(tpmTCTI)
        case .quietServices: return .names(quietServices)
        case .nullok: return .yes(nullok)
        case .showGrid: return .yes(showGrid)
        case .prompt: return .bytes(prompt)
        case .forwardPass: return .yes(forwardPass)
        case .forwardNonPattern: return .yes(forwardNonPattern)
        case .emptyFails: return .yes(emptyFails)
        case .allowRemote: return .yes(allowRemote)
        case .resetOnSuccess: return .yes(resetOnSuccess)
        case .debug: return .yes(debug)
        }
    }

    /// "before" + the offending argument (quoted, capped, non-printables as '?') + "after".
    /// Sanitised because it ends up in syslog.
    static func problem(_ before: StaticString, _ argument: [UInt8], _ after: StaticString) -> [UInt8] {
        var message: [UInt8] = []
        before.withUTF8Buffer { message.append(contentsOf: $0) }
        message.append(UInt8(ascii: "\""))
        message.append(contentsOf: TextCodec.printable(argument, limit: maximumQuotedBytes))
        message.append(UInt8(ascii: "\""))
        after.withUTF8Buffer { message.append(contentsOf: $0) }
        return message
    }
}
