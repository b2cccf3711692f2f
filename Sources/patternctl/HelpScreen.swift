/// How a help screen is laid out: the usage line, what the command does, its options, the options of every
/// command and the exit status. The words come from the command's own file and from the option specs; this
/// file only arranges them.
enum HelpScreen {
    /// `patternctl COMMAND --help`: the screen of a command that takes the global options.
    static func of(_ command: any Subcommand.Type) -> String {
        var text = usage("patternctl \(command.name) [OPTIONS]" + command.operandSuffix) + command.about + "\n\n"
        if !command.options.isEmpty {
            text += localized("Options:") + "\n" + optionList(command.options) + "\n"
        }
        return text + GlobalOptions.helpSection + "\n" + exitStatus
    }

    /// "Usage: SYNOPSIS" and the empty line under it.
    static func usage(_ synopsis: String) -> String {
        localized("Usage: %s", synopsis) + "\n\n"
    }

    /// The exit statuses, the last section of every screen.
    static var exitStatus: String {
        localized("Exit status: 0 success, 1 refused or failed, 2 usage error.") + "\n"
    }

    /// One line per option ("  --store PATH   pattern store, ..."), from the specs.
    static func optionList(_ specs: [OptionSpec]) -> String {
        columns(specs.map { ($0.label, $0.help) })
    }

    /// Two columns, indented by two spaces: the labels, then the texts, aligned two spaces after the longest
    /// label (at least 16 wide). A text's further lines ("\n") start under its first.
    static func columns(_ rows: [(label: String, text: String)]) -> String {
        let width = max(16, (rows.map { $0.label.count }.max() ?? 0) + 2)
        let indent = String(repeating: " ", count: 2 + width)
        var text = ""
        for (label, help) in rows {
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
            text += "  " + label + String(repeating: " ", count: width - label.count) + (lines.first ?? "") + "\n"
            for line in lines.dropFirst() { text += indent + line + "\n" }
        }
        return text
    }

    /// "4..9": a range as the help writes it.
    static func range<Bound: BinaryInteger>(_ range: ClosedRange<Bound>) -> String {
        "\(range.lowerBound)..\(range.upperBound)"
    }
}
