import Glibc
import PatternCore

/// `patternctl status [USER]`: one user's enrolment, failures and lock, one fact per line.
struct StatusCommand: Subcommand {
    static let name = "status"
    static let options: [OptionSpec] = [.flag("json")]
    static var help: String { Help.status }
    static let needsRoot = true
    static let selfService = true

    let user: String?
    /// --json: one JSON object instead of the lines.
    let json: Bool
    let global: GlobalOptions

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        user = try arguments.operands(["USER"], required: 0)[0]
        json = arguments.has("json")
        self.global = global
    }

    func run() -> ExitStatus {
        if geteuid() != 0 {
            guard let own = OwnPattern.caller(requested: user, command: "see", global: global, rootOnly: []) else {
                return .failure
            }
            return OwnPattern.status(user: own)
        }
        guard let name = user ?? UserDatabase.invokingUser() else {
            Output.error(localized("cannot tell who you are; name the user: patternctl status USER"))
            return .failure
        }
        let facts: UserFacts
        do {
            let record = try StoreAccess.record(for: name, global)
            // An enrolled user deleted from passwd is still shown, so it can be cleaned up.
            if record == nil && !UserDatabase.exists(name) {
                Output.error(localized("no such user: '%s'", name))
                return .failure
            }
            facts = try UserFacts(
                user: name, record: record, throttle: global.throttleStore,
                settings: global.throttle, now: Timestamp.now())
        } catch {
            Output.error(
                localized(
                    "cannot read the status of %s (store %s): %s", name, StoreAccess.describe(global), error.message))
            return .failure
        }
        if json {
            Output.line(facts.json.text)
            return .success
        }
        Output.line("user: \(facts.user)")
        Output.line("enrolled: \(facts.enrolled)")
        Output.line("set: \(facts.setAt)")
        Output.line("cost: \(facts.cost)")
        Output.line("failures: \(facts.state.failures)")
        Output.line("locked: \(facts.locked)")
        // Only said when the record is not simply bound to this account (unbound, or a MISMATCH).
        if facts.accountFlagged { Output.line("account: \(facts.account)") }
        for line in AttemptReport.lines(for: name, throttle: global.throttleStore) { Output.line(line) }
        return .success
    }
}
