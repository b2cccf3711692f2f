import PatternCore

/// How the commands read the store: a store directory that does not exist yet
/// (a fresh installation) means nobody is enrolled, said once on stderr; every
/// other problem (unsafe, unreadable, corrupt) is an error.
enum StoreAccess {
    /// The store path as text, for messages.
    static func describe(_ global: GlobalOptions) -> String {
        String(decoding: global.storePath, as: UTF8.self)
    }

    /// Every record, or [] (with a note) when the store directory does not exist.
    static func records(_ global: GlobalOptions) throws(StoreError) -> [StoreRecord] {
        do throws(StoreError) {
            return try global.store.load()
        } catch .missingDirectory {
            Output.error(
                localized("note: the directory of %s does not exist yet; nobody is enrolled", describe(global)))
            return []
        }
    }

    /// The user's record, or nil (with a note) when the store directory does not exist.
    static func record(for user: String, _ global: GlobalOptions) throws(StoreError) -> StoreRecord? {
        do throws(StoreError) {
            return try global.store.record(for: Array(user.utf8))
        } catch .missingDirectory {
            Output.error(
                localized("note: the directory of %s does not exist yet; nobody is enrolled", describe(global)))
            return nil
        }
    }
}
