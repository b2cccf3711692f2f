// The pattern grid of the QML surfaces (KDE lock screen, SDDM theme): press, drag, release, as on a phone.
// It only draws and relays: a release with at least 4 dots emits `drawn(digits)`; PAM decides. Which dots a
// drag takes is PatternTrace.js (the core's rules, held to them by Tests/QMLTests); the look follows the pad
// (Sources/Surfaces/shared/x11/PadLayout.swift: hit radius 3/10 of the spacing, dots 1/14 of it).
import QtQuick 2.15
import "PatternTrace.js" as Trace

Item {
    id: grid

    // "idle", "checking" (released, PAM judges), "wrong" (red, then idle by itself), "short" (1-3 dots: red and
    // shaken, then idle by itself), "success".
    property string phase: "idle"
    // Refused visibly (the pattern is locked for a while, or disabled): dimmed, no drawing is taken.
    property bool locked: false
    // Lines between the dots while drawing (the pattern_trail setting); the dots light up either way.
    property bool trailVisible: true
    property color color: "white"
    property color wrongColor: "#ed1515"
    property color successColor: "#1d99f3"
    // How long a wrong drawing stays red (ms).
    property int wrongMilliseconds: 1000

    readonly property int spacing: Math.max(24, Math.floor(Math.min(width, height) / 3))
    readonly property int hitRadius: Math.floor(spacing * 3 / 10)
    readonly property int dotRadius: Math.max(4, Math.floor(spacing / 14))
    // The dots of the drawing on screen, in order (as digits): for accessibility and tests.
    readonly property string shownDigits: shown.join("")

    // A release after 4 or more dots: the digits to answer PAM's pattern prompt with.
    signal drawn(string digits)
    // A release after 1 to 3 dots: shaken off, nothing sent (Android does not count it either).
    signal shakenOff(int dotCount)
    // A press: a new drawing begins (old messages go).
    signal started()

    property var shown: []
    property var trace: Trace.newTrace()
    property var pointer: null

    // What a screen reader says (a surface passes them in its language): the grid, and each dot by its number
    // ("%s" the number), never whether a dot is taken.
    property string accessibleName: "Pattern grid: draw your pattern"
    property string lockedAccessibleName: "Pattern grid, locked"
    property string dotAccessibleName: "Dot %s"

    Accessible.role: Accessible.Canvas
    Accessible.name: locked ? lockedAccessibleName : accessibleName

    // How far the drawing is pushed sideways while a too-short one shakes (px).
    property real shakeOffset: 0
    // False where the screen shakes the whole grid itself (SDDM's theme): the drawing then stays put inside it, so
    // dots and line move as one; the too-short drawing still shows for the same moment and is then gone.
    property bool shakesItself: true
    readonly property real shakeReach: shakesItself ? dotRadius * 2 : 0

    function showWrong() {
        phase = "wrong"
        wrongTimer.restart()
    }

    function reset() {
        wrongTimer.stop()
        shake.stop()
        shakeOffset = 0
        Trace.wipe(trace)
        shown = []
        pointer = null
        phase = "idle"
        canvas.requestPaint()
    }

    function geometry() {
        return Trace.grid(width / 2, height / 2, spacing, hitRadius)
    }

    function dotCenter(dot) {
        return Qt.point(width / 2 + ((dot - 1) % 3 - 1) * spacing, height / 2 + (Math.floor((dot - 1) / 3) - 1) * spacing)
    }

    function currentColor() {
        if (phase === "wrong" || phase === "short") return wrongColor
        if (phase === "success") return successColor
        return color
    }

    Timer {
        id: wrongTimer
        interval: grid.wrongMilliseconds
        onTriggered: grid.reset()
    }

    // A too-short drawing shakes its head, as on a phone, and is gone.
    SequentialAnimation {
        id: shake
        loops: 1
        NumberAnimation { target: grid; property: "shakeOffset"; to: grid.shakeReach; duration: 50 }
        NumberAnimation { target: grid; property: "shakeOffset"; to: -grid.shakeReach; duration: 100 }
        NumberAnimation { target: grid; property: "shakeOffset"; to: grid.shakeReach; duration: 100 }
        NumberAnimation { target: grid; property: "shakeOffset"; to: -grid.shakeReach; duration: 100 }
        NumberAnimation { target: grid; property: "shakeOffset"; to: 0; duration: 50 }
        PauseAnimation { duration: 100 }
        ScriptAction { script: grid.reset() }
    }

    Canvas {
        id: canvas
        width: parent.width
        height: parent.height
        x: grid.shakeOffset
        opacity: grid.locked ? 0.3 : 1
        onPaint: {
            var context = getContext("2d")
            context.reset()
            var lit = grid.currentColor()
            if (grid.trailVisible && grid.shown.length > 0) {
                context.strokeStyle = lit
                context.lineWidth = Math.max(2, grid.dotRadius / 2)
                context.lineCap = "round"
                context.lineJoin = "round"
                context.beginPath()
                var first = grid.dotCenter(grid.shown[0])
                context.moveTo(first.x, first.y)
                for (var i = 1; i < grid.shown.length; ++i) {
                    var point = grid.dotCenter(grid.shown[i])
                    context.lineTo(point.x, point.y)
                }
                if (grid.pointer !== null && grid.phase === "idle") context.lineTo(grid.pointer.x, grid.pointer.y)
                context.stroke()
            }
            for (var dot = 1; dot <= 9; ++dot) {
                var center = grid.dotCenter(dot)
                var taken = grid.shown.indexOf(dot) >= 0
                context.fillStyle = taken ? lit : grid.color
                context.globalAlpha = taken ? 1 : 0.6
                context.beginPath()
                context.arc(center.x, center.y, taken ? grid.dotRadius * 1.6 : grid.dotRadius, 0, 2 * Math.PI)
                context.fill()
                context.globalAlpha = 1
            }
        }
    }

    // The dots as accessible objects, one at each centre, the size of its hit area.
    Repeater {
        model: 9
        Item {
            objectName: "dot" + (index + 1)
            x: grid.dotCenter(index + 1).x - grid.hitRadius
            y: grid.dotCenter(index + 1).y - grid.hitRadius
            width: 2 * grid.hitRadius
            height: 2 * grid.hitRadius
            Accessible.role: Accessible.Graphic
            Accessible.name: grid.dotAccessibleName.replace("%s", String(index + 1))
        }
    }

    onShownChanged: canvas.requestPaint()
    onPhaseChanged: canvas.requestPaint()
    onLockedChanged: canvas.requestPaint()
    onWidthChanged: canvas.requestPaint()
    onHeightChanged: canvas.requestPaint()

    MouseArea {
        id: area
        anchors.fill: parent
        enabled: !grid.locked
        preventStealing: true
        onPressed: function (mouse) {
            wrongTimer.stop()
            shake.stop()
            grid.shakeOffset = 0
            grid.phase = "idle"
            grid.trace = Trace.newTrace()
            Trace.begin(grid.trace, grid.geometry(), mouse.x, mouse.y)
            grid.pointer = Qt.point(mouse.x, mouse.y)
            grid.shown = grid.trace.dots.slice()
            grid.started()
        }
        onPositionChanged: function (mouse) {
            if (!pressed || grid.phase !== "idle") return
            Trace.extend(grid.trace, grid.geometry(), mouse.x, mouse.y)
            grid.pointer = Qt.point(mouse.x, mouse.y)
            if (grid.trace.dots.length !== grid.shown.length) grid.shown = grid.trace.dots.slice()
            else canvas.requestPaint()
        }
        onReleased: function (mouse) {
            if (grid.phase !== "idle") return
            Trace.extend(grid.trace, grid.geometry(), mouse.x, mouse.y)
            grid.pointer = null
            var digits = Trace.digits(grid.trace)
            Trace.wipe(grid.trace)
            if (digits.length >= 4) {
                grid.shown = digits.split("").map(Number)
                grid.phase = "checking"
                grid.drawn(digits)
            } else if (digits.length > 0) {
                grid.shown = digits.split("").map(Number)
                grid.phase = "short"
                shake.restart()
                grid.shakenOff(digits.length)
            } else {
                grid.shown = []
            }
        }
        onCanceled: grid.reset()
    }
}
