import PatternCore

/// Options every command accepts, before or after the command name.
///
/// They mirror the module's options (store=, state=, layout=, minlen=, deny=,
/// unlock_time=, lock_after=) so that patternctl sees the store, the layout and
/// the throttle exactly as a given pam.d line configures the module.
struct GlobalOptions {
    /// --store PATH: the pattern store (module option store=).
    var storePath: [UInt8] = PatternStore.defaultPath
    /// --state DIR: the throttle state directory (module option state=).
    var stateDirectory: [UInt8] = ThrottleStore.defaultDirectory
    /// --layout phone|numpad: how typed digits map to dots (module option layout=).
    var layout: KeypadLayout = .phone
    /// --min-length N: the shortest pattern accepted (module option minlen=).
    var minimumLength = Pattern.defaultMinimumLength
    /// --deny, --unlock-time, --lock-after: the throttle, for status and list.
    var throttle = ThrottleSettings()
    /// --help / -h was given.
    var wantsHelp = false
    /// --version was given.
    var wantsVersion = false

    /// Accepted ranges: exactly the module's, so a value pam.d accepts is accepted here.
    static let minimumLengthRange = ModuleOptions.minimumLengthRange
    static let denyRange = ModuleOptions.denyRange
    static let unlockTimeRange = Int(ModuleOptions.unlockTimeRange.lowerBound)...Int(ModuleOptions.unlockTimeRange.upperBound)
    static let lockAfterRange = ModuleOptions.lockAfterRange

    /// The option specs shared by every command.
    static let specs: [OptionSpec] = [
        .value("store"), .value("state"), .value("layout"), .value("min-length"),
        .value("deny"), .value("unlock-time"), .value("lock-after"),
        .flag("help", short: "h"), .flag("version"),
    ]

    /// Applies the global options found in `parsed`; later calls override earlier ones.
    mutating func apply(_ parsed: ParsedArguments) throws(UsageError) {
        if let path = parsed.value("store") {
            guard !path.isEmpty else { throw UsageError(message: "option '--store' needs a path") }
            storePath = Array(path.utf8)
        }
        if let directory = parsed.value("state") {
            guard !directory.isEmpty else { throw UsageError(message: "option '--state' needs a directory") }
            stateDirectory = Array(directory.utf8)
        }
        if let name = parsed.value("layout") {
            guard let chosen = KeypadLayout(optionValue: Array(name.utf8)) else {
                throw UsageError(message: "option '--layout' must be 'phone' or 'numpad', not '\(name)'")
            }
            layout = chosen
        }
        if let length = try parsed.integer("min-length", in: Self.minimumLengthRange) { minimumLength = length }
        if let deny = try parsed.integer("deny", in: Self.denyRange) { throttle.deny = deny }
        if let seconds = try parsed.integer("unlock-time", in: Self.unlockTimeRange) { throttle.unlockTime = Int64(seconds) }
        if let lockAfter = try parsed.integer("lock-after", in: Self.lockAfterRange) { throttle.lockAfter = lockAfter }
        if parsed.has("help") { wantsHelp = true }
        if parsed.has("version") { wantsVersion = true }
    }

    /// The store these options name.
    var store: PatternStore { PatternStore(path: storePath) }
    /// The throttle state directory these options name.
    var throttleStore: ThrottleStore { ThrottleStore(directory: stateDirectory) }
}
