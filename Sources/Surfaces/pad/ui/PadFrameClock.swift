import PatternCoreEmbedded

/// What makes a lock screen's frame stale with no event of its own: the red of a wrong drawing or the shake ending,
/// a run starting or ending, the trace growing, and the countdown's next second. The pad's loop and the Wayland
/// locker's ask it once a turn, after their events.
package struct PadFrameClock {
    var lastSecond: Int64 = -1
    var lastVisible: (error: Bool, shake: Bool, awaiting: Bool, dots: Int) = (false, false, false, 0)

    package init() {}

    /// Whether the screen shows something else than at the last call (a shake moves on every frame).
    package mutating func changed(_ session: PadSession, now: Int64) -> Bool {
        var changed = false
        let visible = (
            session.errorUntil > now, session.shakeUntil > now || session.tooShortUntil > now,
            session.awaiting != .nothing, PadSecret.trace.pointee.count
        )
        if visible != lastVisible || session.shakeUntil > now {
            changed = true
            lastVisible = visible
        }
        if case .wait = session.message, now / 1000 != lastSecond {
            lastSecond = now / 1000
            changed = true
        }
        return changed
    }
}
