import PatternCore

/// --ascii / --unicode: how drawings are printed.
///
/// Default: Unicode box drawing on a UTF-8 terminal, plain ASCII otherwise
/// (pipes, logs, tests), so output that is saved never depends on the locale.
enum DrawingChoice {
    /// The two flags, for commands that draw.
    static let specs: [OptionSpec] = [
        .flag("ascii", help: localized("draw with ASCII characters")),
        .flag("unicode", help: localized("draw with box-drawing characters (default on a UTF-8 terminal)")),
    ]

    /// The line under a drawing: how to read it, in the person's own keys.
    static func legend(_ pattern: Pattern, layout: KeypadLayout) -> String {
        let start = String(pattern.keyString(layout: layout).prefix(1))
        return localized("Start at [%s]; each arrow points to the next dot.", start)
    }

    /// The style the flags ask for, or the automatic choice.
    static func style(from arguments: ParsedArguments) throws(UsageError) -> DrawingStyle {
        switch (arguments.has("ascii"), arguments.has("unicode")) {
        case (true, true): throw UsageError(message: localized("options '--ascii' and '--unicode' exclude each other"))
        case (true, false): return .ascii
        case (false, true): return .unicode
        case (false, false): return Terminal.outputSupportsUnicode ? .unicode : .ascii
        }
    }
}
