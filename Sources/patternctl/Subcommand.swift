import Glibc

/// A patternctl command (set, show, ...): validates its arguments, then runs.
///
/// Shape borrowed from swift-argument-parser: parsing and validation happen in
/// init (a problem there is a usage error, exit 2) and touch nothing; run()
/// does the work and reports success (0) or refusal/failure (1).
protocol Subcommand {
    /// The word on the command line.
    static var name: String { get }
    /// The options this command accepts besides the global ones.
    static var options: [OptionSpec] { get }
    /// The text `patternctl NAME --help` prints.
    static var help: String { get }
    /// Whether the command reads or writes the store or the throttle state,
    /// which are root's alone; checked before anything is touched.
    static var needsRoot: Bool { get }
    /// Whether a user who is not root may run it for their own pattern (through pam_pattern_helper).
    static var selfService: Bool { get }
    /// Validates operands and options without touching any file.
    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError)
    /// Does the work.
    func run() -> ExitStatus
}

extension Subcommand {
    static var selfService: Bool { false }

    /// The message for a non-root run of a command that needs root.
    static var rootMessage: String {
        localized(
            "'patternctl %1$s' needs root: the pattern store and the throttle state are readable by root alone. Try: sudo patternctl %1$s ...",
            name)
    }
}
