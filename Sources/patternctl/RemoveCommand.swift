import Glibc
import PatternCore

/// `patternctl remove USER`: delete a user's pattern from the store.
struct RemoveCommand: Subcommand {
    static let name = "remove"
    static let operands = "USER"
    static var about: String {
        localized(
            """
            Delete the unlock pattern of USER from the store. USER then cannot use a
            pattern until one is set again. Needs root, except for your own pattern
            (patternctl remove, without USER): your current pattern first.
            """)
    }
    static var summary: String { localized("delete a user's pattern") }
    static let needsRoot = true
    static let selfService = true

    /// Root must name USER; a user removing their own pattern may leave it out.
    let user: String
    let global: GlobalOptions

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        user = try arguments.operands(["USER"], required: geteuid() == 0 ? 1 : 0)[0] ?? ""
        self.global = global
    }

    func run() -> ExitStatus {
        if geteuid() != 0 {
            guard
                let own = OwnPattern.caller(
                    requested: user.isEmpty ? nil : user, command: "remove",
                    global: global, rootOnly: [])
            else { return .failure }
            return OwnPattern.remove(user: own, global: global)
        }
        // No user-database check: the entry of a deleted account must stay removable.
        do {
            // Checked first so that removing from a store that does not exist yet creates nothing.
            let record = try StoreAccess.record(for: user, global)
            // Held by the TPM: the helper removes the line, then the index (patternctl never talks to the TPM).
            if record?.tpmRecord != nil && RootTPM.usesSystemStore(global) {
                guard RootTPM.remove(user: user) else { return .failure }
                Output.line(localized("Removed the pattern of %s and its TPM index.", user))
                return forgetFailures(of: user)
            }
            if record != nil, try global.store.remove(user: Array(user.utf8)) {
                Output.line(localized("Removed the pattern of %s.", user))
                guard forgetFailures(of: user) == .success else { return .failure }
                if record?.tpmRecord != nil {
                    Output.error(
                        localized(
                            "its TPM index stays defined: only patterns of the system's store are removed from the TPM")
                    )
                }
                return .success
            }
            Output.error(localized("%s has no pattern; nothing was changed", user))
            return .failure
        } catch {
            Output.error(
                localized(
                    "could not remove the pattern of %s from %s: %s", user, StoreAccess.describe(global), error.message)
            )
            return .failure
        }
    }

    /// A removed pattern's failures are not the next one's: its count and lock go with it (as a user's own
    /// remove does), so status tells nothing of a pattern that is gone.
    private func forgetFailures(of user: String) -> ExitStatus {
        do {
            try global.throttleStore.reset(user: Array(user.utf8))
        } catch {
            Output.error(
                localized("the pattern was removed, but the old failure count could not be cleared: %s", error.message))
            return .failure
        }
        return .success
    }
}
