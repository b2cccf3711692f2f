import PatternCore

/// `patternctl list`: every enrolled user with the facts of status, one line each.
struct ListCommand: Subcommand {
    static let name = "list"
    static let operands = ""
    static var about: String {
        localized(
            """
            Show every enrolled user, one line each, under a header line:
            USER, SET (UTC), COST, FAILURES and LOCKED, with the meaning of status.
            A pattern that does not belong to the account with its name now is
            flagged on stderr (see prune).
            Needs root.
            """)
    }
    static var summary: String { localized("show every enrolled user, one line each") }
    static let options: [OptionSpec] = [
        .flag(
            "json",
            help: localized(
                "print {\"users\": [...]} instead, one object per user with\nthe fields of 'status --json'"))
    ]
    static let needsRoot = true

    /// --json: one JSON object {"users": [...]} instead of the table.
    let json: Bool
    let global: GlobalOptions

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        _ = try arguments.operands([], required: 0)
        json = arguments.has("json")
        self.global = global
    }

    func run() -> ExitStatus {
        let records: [StoreRecord]
        do {
            records = try StoreAccess.records(global)
        } catch {
            Output.error(localized("cannot read the pattern store %s: %s", StoreAccess.describe(global), error.message))
            return .failure
        }
        let now = Timestamp.now()
        var rows: [[String]] = [["USER", "SET", "COST", "FAILURES", "LOCKED"]]
        var objects: [JSON] = []
        var status = ExitStatus.success
        for record in records {
            let name = String(decoding: record.user, as: UTF8.self)
            do {
                let facts = try UserFacts(
                    user: name, record: record, throttle: global.throttleStore,
                    settings: global.throttle, now: now)
                rows.append([name, facts.setAt, facts.cost, "\(facts.state.failures)", facts.locked])
                // A record that does not belong to the account with this name now is flagged (stderr, so the
                // table's columns stay what scripts parse).
                if facts.accountFlagged { Output.error("note: \(name): account \(facts.account)") }
                objects.append(facts.json)
            } catch {
                Output.error(localized("cannot read the throttle state of %s: %s", name, error.message))
                rows.append([name, Timestamp.local(record.setAt), record.cost.map { "\($0)" } ?? "-", "?", "?"])
                // The throttle facts are unknown: null, as "?" in the table.
                objects.append(
                    .object([
                        ("user", .string(name)), ("enrolled", .bool(true)),
                        ("set", .string(Timestamp.iso(record.setAt))),
                        ("cost", .optional(record.cost.map { Int64($0) })),
                        ("failures", .null), ("locked", .null), ("locked_until", .null), ("wait_seconds", .null),
                    ]))
                status = .failure
            }
        }
        if json {
            Output.line(JSON.object([("users", .array(objects))]).text)
            return status
        }
        Output.write(Table.render(rows))
        return status
    }
}
