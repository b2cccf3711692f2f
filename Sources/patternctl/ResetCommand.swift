import PatternCore

/// `patternctl reset USER`: clear a user's failure count, which ends any wait or disabled state.
struct ResetCommand: Subcommand {
    static let name = "reset"
    static let options: [OptionSpec] = []
    static var help: String { Help.reset }
    static let needsRoot = true

    let user: String
    let global: GlobalOptions

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        user = try arguments.operands(["USER"], required: 1)[0] ?? ""
        self.global = global
    }

    func run() -> ExitStatus {
        let throttle = global.throttleStore
        let userBytes = Array(user.utf8)
        do {
            let before = try throttle.state(for: userBytes)
            try throttle.reset(user: userBytes)
            if before.failures == 0 {
                Output.line("\(user) had no failed attempts to clear.")
            } else {
                Output.line("Cleared \(before.failures) failed attempt\(before.failures == 1 ? "" : "s") of \(user); the pattern can be used again.")
            }
            return .success
        } catch {
            Output.error("could not reset \(user): \(error.message)")
            return .failure
        }
    }
}
