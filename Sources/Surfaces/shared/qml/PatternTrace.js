// The pad's hit rules for QML surfaces (the KDE lock screen, the SDDM theme): which dots a pointer path
// takes. QML cannot link the Swift core, so this is a port of Sources/PatternCore/Pad (PadGrid,
// PadSegment, PadTrace), held to it by Tests/QMLTests (the same thousands of pointer paths through both,
// any difference fails). Change the rules there first, then here, in the same commit.
//
// Differences of domain, not of rule: QML gives real coordinates, so every coordinate is first rounded to
// an integer (Math.round) and clamped to +-2^24, where every product below stays under 2^53 and a double is
// exact (the core works on any Int32 in 64-bit integers; no screen is 2^24 pixels wide).
.pragma library

var coordinateLimit = 16777216 // 2^24
var maximumSpacing = 8192 // PadGrid.maximumSpacing

function coordinate(value) {
    var v = Math.round(Number(value))
    if (!(v === v)) return 0 // NaN
    return Math.min(Math.max(v, -coordinateLimit), coordinateLimit)
}

// PadGrid: dot 5's centre, the spacing between dot centres, the hit radius (an open circle).
function grid(centerX, centerY, spacing, hitRadius) {
    var step = Math.min(Math.max(coordinate(spacing), 0), maximumSpacing)
    return {
        centerX: coordinate(centerX),
        centerY: coordinate(centerY),
        spacing: step,
        radius: Math.min(Math.max(coordinate(hitRadius), 0), Math.floor(step / 2))
    }
}

function column(dot) { return (dot - 1) % 3 }
function row(dot) { return Math.floor((dot - 1) / 3) }

// The centre of dot 1...9.
function center(g, dot) {
    return { x: g.centerX + (column(dot) - 1) * g.spacing, y: g.centerY + (row(dot) - 1) * g.spacing }
}

// True if (x, y) lies strictly inside dot's hit circle.
function hits(g, dot, x, y) {
    var c = center(g, dot)
    var dx = x - c.x, dy = y - c.y, r = g.radius
    if (!(dx > -r && dx < r && dy > -r && dy < r)) return false
    return dx * dx + dy * dy < r * r
}

// The dot under (x, y), 0 if none.
function dotAt(g, x, y) {
    for (var dot = 1; dot <= 9; ++dot) if (hits(g, dot, x, y)) return dot
    return 0
}

// The dot a straight line from a to b passes over, 0 for neighbours and knight moves.
function dotBetween(a, b) {
    var rowSum = row(a) + row(b), columnSum = column(a) + column(b)
    if (rowSum % 2 !== 0 || columnSum % 2 !== 0 || a === b) return 0
    return (rowSum / 2) * 3 + columnSum / 2 + 1
}

// PadSegment: the digital straight line between two samples, one pixel per step on the longer axis.
function segment(fromX, fromY, toX, toY) {
    var dx = toX - fromX, dy = toY - fromY
    var lengthX = Math.abs(dx), lengthY = Math.abs(dy)
    return {
        startX: fromX, startY: fromY, signX: Math.sign(dx), signY: Math.sign(dy),
        lengthX: lengthX, lengthY: lengthY, steps: Math.max(lengthX, lengthY)
    }
}

// round(step * length / steps), halves up.
function offset(s, step, length) {
    if (s.steps === 0) return 0
    return Math.floor((step * length + Math.floor(s.steps / 2)) / s.steps)
}

// The first step of the segment inside dot's hit circle, -1 if none.
function firstStep(s, g, dot) {
    var r = g.radius
    if (r <= 0) return -1
    var c = center(g, dot)
    var alongX = s.lengthX >= s.lengthY
    var sign = alongX ? s.signX : s.signY
    var start = alongX ? s.startX : s.startY
    var target = alongX ? c.x : c.y
    var first = 0, last = 0
    if (sign !== 0) {
        var distance = sign > 0 ? target - start : start - target
        first = Math.max(distance - r + 1, 0)
        last = Math.min(distance + r - 1, s.steps)
    }
    for (var step = first; step <= last; ++step) {
        var x = s.startX + s.signX * offset(s, step, s.lengthX)
        var y = s.startY + s.signY * offset(s, step, s.lengthY)
        if (hits(g, dot, x, y)) return step
    }
    return -1
}

// PadTrace: a drawing's state. `dots` is the dots taken, in order.
function newTrace() { return { dots: [], hasSample: false, sampleX: 0, sampleY: 0 } }

function isTaken(trace, dot) { return trace.dots.indexOf(dot) >= 0 }

// Takes dot unless taken, the untaken dot between it and the last dot first.
function take(trace, dot) {
    if (dot < 1 || dot > 9 || isTaken(trace, dot)) return
    var count = trace.dots.length
    if (count > 0) {
        var middle = dotBetween(trace.dots[count - 1], dot)
        if (middle !== 0 && !isTaken(trace, middle) && count < 9) trace.dots.push(middle)
    }
    if (trace.dots.length < 9) trace.dots.push(dot)
}

// A press at (x, y): forgets the previous drawing and takes the dot under the pointer.
function begin(trace, g, pointX, pointY) {
    var x = coordinate(pointX), y = coordinate(pointY)
    trace.dots = []
    take(trace, dotAt(g, x, y))
    trace.sampleX = x
    trace.sampleY = y
    trace.hasSample = true
}

// The pointer moved to (x, y): takes every dot the segment from the last sample enters, in order.
function extend(trace, g, pointX, pointY) {
    var x = coordinate(pointX), y = coordinate(pointY)
    var fromX = trace.hasSample ? trace.sampleX : x
    var fromY = trace.hasSample ? trace.sampleY : y
    trace.sampleX = x
    trace.sampleY = y
    trace.hasSample = true
    if (trace.dots.length >= 9) return
    var s = segment(fromX, fromY, x, y)
    var entries = []
    for (var dot = 1; dot <= 9; ++dot) entries.push(isTaken(trace, dot) ? -1 : firstStep(s, g, dot))
    // Circles never overlap, so no two dots share a first step: take them earliest first.
    while (true) {
        var next = -1
        for (var i = 0; i < 9; ++i) if (entries[i] >= 0 && (next < 0 || entries[i] < entries[next])) next = i
        if (next < 0) return
        entries[next] = -1
        take(trace, next + 1)
    }
}

// The drawing as the digits the module reads ("1235789").
function digits(trace) { return trace.dots.join("") }

// Forgets the drawing (a JS string cannot be wiped: the surface keeps no copy beyond its trace).
function wipe(trace) {
    trace.dots = []
    trace.hasSample = false
    trace.sampleX = 0
    trace.sampleY = 0
}
