import Glibc

/// A command as the overview lists it and `patternctl help COMMAND` shows it. Every command is one file that
/// declares these texts beside what the command does.
protocol ListedCommand {
    /// The word on the command line.
    static var name: String { get }
    /// The operands after the options, as the usage line writes them ("[USER]", "CODE"); "" for none.
    static var operands: String { get }
    /// One line for the overview's list of commands.
    static var summary: String { get }
    /// The text `patternctl help NAME` and `patternctl NAME --help` print.
    static var help: String { get }
}

extension ListedCommand {
    /// " [USER]": the operands as they follow the command or its options.
    static var operandSuffix: String { operands.isEmpty ? "" : " " + operands }
}

/// A patternctl command (set, show, ...): validates its arguments, then runs.
///
/// Shape borrowed from swift-argument-parser: parsing and validation happen in
/// init (a problem there is a usage error, exit 2) and touch nothing; run()
/// does the work and reports success (0) or refusal/failure (1).
protocol Subcommand: ListedCommand {
    /// The options this command accepts besides the global ones, each with its help.
    static var options: [OptionSpec] { get }
    /// What the command does: the paragraphs of its help between the usage line and the options.
    static var about: String { get }
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
    static var options: [OptionSpec] { [] }
    static var selfService: Bool { false }

    /// Usage, about, the options from the specs, the global options, the exit status.
    static var help: String { HelpScreen.of(self) }

    /// The message for a non-root run of a command that needs root.
    static var rootMessage: String {
        localized(
            "'patternctl %1$s' needs root: the pattern store and the throttle state are readable by root alone. Try: sudo patternctl %1$s ...",
            name)
    }
}
