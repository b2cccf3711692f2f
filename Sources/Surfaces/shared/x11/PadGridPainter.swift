import CPatternPad
import PatternCoreEmbedded

/// The nine dots and the drawn trail, as the lock screen and the drawing window (pattern-draw) both show them:
/// lit dots ringed in the trail's colour, the trail from dot to dot and on to its loose end (the pointer).
enum PadGridPainter {
    /// How far sideways a short drawing's shake puts the grid at `now`: it fades out over PadSession.shakeMs.
    static func shakeOffset(start: Int64, until: Int64, layout: PadLayout, now: Int64) -> Int32 {
        guard until > now else { return 0 }
        let t = now - start
        let amplitude = Int64(layout.spacing / 6) * (PadSession.shakeMs - t) / PadSession.shakeMs
        let phase = (t / 40) % 4
        let sign: Int64 = phase == 0 ? 1 : (phase == 2 ? -1 : 0)
        return Int32(clamping: amplitude * sign)
    }

    /// Paints on the frame begun on the current monitor. `shift` moves everything sideways (a shake); `plain` is
    /// the colour of a dot the trail has not taken; with `showTrace` false no dot is lit and no line drawn.
    static func paint(
        _ trace: PadTrace, layout: PadLayout, shift: Int32, colour: UInt32, plain: UInt32, showTrace: Bool,
        looseEnd: (x: Int32, y: Int32)?
    ) {
        let grid = layout.grid
        func at(_ dot: UInt8) -> (x: Int32, y: Int32) {
            let c = grid.center(of: dot)
            return (c.x &+ shift, c.y)
        }
        let drawn = showTrace && trace.count > 0
        if drawn {
            var previous = at(trace.dot(at: 0))
            for i in 1..<max(1, trace.count) {
                let next = at(trace.dot(at: i))
                pattern_pad_line(previous.x, previous.y, next.x, next.y, layout.trailWidth, colour)
                previous = next
            }
            if let end = looseEnd {
                pattern_pad_line(previous.x, previous.y, end.x, end.y, layout.trailWidth, colour)
            }
        }
        for dot in UInt8(1)...9 {
            let c = at(dot)
            if drawn && trace.isTaken(dot) {
                pattern_pad_ring(c.x, c.y, layout.ringRadius, 2, colour)
                pattern_pad_fill_circle(c.x, c.y, layout.litRadius, colour)
            } else {
                pattern_pad_fill_circle(c.x, c.y, layout.dotRadius, plain)
            }
        }
    }
}
