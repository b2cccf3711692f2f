import PatternCore

/// `patternctl show CODE`: canonical digits, drawing and strength of a pattern.
/// Needs no root and no store: it only applies the core's rules.
struct ShowCommand: Subcommand {
    static let name = "show"
    static let operands = "CODE"
    static var about: String {
        localized(
            """
            Show the canonical digits of the pattern CODE (dots passed over are added:
            1379 is 1235789), its drawing, and whether it is weak and why. CODE "-"
            reads the pattern from standard input (with echo off on a terminal), which
            keeps it out of the shell history. Needs no root and no store. Exits 1 with
            the reason when CODE is not a valid pattern.
            """)
    }
    static var summary: String { localized("show a pattern's canonical digits, drawing and strength") }
    static let options: [OptionSpec] = DrawingChoice.specs
    static let needsRoot = false

    /// The typed code, or nil for "-" (read it from stdin, echo off on a terminal).
    let code: String?
    let style: DrawingStyle
    let global: GlobalOptions

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        let given = try arguments.operands(["CODE"], required: 1)[0]
        code = given == "-" ? nil : given
        style = try DrawingChoice.style(from: arguments)
        self.global = global
    }

    func run() -> ExitStatus {
        var input: [UInt8]
        if let code {
            input = Array(code.utf8)
        } else {
            let line =
                Terminal.inputIsTerminal ? Terminal.readSecret(prompt: localized("Pattern: ")) : Terminal.readLine()
            input = line ?? []
        }
        defer { Terminal.wipe(&input) }
        let pattern: Pattern
        do {
            pattern = try Pattern.parse(input, layout: global.layout, minimumLength: global.minimumLength)
        } catch {
            Output.error(error.message(layout: global.layout))
            return .failure
        }
        // The person's own keys: with --layout numpad, numpad digits.
        Output.line("canonical: \(pattern.keyString(layout: global.layout))")
        Output.write(PatternDrawing.render(pattern, style: style, layout: global.layout))
        Output.line(DrawingChoice.legend(pattern, layout: global.layout))
        if let weakness = pattern.weakness(minimumLength: global.minimumLength, rules: global.settings.strength) {
            Output.line("strength: weak (\(weakness.said))")
        } else {
            Output.line("strength: ok")
        }
        return .success
    }
}
