import PatternCoreEmbedded

/// The settings the helper obeys: the system's, never the caller's (module arguments do not reach it).
enum HelperConfiguration {
    static func load() -> ModuleOptions {
        return ModuleOptions()
    }
}
