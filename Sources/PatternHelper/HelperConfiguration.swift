import PatternCoreEmbedded

/// The settings the helper obeys: the system's, never the caller's (module arguments do not reach it).
enum HelperConfiguration {
    /// /etc/security/pam_pattern.conf and nothing else: the path is fixed, so a caller cannot pick a file with
    /// a gentler throttle. Nil (after a LOG_CRIT line naming the file and the line) when the file is unsafe or
    /// malformed: the helper then answers "unavailable", as the module fails closed in-process.
    static func load() -> PatternSettings? {
        var options = PatternSettings()
        do {
            options.apply(try ConfFile(path: ConfFile.defaultPath).settings())
        } catch {
            HelperLog.critical("configuration unusable: \(error.message(path: ConfFile.defaultPath))")
            return nil
        }
        return options
    }
}
