import PatternCore

/// `patternctl prune`: remove every pattern whose account is gone: the record carries a uid that the name no
/// longer has (deleted, perhaps re-created with a new uid), or its name has no account at all. The module
/// refuses such records already; pruning cleans them up so a new account of that name starts without one.
struct PruneCommand: Subcommand {
    static let name = "prune"
    static let operands = ""
    static var about: String {
        localized(
            """
            Remove every pattern whose account is gone: a pattern belongs to the
            account (uid) it was set for, and the module refuses it once that name
            has another uid or no account. 'list' shows such patterns as
            "mismatch". With a TPM present it also deletes the TPM indexes no
            pattern names (left by an enrolment that was killed). Needs root.
            """)
    }
    static var summary: String { localized("remove the patterns of deleted accounts") }
    static let needsRoot = true

    let global: GlobalOptions

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        _ = try arguments.operands([], required: 0)
        self.global = global
    }

    func run() -> ExitStatus {
        do {
            var doomed: [StoreRecord] = []
            for record in try StoreAccess.records(global) {
                switch UserFacts.binding(of: record) {
                case .mismatch:
                    doomed.append(record)
                case .unbound where (try? Account.uid(of: record.user)) == .some(nil):
                    doomed.append(record)
                default:
                    break
                }
            }
            if doomed.isEmpty {
                Output.line(localized("Every pattern belongs to an existing account; nothing was changed."))
                return pruneTPM()
            }
            var removed = 0
            for record in doomed {
                // Only if it is still the same line: a pattern set for the new account meanwhile stays.
                guard try global.store.record(for: record.user) == record else { continue }
                guard try global.store.remove(user: record.user) else { continue }
                removed += 1
                let facts = UserFacts.binding(of: record)
                let name = String(decoding: record.user, as: UTF8.self)
                switch facts {
                case .mismatch(let recorded, .some(let current)):
                    Output.line(
                        localized(
                            "Removed the pattern of %s (set for uid %s; the account now has uid %s).", name,
                            "\(recorded)", "\(current)"))
                case .mismatch(let recorded, nil):
                    Output.line(
                        localized("Removed the pattern of %s (set for uid %s; no such account).", name, "\(recorded)"))
                default:
                    Output.line(localized("Removed the pattern of %s (no such account).", name))
                }
            }
            if removed != doomed.count {
                Output.error(localized("%s of them had changed meanwhile and were kept", "\(doomed.count - removed)"))
            }
            return pruneTPM()
        } catch {
            Output.error(localized("could not prune %s: %s", StoreAccess.describe(global), error.message))
            return .failure
        }
    }

    /// With a TPM present and the system's store: the NV indexes in pam_pattern's range that no line names
    /// (a killed enrolment's, or those of lines removed above) are deleted by the helper's tpm-prune.
    func pruneTPM() -> ExitStatus {
        guard TPMMode.isPresent(tcti: global.settings.tpmTCTI), RootTPM.usesSystemStore(global) else { return .success }
        guard let count = RootTPM.prune() else { return .failure }
        if count > 0 {
            Output.line(
                localizedPlural(
                    "Deleted %s TPM index that no pattern names.", "Deleted %s TPM indexes that no pattern names.",
                    count,
                    "\(count)"))
        }
        return .success
    }
}
