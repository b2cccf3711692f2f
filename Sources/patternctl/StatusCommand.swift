import Glibc
import PatternCore

/// `patternctl status [USER]`: one user's enrolment, failures and lock, one fact per line.
struct StatusCommand: Subcommand {
    static let name = "status"
    static let operands = "[USER]"
    static var about: String {
        localized(
            """
            Show whether USER (default: the user who ran sudo, else the current user)
            has a pattern, and the throttle as the module sees it. Needs root, except
            for your own status. Prints:

              user: NAME
              enrolled: yes|no          no: then a line "pattern: none yet ..."
              set: DATE                 your local time (TZ), like 2026-12-06
                                        14:03:05 CET; --json says UTC, like
                                        2026-12-06T13:03:05Z
              hash: yescrypt with M MiB of memory per check (cost N)
                                        how slow each guess is, for anyone
                                        ("held by the TPM ...")
              failures: N wrong tries since the last success (and the limits)
                                        the one count the throttle keeps
              locked: no|until DATE (N s)|disabled
              recent failed attempts:   only while failures is not 0
                DATE  wrong pattern at PROGRAM on TTY [from HOST]
                                        the attempts counted now, oldest
                                        first (at most 16)

            Without a pattern only user, enrolled, pattern, failures and locked.

            deny, unlock_time and lock_after come from the configuration file, as
            the module reads them; --deny, --unlock-time and --lock-after override
            them, e.g. for a service whose pam.d line sets its own.
            """)
    }
    static var summary: String { localized("show enrolment, failures and lock of one user") }
    static let options: [OptionSpec] = [
        .flag(
            "json",
            help: localized(
                "print one JSON object instead: user, enrolled (true|false),\nset (DATE|null), cost (N|null), failures, locked\n(\"no\"|\"wait\"|\"disabled\"), locked_until (DATE|null),\nwait_seconds (N|null); see patternctl(8)"
            ))
    ]
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
            return OwnPattern.status(user: own, json: json, global: global)
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
        let lines = StatusLines.lines(
            user: facts.user, setAt: facts.record?.setAt, cost: facts.record?.cost, failures: facts.state.failures,
            verdict: facts.verdict, now: facts.now, throttle: global.throttle)
        for line in lines { Output.line(line) }
        // Only said when the record is not simply bound to this account (unbound, or a MISMATCH).
        if facts.accountFlagged { Output.line("account: \(facts.account)") }
        // The failures counted now, of this pattern only: none from before it was set, none without one.
        let since = facts.record?.setAt
        let attempts = AttemptReport.lines(
            for: name, since: since, failures: facts.state.failures, throttle: global.throttleStore)
        for line in attempts { Output.line(line) }
        return .success
    }
}
