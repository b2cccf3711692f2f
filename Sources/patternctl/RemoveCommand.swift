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
            if try StoreAccess.record(for: user, global) != nil, try global.store.remove(user: Array(user.utf8)) {
                Output.line(localized("Removed the pattern of %s.", user))
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
}
