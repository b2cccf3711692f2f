import Glibc
import PatternCore

/// The command line front door: finds the command, checks root, runs it.
enum Patternctl {
    /// The version printed by --version.
    static let version = "patternctl (pam_pattern) 0.2.0"

    /// Every command, in the order the overview lists them.
    static var commands: [any ListedCommand.Type] {
        [
            SetCommand.self, RemoveCommand.self, ResetCommand.self, StatusCommand.self, ListCommand.self,
            PruneCommand.self, ShowCommand.self, BenchCommand.self, HelpCommand.self,
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
                if global.wantsVersion { Output.line(version); return .success }
                if global.wantsHelp { Output.write(HelpCommand.overview); return .success }
                throw UsageError(message: localized("missing command"))
            }
            if name == HelpCommand.name {
                return try HelpCommand.run(rest)
            }
            guard
                let command = commands.lazy.compactMap({ $0 as? any Subcommand.Type }).first(where: { $0.name == name })
            else {
                throw UsageError(message: localized("unknown command '%s'", name))
            }
            hint = "patternctl \(name) --help"
            let (parsed, _) = try ParsedArguments.parse(rest, specs: GlobalOptions.specs + command.options)
            try global.apply(parsed)
            if global.wantsHelp { Output.write(command.help); return .success }
            if global.wantsVersion { Output.line(version); return .success }
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
}

Language.setUp()
exit(Patternctl.run(Array(CommandLine.arguments.dropFirst())).rawValue)
