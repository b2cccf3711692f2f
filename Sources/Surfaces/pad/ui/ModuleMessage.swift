import PatternCoreEmbedded

/// What pam_pattern said, read back (the core's ModuleWords, from the words the catalogue ships in every
/// language) so the pad can say it in the person's language and keep a wait counting down. authproto_pam sets
/// only LC_CTYPE, so under xsecurelock the module speaks the msgids (English); anything that is not the
/// module's verdict on a pattern (another module's message) is shown as it came.
enum ModuleMessage: Equatable {
    /// "Wrong pattern." with the tries left before a wait (nil: none said).
    case wrong(triesLeft: Int64?)
    /// A wait of `seconds` from when the message came; `afterWrong` when it followed a wrong pattern.
    case wait(seconds: Int64, afterWrong: Bool)
    /// The pattern is disabled until an administrator resets it.
    case disabled(afterWrong: Bool)
    /// Anything else, shown as it came.
    case other([UInt8])

    /// The module's verdict without the sentence about a forgotten pattern that ends it (ForgottenPattern): the
    /// pad says the verdict in its own words, and the way out is a command for after the screen is open.
    static func read(_ message: [UInt8]) -> ModuleMessage {
        let reading = ModuleWords.read(message)
        switch reading.said {
        case .wrong(let left): return .wrong(triesLeft: left)
        case .wait(let seconds): return .wait(seconds: seconds, afterWrong: reading.afterWrong)
        case .disabled: return .disabled(afterWrong: reading.afterWrong)
        case .other: return .other(message)
        }
    }
}
