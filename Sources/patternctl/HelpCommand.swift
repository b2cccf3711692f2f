/// `patternctl help [COMMAND]` and `patternctl --help`: the overview, or one command's help. It reads no
/// settings and needs no root, so main dispatches it before the other commands.
enum HelpCommand: ListedCommand {
    static let name = "help"
    static let operands = "[COMMAND]"
    static var summary: String { localized("show the help of a command") }
    static var help: String {
        HelpScreen.usage("patternctl help" + operandSuffix) + localized("Show the help of COMMAND, or the overview.")
            + "\n\n" + HelpScreen.exitStatus
    }

    /// `patternctl --help`: what patternctl is, the commands (from `Patternctl.commands`), the global options.
    static var overview: String {
        HelpScreen.usage("patternctl [OPTIONS] COMMAND [ARGS]")
            + localized(
                """
                Set, inspect and administer pam_pattern unlock patterns. A pattern is
                typed as the digits of the dots in drawing order on this grid:

                    1 2 3
                    4 5 6      the "Z" shape is 1235789
                    7 8 9
                """) + "\n\n" + localized("Commands:") + "\n"
            + HelpScreen.columns(Patternctl.commands.map { ($0.name + $0.operandSuffix, $0.summary) }) + "\n"
            + localized(
                """
                set, remove, reset, status, list and prune need root; show, bench and help do not.
                Without root, set, remove and status work on your own pattern, through
                pam_pattern_helper (the current pattern, or your password, first).
                USER defaults to the user who ran sudo (SUDO_USER), else the current user.
                """) + "\n\n" + GlobalOptions.helpSection + "\n" + HelpScreen.exitStatus + "\n"
            + localized("See patternctl(8) and pam_pattern(8).") + "\n"
    }

    /// Prints the overview, or the help of the command named in `rest`.
    static func run(_ rest: ArraySlice<String>) throws(UsageError) -> ExitStatus {
        let (parsed, _) = try ParsedArguments.parse(rest, specs: GlobalOptions.specs)
        if parsed.has("help") { Output.write(help); return .success }
        guard let topic = try parsed.operands(["COMMAND"], required: 0)[0] else {
            Output.write(overview)
            return .success
        }
        guard let command = Patternctl.commands.first(where: { $0.name == topic }) else {
            throw UsageError(message: localized("unknown command '%s'", topic))
        }
        Output.write(command.help)
        return .success
    }
}
