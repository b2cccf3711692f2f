// PatternGrid.qml driven by Qt's own test runner (qmltestrunner, under Xvfb): press, drag and release with
// the mouse as a person does; what it emits and shows. Run by test_pattern_grid.py.
import QtQuick 2.15
import QtTest 1.2
import "../../Sources/Surfaces/shared/qml"

Item {
    id: scene
    width: 300
    height: 300

    Rectangle {
        anchors.fill: parent
        color: "#202020" // a dark wallpaper
    }

    PatternGrid {
        id: grid
        anchors.fill: parent
        wrongMilliseconds: 150
    }

    SignalSpy { id: drawnSpy; target: grid; signalName: "drawn" }
    SignalSpy { id: shakenSpy; target: grid; signalName: "shakenOff" }
    SignalSpy { id: startedSpy; target: grid; signalName: "started" }

    TestCase {
        name: "PatternGrid"
        when: windowShown

        function init() {
            grid.locked = false
            grid.reset()
            drawnSpy.clear()
            shakenSpy.clear()
            startedSpy.clear()
        }

        function centre(dot) { return grid.dotCenter(dot) }

        // Press on the first dot, move through each next one in `steps` samples, release on the last.
        function drag(dots, steps) {
            var n = steps === undefined ? 4 : steps
            var from = centre(dots[0])
            mousePress(grid, from.x, from.y)
            for (var i = 1; i < dots.length; ++i) {
                var to = centre(dots[i])
                for (var s = 1; s <= n; ++s)
                    mouseMove(grid, from.x + (to.x - from.x) * s / n, from.y + (to.y - from.y) * s / n, -1, Qt.LeftButton)
                from = to
            }
            mouseRelease(grid, from.x, from.y)
        }

        function test_a_drawing_is_sent_once_with_its_digits() {
            drag([1, 2, 3, 5, 7, 8, 9])
            compare(drawnSpy.count, 1)
            compare(drawnSpy.signalArguments[0][0], "1235789")
            compare(grid.phase, "checking")
            compare(grid.shownDigits, "1235789")
            compare(startedSpy.count, 1)
        }

        function test_a_fast_diagonal_takes_the_middle_dot() {
            drag([1, 9, 6, 3], 1) // one sample from 1 to 9
            compare(drawnSpy.count, 1)
            compare(drawnSpy.signalArguments[0][0], "15963")
        }

        function test_a_skipped_middle_dot_is_filled_in() {
            // 1, then round dot 2 (never within its circle), to 3, then 6 and 9
            var one = centre(1), three = centre(3)
            mousePress(grid, one.x, one.y)
            mouseMove(grid, (one.x + three.x) / 2, one.y + grid.spacing / 2, -1, Qt.LeftButton)
            mouseMove(grid, three.x, three.y, -1, Qt.LeftButton)
            var nine = centre(9)
            mouseMove(grid, nine.x, nine.y, -1, Qt.LeftButton)
            mouseRelease(grid, nine.x, nine.y)
            compare(drawnSpy.count, 1)
            compare(drawnSpy.signalArguments[0][0], "12369")
        }

        function test_three_dots_are_shaken_off_unsent() {
            drag([1, 2, 3])
            compare(drawnSpy.count, 0)
            compare(shakenSpy.count, 1)
            compare(shakenSpy.signalArguments[0][0], 3)
            // Shown red and shaken for a moment, then gone by itself.
            compare(grid.shownDigits, "123")
            compare(grid.phase, "short")
            tryVerify(function () { return grid.shakeOffset !== 0 }, 500)
            tryCompare(grid, "phase", "idle", 2000)
            compare(grid.shownDigits, "")
            compare(grid.shakeOffset, 0)
        }

        function test_a_grid_its_screen_shakes_keeps_the_drawing_still() {
            grid.shakesItself = false
            drag([1, 2, 3])
            compare(shakenSpy.count, 1)
            var moved = false
            for (var i = 0; i < 25; ++i) {
                if (grid.shakeOffset !== 0) moved = true
                wait(20)
            }
            grid.shakesItself = true
            verify(!moved, "the drawing moved inside a grid its screen shakes")
            tryCompare(grid, "phase", "idle", 2000)
            compare(grid.shownDigits, "")
        }

        function test_a_locked_grid_takes_no_drawing() {
            grid.locked = true
            drag([1, 2, 3, 6, 9])
            compare(drawnSpy.count, 0)
            compare(shakenSpy.count, 0)
            compare(startedSpy.count, 0)
            compare(grid.shownDigits, "")
        }

        // The colour drawn at the centre of dot 1 (a Canvas paints asynchronously: wait for a frame).
        function pixelAtDotOne() {
            wait(50)
            var c = centre(1)
            return grabImage(scene).pixel(Math.round(c.x), Math.round(c.y))
        }

        function test_what_is_drawn_wrong_red_locked_dim() {
            var idle = pixelAtDotOne()
            verify(idle.r > 0.5 && idle.g > 0.5 && idle.b > 0.5, "an untaken dot is light: " + idle)
            drag([1, 2, 3, 6, 9])
            grid.showWrong()
            var red = pixelAtDotOne()
            verify(red.r > 0.8 && red.g < 0.3 && red.b < 0.3, "a wrong drawing is red: " + red)
            grid.reset()
            grid.locked = true
            var dim = pixelAtDotOne()
            verify(dim.r < 0.35 && dim.g < 0.35 && dim.b < 0.35, "a locked grid is dimmed: " + dim)
        }

        function test_wrong_is_red_for_a_moment_then_the_grid_is_clear() {
            drag([1, 2, 3, 6, 9])
            grid.showWrong()
            compare(grid.phase, "wrong")
            compare(grid.currentColor(), grid.wrongColor)
            tryCompare(grid, "phase", "idle", 2000)
            compare(grid.shownDigits, "")
        }

        function test_a_press_while_red_starts_a_new_drawing_at_once() {
            drag([1, 2, 3, 6, 9])
            grid.showWrong()
            drag([7, 4, 1, 2])
            compare(drawnSpy.count, 2)
            compare(drawnSpy.signalArguments[1][0], "7412")
            compare(startedSpy.count, 2)
        }

        function test_a_new_drawing_while_checking_is_taken() {
            drag([1, 2, 3, 6, 9])
            compare(grid.phase, "checking")
            // A new press starts afresh (a person may draw again at once; the surface decides what to do
            // with a drawing that arrives while the last one is judged).
            drag([3, 2, 1, 4])
            compare(drawnSpy.count, 2)
            compare(drawnSpy.signalArguments[1][0], "3214")
        }
    }
}
