import PatternCore

/// `patternctl list`: every enrolled user with the facts of status, one line each.
struct ListCommand: Subcommand {
    static let name = "list"
    static let options: [OptionSpec] = []
    static var help: String { Help.list }
    static let needsRoot = true

    let global: GlobalOptions

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        _ = try arguments.operands([], required: 0)
        self.global = global
    }

    func run() -> ExitStatus {
        let records: [StoreRecord]
        do {
            records = try StoreAccess.records(global)
        } catch {
            Output.error("cannot read the pattern store \(StoreAccess.describe(global)): \(error.message)")
            return .failure
        }
        let now = Timestamp.now()
        var rows: [[String]] = [["USER", "SET", "COST", "FAILURES", "LOCKED"]]
        var status = ExitStatus.success
        for record in records {
            let name = String(decoding: record.user, as: UTF8.self)
            do {
                let facts = try UserFacts(user: name, record: record, throttle: global.throttleStore,
                                          settings: global.throttle, now: now)
                rows.append([name, facts.setAt, facts.cost, "\(facts.state.failures)", facts.locked])
            } catch {
                Output.error("cannot read the throttle state of \(name): \(error.message)")
                rows.append([name, Timestamp.format(record.setAt), record.cost.map { "\($0)" } ?? "-", "?", "?"])
                status = .failure
            }
        }
        Output.write(Table.render(rows))
        return status
    }
}
