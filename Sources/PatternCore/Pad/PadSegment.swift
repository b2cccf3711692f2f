/// The pixels a pointer crosses between two samples: the digital straight line from one sample to the next,
/// one pixel per step along the longer axis.
///
/// A pad that polls the pointer sees a fast swipe as a few samples far apart; the finger or mouse passed
/// every pixel in between. Step i of `steps` lies at start + round(i * delta / steps) on each axis
/// (halves rounded away from the start), so the longer axis moves exactly one pixel per step and every
/// pixel is within half a pixel of the true line. Everything is exact in 64-bit arithmetic for any Int32
/// endpoints: |delta| and i are at most 2^32 - 1, so i * |delta| + steps / 2 fits a UInt64.
struct PadSegment {
    let startX: Int64
    let startY: Int64
    /// Direction of each axis: -1, 0 or +1.
    let signX: Int64
    let signY: Int64
    /// |delta| of each axis.
    let lengthX: UInt64
    let lengthY: UInt64
    /// max(lengthX, lengthY): the last step; step 0 is the start, step `steps` the end.
    let steps: UInt64

    init(from start: (x: Int32, y: Int32), to end: (x: Int32, y: Int32)) {
        startX = Int64(start.x)
        startY = Int64(start.y)
        let dx = Int64(end.x) - startX
        let dy = Int64(end.y) - startY
        signX = dx.signum()
        signY = dy.signum()
        lengthX = dx.magnitude
        lengthY = dy.magnitude
        steps = max(lengthX, lengthY)
    }

    /// The pixel of step 0...steps.
    func point(at step: UInt64) -> (x: Int64, y: Int64) {
        (startX + signX * offset(step, lengthX), startY + signY * offset(step, lengthY))
    }

    /// round(step * length / steps), halves up; 0 for a segment of one pixel.
    private func offset(_ step: UInt64, _ length: UInt64) -> Int64 {
        guard steps > 0 else { return 0 }
        return Int64((step * length + steps / 2) / steps)
    }

    /// The first step whose pixel lies inside the hit circle of `dot`, or nil if no pixel of the segment
    /// does. Only the steps whose longer-axis coordinate is within the radius of the centre are walked (at
    /// most 2 * radius - 1 of them), so a segment across the whole coordinate range costs no more than a
    /// short one.
    func firstStep(into dot: UInt8, of grid: PadGrid) -> UInt64? {
        let radius = Int64(grid.effectiveHitRadius)
        guard radius > 0 else { return nil }
        let center = grid.exactCenter(of: dot)
        // Along the longer axis, step i is at start + sign * i exactly; the steps within the radius of the
        // centre's coordinate there form one interval.
        let alongX = lengthX >= lengthY
        let sign = alongX ? signX : signY
        let start = alongX ? startX : startY
        let target = alongX ? center.x : center.y
        var first: Int64 = 0
        var last: Int64 = 0
        if sign != 0 {
            let distance = sign > 0 ? target - start : start - target
            first = max(distance - radius + 1, 0)
            last = min(distance + radius - 1, Int64(steps))
        }
        guard first <= last else { return nil }
        var step = first
        while step <= last {
            let pixel = point(at: UInt64(step))
            if grid.hits(dot, x: pixel.x, y: pixel.y) { return UInt64(step) }
            step += 1
        }
        return nil
    }
}
