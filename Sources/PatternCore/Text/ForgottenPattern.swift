/// What a person who forgot their pattern can do, said wherever a current pattern is refused (a wrong or
/// locked pattern at sudo, su, login, and in patternctl), so the way out is never only root's. With
/// self_enroll (the default) the account password sets a new one (`patternctl set --forgot`, through the
/// helper's enroll); without it only root can.
public enum ForgottenPattern {
    /// The sentence, in the person's language.
    public static func route(selfEnroll: Bool) -> [UInt8] {
        selfEnroll
            ? MessageCatalogue.localized(
                "Forgot your pattern? Set a new one with your password: patternctl set --forgot")
            : MessageCatalogue.localized("Forgot your pattern? Only an administrator can set a new one.")
    }

    /// The sentence at a lock or login screen, where nobody can run a command: the password, which every shipped
    /// configuration offers after the pattern, is the way out there (the surfaces say it in place of `route`, in
    /// the language the module spoke: ModuleWords.screenRoute).
    public static func atScreen() -> [UInt8] {
        MessageCatalogue.localized("Forgot your pattern? Use your password.")
    }

    /// How every route sentence begins in the msgids (what a reader of the module's English words cuts off).
    public static let lead: StaticString = "Forgot your pattern?"
}
