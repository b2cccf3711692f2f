import PatternCore

/// `patternctl reset USER`: clear a user's failure count, which ends any wait or disabled state, and repair a
/// malformed state file (never an unsafe one).
struct ResetCommand: Subcommand {
    static let name = "reset"
    static let operands = "USER"
    static var about: String {
        localized(
            """
            Clear the failed attempts of USER, which ends a wait or a disabled pattern.
            A malformed state file is repaired; an unsafe one (owner, mode, links,
            type) is refused and left as it is. Needs root.
            """)
    }
    static var summary: String { localized("clear a user's failed attempts and lock") }
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
            // A malformed record (torn or hand-edited) is what the module's log sends the admin here for:
            // it is overwritten. An unsafe file (owner, mode, links, type) is refused before parsing.
            let before: ThrottleState
            do { before = try throttle.state(for: userBytes) } catch .malformedState {
                try throttle.reset(user: userBytes)
                Output.line(
                    localized("Repaired the malformed throttle state of %s; the pattern can be used again.", user))
                return .success
            }
            try throttle.reset(user: userBytes)
            if before.failures == 0 {
                Output.line(localized("%s had no failed attempts to clear.", user))
            } else {
                Output.line(
                    localizedPlural(
                        "Cleared %s failed attempt of %s; the pattern can be used again.",
                        "Cleared %s failed attempts of %s; the pattern can be used again.",
                        before.failures, "\(before.failures)", user))
            }
            return .success
        } catch {
            Output.error(localized("could not reset %s: %s", user, error.message))
            return .failure
        }
    }
}
