import PatternCore

/// Sentences patternctl prints around its results (not the help texts, which
/// are in Help), in one place so they can be translated together.
enum Text {
    /// The line under a drawing: how to read it, in the person's own keys.
    static func drawingLegend(_ pattern: Pattern, layout: KeypadLayout) -> String {
        let start = pattern.keyString(layout: layout).prefix(1)
        return "Start at [\(start)]; each arrow points to the next dot."
    }
}
