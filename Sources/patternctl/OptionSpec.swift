/// One option a command accepts, declared once: its name, its value and its help. The parser reads the name
/// and whether a value follows; the "Options" sections of the help screens are made from the same specs, so
/// an option cannot be accepted without being described, nor described without being accepted.
struct OptionSpec {
    /// The long name without the dashes ("store").
    let name: String
    /// The value's placeholder in the help ("PATH", "N", "phone|numpad"); nil for a plain flag.
    let argument: String?
    /// A one-letter alias ("h" for --help), if any.
    var short: Character? = nil
    /// What the option does, in the user's language; each "\n" starts a line under the first.
    let help: String

    /// Whether the option takes a value: `--name VALUE` or `--name=VALUE`.
    var takesValue: Bool { argument != nil }

    /// How the help names the option: "--store PATH", "-h, --help".
    var label: String {
        let long = "--" + name + (argument.map { " " + $0 } ?? "")
        return short.map { "-\($0), " + long } ?? long
    }

    static func value(_ name: String, _ argument: String, help: String) -> OptionSpec {
        OptionSpec(name: name, argument: argument, help: help)
    }

    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, argument: nil, short: short, help: help)
    }
}
