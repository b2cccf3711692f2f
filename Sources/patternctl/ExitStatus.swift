/// How patternctl ends; documented in the help text and patternctl(8).
enum ExitStatus: Int32 {
    /// The command did what was asked.
    case success = 0
    /// The command was understood but refused or failed (weak pattern, no root, unsafe store, ...).
    case failure = 1
    /// The command line itself was wrong (unknown option, missing operand, bad value).
    case usage = 2
}
