// The KDE lock screen's accessible names and its own words, read back in Qt's test runner (run by
// test_lock_screen_names.py, once a language, beside the lock screen's built files and expected.js, which that
// test writes from the message catalogue): the grid, each dot, the password field; while the pattern is held
// back the grid's locked name and the countdown, said by the message's accessible name; "Unlocking failed".
import QtQuick 2.15
import QtTest 1.2
import "expected.js" as Expected

Item {
    id: scene
    width: 900
    height: 800

    // The greeter's authenticator, as far as the lock screen calls it outside a greeter.
    QtObject {
        id: authenticator
        function tryUnlock() {}
        function respond(answer) {}
        function cancel() {}
    }

    PatternLockScreen {
        id: screen
        anchors.fill: parent
    }

    TestCase {
        name: "LockScreenNames"
        when: windowShown

        function find(item, name) {
            if (item.objectName === name) return item
            for (var i = 0; i < item.children.length; ++i) {
                var found = find(item.children[i], name)
                if (found) return found
            }
            return null
        }

        function init() {
            screen.message = ""
            screen.failureNote = ""
        }

        function test_the_grid_each_dot_and_the_password_field_are_named() {
            var grid = find(screen, "grid")
            compare(grid.Accessible.name, Expected.grid)
            for (var dot = 1; dot <= 9; ++dot) {
                var item = find(grid, "dot" + dot)
                verify(item !== null, "dot " + dot)
                compare(item.Accessible.name, Expected.dots[dot - 1])
                // where a screen reader points: on the dot's centre
                var centre = grid.dotCenter(dot)
                compare(item.x + item.width / 2, centre.x)
                compare(item.y + item.height / 2, centre.y)
            }
            var password = find(screen, "password")
            compare(password.Accessible.name, Expected.password)
            compare(password.placeholderText, Expected.password)
        }

        function test_while_held_back_the_countdown_is_said() {
            var grid = find(screen, "grid")
            var message = find(screen, "message")
            screen.heard(Expected.wait, true)
            verify(grid.locked)
            compare(grid.Accessible.name, Expected.lockedGrid)
            compare(message.Accessible.name, Expected.wait)
            screen.waitEnds = Date.now() + 41500
            screen.tick()
            compare(message.Accessible.name, Expected.countdown)
            screen.waitEnds = Date.now() - 1
            screen.tick()
            verify(!grid.locked)
            compare(grid.Accessible.name, Expected.grid)
        }

        function test_a_failed_password_says_unlocking_failed() {
            screen.message = "Wrong pattern."
            screen.passwordSent = true
            screen.runEnded()
            compare(find(screen, "message").Accessible.name, Expected.unlockingFailed)
        }

        function test_a_forgotten_pattern_is_told_what_works_at_a_screen() {
            var message = find(screen, "message")
            screen.heard(Expected.wrongWithCommand, true)
            compare(message.Accessible.name, Expected.wrongAtScreen)
            screen.heard(Expected.wrongWithAdmin, true)
            compare(message.Accessible.name, Expected.wrongAtScreen)
            screen.heard(Expected.waitWithCommand, true)
            screen.waitEnds = Date.now() + 41500
            screen.tick()
            compare(message.Accessible.name, Expected.countdownAtScreen)
            screen.waitEnds = Date.now() - 1
            screen.tick()
        }
    }
}
