import Glibc
import PatternCore

/// Options every command accepts, before or after the command name.
///
/// The settings come from /etc/security/pam_pattern.conf (or `--conf PATH`, root only), as the module and
/// the helper read them; the options below override the file for one run, exactly as a pam.d argument
/// overrides it for one service. Each maps to a row of the core's option table (store=, state=, layout=,
/// minlen=, deny=, unlock_time=, lock_after=), so values and ranges are the module's.
struct GlobalOptions {
    /// --conf PATH: the configuration file (root only); nil for /etc/security/pam_pattern.conf.
    var confPath: [UInt8]? = nil
    /// The command-line settings, applied over the file in order.
    var overrides: [OptionSetting] = []
    /// The effective settings, after `resolve()`: defaults, the file, then the overrides.
    private(set) var settings = PatternSettings()
    /// --help / -h was given.
    var wantsHelp = false
    /// --version was given.
    var wantsVersion = false

    /// The table options patternctl accepts: their command-line spelling and help, and the row they override.
    static let tableOptions: [(spec: OptionSpec, key: OptionKey)] = [
        (
            .value(
                "store", "PATH",
                help: localized("pattern store, as store= (default %s)", pathText(PatternStore.defaultPath))),
            .store
        ),
        (
            .value(
                "state", "DIR",
                help: localized(
                    "throttle state directory, as state=\n(default %s)", pathText(ThrottleStore.defaultDirectory))),
            .state
        ),
        (
            .value(
                "layout", "phone|numpad",
                help: localized(
                    "how typed digits map to dots, as layout=\n(default phone; numpad: 7 8 9 is the top row)")),
            .layout
        ),
        (
            .value(
                "min-length", "N",
                help: localized(
                    "shortest pattern, %1$s, as minlen= (default %2$s)", range(.minlen),
                    "\(Pattern.defaultMinimumLength)")),
            .minlen
        ),
        (
            .value(
                "deny", "N",
                help: localized("failures before the first wait, as deny= (default %s)", "\(ThrottleSettings().deny)")),
            .deny
        ),
        (
            .value(
                "unlock-time", "S",
                help: localized(
                    "seconds of the first wait, as unlock_time= (default %s)", "\(ThrottleSettings().unlockTime)")),
            .unlockTime
        ),
        (
            .value(
                "lock-after", "N",
                help: localized(
                    "failures that disable the pattern, as lock_after=\n(0: never; default %s)",
                    "\(ThrottleSettings().lockAfter)")),
            .lockAfter
        ),
    ]

    /// The option specs shared by every command, in the order the help lists them.
    static let specs: [OptionSpec] =
        [.value("conf", "PATH", help: localized("another configuration file (root only)"))]
        + tableOptions.map { $0.spec }
        + [
            .flag("help", short: "h", help: localized("show help and exit")),
            .flag("version", help: localized("show the version and exit")),
        ]

    /// The section every help screen ends its options with.
    static var helpSection: String {
        localized(
            "Options for every command (the settings come from %s,\nas the module reads them; these override it for one run):",
            pathText(ConfFile.defaultPath)) + "\n" + HelpScreen.optionList(specs)
    }

    /// A default path, for the help.
    private static func pathText(_ path: [UInt8]) -> String { String(decoding: path, as: UTF8.self) }

    /// "4..9": the accepted numbers of a table option.
    private static func range(_ key: OptionKey) -> String {
        PatternOption.spec(for: key).range.map { HelpScreen.range($0) } ?? ""
    }

    /// Applies the global options found in `parsed`; later calls override earlier ones.
    mutating func apply(_ parsed: ParsedArguments) throws(UsageError) {
        if let path = parsed.value("conf") {
            guard !path.isEmpty else { throw UsageError(message: localized("option '--conf' needs a path")) }
            confPath = Array(path.utf8)
        }
        for (spec, key) in Self.tableOptions {
            let flag = spec.name
            guard let text = parsed.value(flag) else { continue }
            let row = PatternOption.spec(for: key)
            do {
                overrides.append(try OptionSetting.parse(row, value: Array(text.utf8)[...]))
            } catch {
                throw UsageError(message: Self.refusal(error, key, flag: flag, text: text))
            }
        }
        if parsed.has("help") { wantsHelp = true }
        if parsed.has("version") { wantsVersion = true }
    }

    /// Why the value of a table option is refused, in command-line words.
    private static func refusal(_ problem: OptionProblem, _ key: OptionKey, flag: String, text: String) -> String {
        if let range = PatternOption.spec(for: key).range {
            return localized(
                "option '--%s' needs a whole number from %s to %s, not '%s'", flag, "\(range.lowerBound)",
                "\(range.upperBound)", text)
        }
        switch key {
        case .store: return localized("option '--%s' needs an absolute path, not '%s'", flag, text)
        case .state: return localized("option '--%s' needs an absolute directory path, not '%s'", flag, text)
        case .layout: return localized("option '--%s' must be 'phone' or 'numpad', not '%s'", flag, text)
        // The core's requirement stays English: it is also what the module logs.
        default: return localized("option '--%s' %s, not '%s'", flag, problem.requirement, text)
        }
    }

    /// Reads the configuration file and applies the command-line settings over it. `--conf` is refused
    /// unless root runs patternctl: the file decides the throttle, so nobody else may pick their own.
    mutating func resolve() throws(ConfigurationFailure) {
        if confPath != nil && geteuid() != 0 { throw .confNeedsRoot }
        let file = ConfFile(path: confPath ?? ConfFile.defaultPath)
        var resolved = PatternSettings()
        resolved.confPath = file.path
        do {
            resolved.apply(try file.settings())
        } catch {
            throw .unusable(error.message(path: file.path))
        }
        resolved.apply(overrides)
        settings = resolved
    }

    /// The pattern store.
    var storePath: [UInt8] { settings.storePath }
    /// The throttle state directory.
    var stateDirectory: [UInt8] { settings.stateDirectory }
    /// How typed digits map to dots.
    var layout: KeypadLayout { settings.layout }
    /// The shortest pattern accepted.
    var minimumLength: Int { settings.minimumLength }
    /// The throttle, for status and list.
    var throttle: ThrottleSettings { settings.throttle }
    /// The yescrypt cost of newly set patterns.
    var cost: Int { settings.cost }
    /// The store these options name.
    var store: PatternStore { PatternStore(path: storePath) }
    /// The throttle state directory these options name.
    var throttleStore: ThrottleStore { ThrottleStore(directory: stateDirectory) }
}

/// Why the settings could not be resolved: printed, exit status 1.
enum ConfigurationFailure: Error {
    /// `--conf` given by someone other than root.
    case confNeedsRoot
    /// The file is unsafe or malformed (the message names the file and the line).
    case unusable(String)

    var message: String {
        switch self {
        case .confNeedsRoot:
            return localized("option '--conf' is for root only: the configuration file sets the throttle for everyone")
        case .unusable(let text): return localized("cannot use the configuration: %s", text)
        }
    }
}
