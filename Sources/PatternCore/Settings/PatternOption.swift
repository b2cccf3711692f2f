/// One option of pam_pattern: its name, the kind of value it takes, where it may be given, and one line of help.
///
/// `PatternOption.table` is the single list of options, in the shape of pam_unix's `unix_args[]`. The module
/// argument parser and the configuration file parser look names up in it and check values against its kinds
/// and ranges; every range is declared here only, but for the two their owners declare (Pattern's minimum
/// length, PatternHash's cost: the core's layers point down, ARCHITECTURE.md); patternctl's flags read theirs
/// with `countRange`, messages spell them from it; the fuzz target and the man-page test
/// walk it.
///
/// A new option: a case of `OptionKey` and its row here; a property of `PatternSettings` and its case in
/// `apply` and `value(of:)` (both switches are exhaustive: the build names what is missing); its entry in
/// man/pam_pattern.8 (an argument) or man/pam_pattern.conf.5 and security/pam_pattern.conf (a conf key), and in
/// docs/reference.md, with its name in Tests/ManTests' lists by scope (that suite fails until all agree); a
/// patternctl flag, if it needs one, is a row of `GlobalOptions.tableOptions`.
public struct PatternOption: Sendable {
    /// Which setting the option changes.
    public let key: OptionKey
    /// The name on the pam.d line and in the configuration file ("unlock_time").
    public let name: StaticString
    /// What value it takes.
    public let kind: OptionKind
    /// Where it may be given.
    public let scope: OptionScope
    /// One line for people (the configuration file's comments and the man pages say the same).
    public let help: StaticString

    init(_ key: OptionKey, _ name: StaticString, _ kind: OptionKind, _ scope: OptionScope, _ help: StaticString) {
        self.key = key
        self.name = name
        self.kind = kind
        self.scope = scope
        self.help = help
    }

    /// Every option. System policy the module applies (where the files are, the throttle, the pattern rules)
    /// is `.both`: the configuration file sets it for the module, the helper and patternctl alike, and a pam.d
    /// argument may override it for one service. Policy for setting patterns (cost, self-enrolment) is `.conf`:
    /// the module never sets a pattern, so a pam.d line has nothing to say about it. How one service talks to
    /// its user (prompt, grid, nullok, forward_pass, forward_non_pattern, remote hosts, debug) is `.argument`: it
    /// belongs to that service's pam.d line. The services told nothing (`quiet_services`) are `.conf` too: their stacks reach the
    /// module through common-auth, one pam.d line shared by every service, which could not single one out.
    public static let table: [PatternOption] = [
        PatternOption(
            .conf, "conf", .path, .argument, "read this configuration file instead of /etc/security/pam_pattern.conf"),
        PatternOption(.store, "store", .path, .both, "the pattern store"),
        PatternOption(.state, "state", .path, .both, "the directory of per-user throttle state files"),
        PatternOption(
            .layout, "layout", .layout, .both,
            "how typed digits map onto the grid: phone (1 2 3 on top) or numpad (7 8 9 on top)"),
        PatternOption(
            .minlen, "minlen", .counting(Pattern.minimumLengthRange), .both, "the fewest dots a pattern may have"),
        PatternOption(
            .deny, "deny", .number(1...1000), .both,
            "the failure that starts the first wait (the ones before it are free)"),
        PatternOption(
            .unlockTime, "unlock_time", .number(1...31_536_000), .both,
            "the first wait in seconds; later waits grow from it"),
        PatternOption(
            .lockAfter, "lock_after", .number(0...100_000), .both,
            "failures after which the pattern is disabled until root resets it (0: never)"),
        PatternOption(
            .cost, "cost", .counting(PatternHash.costRange), .conf,
            "yescrypt cost of newly set patterns (2^(cost-1) MiB each)"),
        PatternOption(
            .strength, "strength", .number(0...3), .conf,
            "what setting a pattern refuses besides short ones: 0 nothing, 1 simple shapes, 2 also shapes many people chose, 3 also the likeliest patterns"
        ),
        PatternOption(
            .selfEnroll, "self_enroll", .yesNo, .conf,
            "whether a user without a pattern may set a first one after giving their password"),
        PatternOption(
            .tpm, "tpm", .tpmMode, .conf,
            "whether patterns set from now on are held by the TPM: yes, no, or auto (when one is present)"),
        PatternOption(
            .tpmTCTI, "tpm_tcti", .text(maximumBytes: PatternSettings.maximumTCTIBytes), .conf,
            "the TPM for patterns held by the TPM: device:/dev/tpmrm0 or swtpm:path=SOCKET"),
        PatternOption(
            .quietServices, "quiet_services", .serviceNames, .conf,
            "PAM services that are sent no message, only the prompt (SDDM before 0.20 loses a message before a prompt)"
        ),
        PatternOption(
            .nullok, "nullok", .flag, .argument, "a user without a pattern is skipped (PAM_IGNORE) instead of refused"),
        PatternOption(.showGrid, "show_grid", .flag, .argument, "show the empty grid before the prompt"),
        PatternOption(
            .prompt, "prompt", .text(maximumBytes: PatternSettings.maximumPromptBytes), .argument, "the prompt text"),
        PatternOption(
            .forwardPass, "forward_pass", .flag, .argument,
            "one prompt for pattern or password; a non-pattern is handed on as the password"),
        PatternOption(
            .forwardNonPattern, "forward_non_pattern", .flag, .argument,
            "as forward_pass, but a wrong pattern is told and ends there: only a non-pattern is handed on"),
        PatternOption(
            .emptyFails, "empty_fails", .flag, .argument,
            "an empty answer fails (PAM_AUTH_ERR) instead of skipping (PAM_IGNORE), for `auth required` as a second factor"
        ),
        PatternOption(
            .allowRemote, "allow_remote", .flag, .argument, "also accept a pattern when PAM_RHOST names a remote host"),
        PatternOption(
            .resetOnSuccess, "reset_on_success", .flag, .argument,
            "ask nothing, clear the user's pattern failures: for a line only a successful authentication reaches"
        ),
        PatternOption(.debug, "debug", .flag, .argument, "log each decision (never the pattern) at LOG_DEBUG"),
    ]

    /// The row for `key` (every key has exactly one; the tests check it).
    public static func spec(for key: OptionKey) -> PatternOption {
        for spec in table where spec.key == key { return spec }
        // Unreachable while the table has a row per key; a flag row changes nothing if it ever happens.
        return PatternOption(key, "", .flag, .argument, "")
    }

    /// The row whose name is `name`, if any.
    public static func named(_ name: ArraySlice<UInt8>) -> PatternOption? {
        for spec in table where spec.nameBytes.elementsEqual(name) { return spec }
        return nil
    }

    /// The name as bytes.
    public var nameBytes: [UInt8] {
        name.withUTF8Buffer { Array($0) }
    }

    /// The accepted numbers of a `.number` option (nil for other kinds).
    public var range: ClosedRange<Int64>? {
        if case .number(let range) = kind { return range }
        return nil
    }

    /// The accepted numbers of the `.number` option `key`, as Int: how the code that applies a rule reads its
    /// range from this one declaration.
    public static func countRange(_ key: OptionKey) -> ClosedRange<Int> {
        let range = spec(for: key).range ?? 0...0
        return Int(truncatingIfNeeded: range.lowerBound)...Int(truncatingIfNeeded: range.upperBound)
    }

    /// Whether the configuration file may set it.
    public var isConfKey: Bool { scope != .argument }

    /// Whether a pam.d line may give it.
    public var isArgument: Bool { scope != .conf }
}

/// The settings pam_pattern knows, one per row of `PatternOption.table`.
public enum OptionKey: Equatable, Sendable, CaseIterable {
    case conf, store, state, layout, minlen, deny, unlockTime, lockAfter, cost, strength, selfEnroll, tpm, tpmTCTI
    case quietServices
    case nullok, showGrid, prompt, forwardPass, forwardNonPattern, emptyFails, allowRemote, resetOnSuccess, debug
}

/// What an option's value looks like.
public enum OptionKind: Equatable, Sendable {
    /// No value: present means on.
    case flag
    /// Plain ASCII decimal digits within the range.
    case number(ClosedRange<Int64>)
    /// An absolute path, at most PATH_MAX - 1 bytes, not "/".
    case path
    /// `phone` or `numpad`.
    case layout
    /// Printable bytes, at most this many.
    case text(maximumBytes: Int)
    /// `yes` or `no`.
    case yesNo
    /// `yes`, `no` or `auto` (TPMMode).
    case tpmMode
    /// PAM service names separated by commas or spaces (ServiceNames).
    case serviceNames

    /// `.number` over a range another layer declares as Int (Pattern's minimum length, PatternHash's cost).
    static func counting(_ range: ClosedRange<Int>) -> OptionKind {
        .number(Int64(range.lowerBound)...Int64(range.upperBound))
    }
}

/// Where an option may be given.
public enum OptionScope: Equatable, Sendable {
    /// Only on the module's pam.d line.
    case argument
    /// Only in the configuration file.
    case conf
    /// In /etc/security/pam_pattern.conf and on the pam.d line (which overrides the file for that service).
    case both
}

extension MessageBytes {
    /// An option's name from the table.
    mutating func add(option key: OptionKey) {
        add(PatternOption.spec(for: key).name)
    }
}
