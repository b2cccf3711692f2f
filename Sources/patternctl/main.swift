import Glibc
import PatternCore

/// The command line front door: finds the command, checks root, runs it.
enum Patternctl {
    /// The commands, in the order the overview lists them.
    static var commands: [any Subcommand.Type] {
        [
            SetCommand.self, RemoveCommand.self, ResetCommand.self, StatusCommand.self,
            ListCommand.self, PruneCommand.self, ShowCommand.self, BenchCommand.self,
        ]
    }

    /// Parses the command line, checks root where needed, runs the command.
    /// Every usage error ends here with exit status 2.
    static func run(_ arguments: [String]) -> ExitStatus {
        var hint = "patternctl --help"
        do throws(UsageError) {
            var global = GlobalOptions()
            let (leading, rest) = try ParsedArguments.parse(
                arguments[...], specs: GlobalOptions.specs,
                stopAtFirstOperand: true)
            try global.apply(leading)
            guard let name = leading.operands.first else {
                if global.wantsVersion { Output.line(Help.version); return .success }
                if global.wantsHelp { Output.write(Help.overview); return .success }
                throw UsageError(message: "missing command")
            }
            if name == "help" {
                return try runHelp(rest)
            }
            guard let command = commands.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown command '\(name)'")
            }
            hint = "patternctl \(name) --help"
            let (parsed, _) = try ParsedArguments.parse(rest, specs: GlobalOptions.specs + command.options)
            try global.apply(parsed)
            if global.wantsHelp { Output.write(command.help); return .success }
            if global.wantsVersion { Output.line(Help.version); return .success }
            // Before anything is read or written: the store and the state are root's alone.
            if command.needsRoot && !command.selfService && geteuid() != 0 {
                _ = try command.init(arguments: parsed, global: global)
                Output.error(command.rootMessage)
                return .failure
            }
            do {
                try global.resolve()
            } catch {
                Output.error(error.message)
                return .failure
            }
            let instance = try command.init(arguments: parsed, global: global)
            return instance.run()
        } catch {
            Output.error(error.message)
            Output.errorText(localized("Try '%s' for more information.", hint) + "\n")
            return .usage
        }
    }

    /// `patternctl help [COMMAND]`.
    static func runHelp(_ rest: ArraySlice<String>) throws(UsageError) -> ExitStatus {
        let (parsed, _) = try ParsedArguments.parse(rest, specs: GlobalOptions.specs)
        if parsed.has("help") { Output.write(Help.helpCommand); return .success }
        guard let topic = try parsed.operands(["COMMAND"], required: 0)[0] else {
            Output.write(Help.overview)
            return .success
        }
        guard let command = commands.first(where: { $0.name == topic }) else {
            throw UsageError(message: "unknown command '\(topic)'")
        }
        Output.write(command.help)
        return .success
    }
}

Language.setUp()
exit(Patternctl.run(Array(CommandLine.arguments.dropFirst())).rawValue)
