import PatternCoreEmbedded

/// Where things go on one monitor: the grid centred on it, sized from the monitor (or XSECURELOCK_PATTERN_SIZE),
/// the name above it, the messages and the password field below it. Monitor-local pixels.
package struct PadLayout {
    package let width: Int32
    package let height: Int32
    package let grid: PadGrid
    /// A dot's radius before it is taken.
    let dotRadius: Int32

    /// `fitted`: the spacing when none is configured (the pad: a seventh of the monitor's smaller side);
    /// `minimumDotRadius`: the drawing window's dots are drawn larger than the lock screen's.
    package init(
        width: Int32, height: Int32, spacing configured: Int32, fitted: Int32? = nil, minimumDotRadius: Int32 = 4
    ) {
        self.width = width
        self.height = height
        let spacing = configured > 0 ? configured : max(48, min(160, fitted ?? min(width, height) / 7))
        // Android's hit area is about 0.6 of a cell; the radius is half of that.
        grid = PadGrid(
            centerX: width / 2, centerY: height / 2 - spacing / 3, spacing: spacing, hitRadius: spacing * 3 / 10)
        dotRadius = max(minimumDotRadius, spacing / 14)
    }

    var spacing: Int32 { grid.spacing }
    var litRadius: Int32 { max(8, spacing / 7) }
    var ringRadius: Int32 { max(12, spacing * 3 / 10) }
    var trailWidth: Int32 { max(3, spacing / 16) }
    var textSize: Int32 { max(14, spacing / 6) }
    var nameSize: Int32 { max(18, spacing / 4) }

    /// Baseline of the user's name.
    var nameY: Int32 { grid.centerY - spacing * 3 / 2 - spacing * 2 / 3 }
    /// Baseline of the first message line.
    var messageY: Int32 { grid.centerY + spacing * 3 / 2 + spacing * 3 / 4 }
    var lineHeight: Int32 { textSize * 3 / 2 }
    /// The widest a text line may be.
    var textWidth: Int32 { max(200, width * 4 / 5) }
}
