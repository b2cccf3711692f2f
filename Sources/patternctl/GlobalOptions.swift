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
    private(set) var settings = ModuleOptions()
    /// --help / -h was given.
    var wantsHelp = false
    /// --version was given.
    var wantsVersion = false

    /// Command-line spelling of the table options patternctl accepts.
    static let tableOptions: [(flag: String, key: OptionKey)] = [
        ("store", .store), ("state", .state), ("layout", .layout), ("min-length", .minlen),
        ("deny", .deny), ("unlock-time", .unlockTime), ("lock-after", .lockAfter),
    ]

    /// The option specs shared by every command.
    static let specs: [OptionSpec] =
        [.value("conf")] + tableOptions.map { .value($0.flag) }
        + [.flag("help", short: "h"), .flag("version")]

    /// Applies the global options found in `parsed`; later calls override earlier ones.
    mutating func apply(_ parsed: ParsedArguments) throws(UsageError) {
        if let path = parsed.value("conf") {
            guard !path.isEmpty else { throw UsageError(message: "option '--conf' needs a path") }
            confPath = Array(path.utf8)
        }
        for (flag, key) in Self.tableOptions {
            guard let text = parsed.value(flag) else { continue }
            let row = PatternOption.spec(for: key)
            do {
                overrides.append(try OptionSetting.parse(row, value: Array(text.utf8)[...]))
            } catch {
                throw UsageError(message: "option '--\(flag)' \(Self.requirement(error, key)), not '\(text)'")
            }
        }
        if parsed.has("help") { wantsHelp = true }
        if parsed.has("version") { wantsVersion = true }
    }

    /// The table's requirement, in command-line words.
    private static func requirement(_ problem: OptionProblem, _ key: OptionKey) -> String {
        if let range = PatternOption.spec(for: key).range {
            return "needs a whole number from \(range.lowerBound) to \(range.upperBound)"
        }
        switch key {
        case .store: return "needs an absolute path"
        case .state: return "needs an absolute directory path"
        case .layout: return "must be 'phone' or 'numpad'"
        default: return problem.requirement
        }
    }

    /// Reads the configuration file and applies the command-line settings over it. `--conf` is refused
    /// unless root runs patternctl: the file decides the throttle, so nobody else may pick their own.
    mutating func resolve() throws(ConfigurationFailure) {
        if confPath != nil && geteuid() != 0 { throw .confNeedsRoot }
        let file = ConfFile(path: confPath ?? ConfFile.defaultPath)
        var resolved = ModuleOptions()
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
            return "option '--conf' is for root only: the configuration file sets the throttle for everyone"
        case .unusable(let text): return "cannot use the configuration: \(text)"
        }
    }
}
