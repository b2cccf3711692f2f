import PatternCoreEmbedded

/// What pam_pattern said, read back (the core's ModuleWords, from the words the catalogue ships in every
/// language) so the pad can say it in the person's language and keep a wait counting down. authproto_pam sets
/// only LC_CTYPE, so under xsecurelock the module speaks the msgids (English); anything that is not the
/// module's verdict on a pattern (another module's message) is shown as it came.
package enum ModuleMessage: Equatable {
    /// "Wrong pattern." with the tries left before a wait (nil: none said).
    case wrong(triesLeft: Int64?)
    /// A wait of `seconds` from when the message came; `afterWrong` when it followed a wrong pattern.
    case wait(seconds: Int64, afterWrong: Bool)
    /// The pattern is disabled until an administrator resets it.
    case disabled(afterWrong: Bool)
    /// Anything else, shown as it came.
    case other([UInt8])

    /// The module's verdict, and whether it ended with the sentence about a forgotten pattern (ForgottenPattern):
    /// the pad says the verdict in its own words and, where the module said its route (a command, for a terminal),
    /// the one that works at a locked screen (ForgottenPattern.atScreen: the password).
    static func read(_ message: [UInt8]) -> (said: ModuleMessage, route: Bool) {
        let reading = ModuleWords.read(message)
        let route = !reading.route.isEmpty
        switch reading.said {
        case .wrong(let left): return (.wrong(triesLeft: left), route)
        case .wait(let seconds): return (.wait(seconds: seconds, afterWrong: reading.afterWrong), route)
        case .disabled: return (.disabled(afterWrong: reading.afterWrong), route)
        case .other: return (.other(message), false)
        }
    }

    /// A verdict on the person's pattern (what only pam_pattern says): the stack holds a pattern for them.
    var isAboutThePattern: Bool {
        if case .other = self { return false }
        return true
    }
}
