// The theme's Main.qml with what SDDM 0.21's greeter gives a theme, as far as it uses it (sddm with its
// informationMessage, userModel, sessionModel, config), in Qt's test runner: what it does with PAM's messages
// as the daemon passes them. THEME is put in by test_theme_messages.py.
import QtQuick 2.15
import QtTest 1.2

Item {
    id: scene
    width: 1024
    height: 768

    QtObject {
        id: sddm
        signal loginFailed()
        signal loginSucceeded()
        signal informationMessage(string message)
        property var secrets: []
        property int count: 0
        property string hostName: "pp-host"
        property bool canPowerOff: true
        property bool canReboot: true
        property bool canSuspend: true
        function powerOff() {}
        function reboot() {}
        function suspend() {}
        function login(user, secret, session) {
            secrets.push(user + " " + secret + " " + session)
            count += 1
        }
    }
    ListModel {
        id: userModel
        property int lastIndex: 0
        ListElement { name: "alex"; realName: "Alex Doe"; icon: "" }
    }
    ListModel {
        id: sessionModel
        property int lastIndex: 0
        ListElement { name: "Desktop" }
    }
    QtObject {
        id: keyboard
        property var layouts: []
        property int currentLayout: 0
    }
    QtObject {
        id: config
        property string background: "#1b1e20"
        property string trail: "true"
    }

    Loader {
        id: loader
        anchors.fill: parent
        source: "THEME/Main.qml"
    }

    TestCase {
        name: "ThemeMessages"
        when: windowShown && loader.status === Loader.Ready

        function grid() {
            return findChild(loader.item, "grid")
        }

        function init() {
            // Each test starts idle: no attempt, no wait, nothing said.
            loader.item.waitEnds = 0
            loader.item.tick()
            loader.item.attempt = ""
            loader.item.queuedDigits = ""
            grid().reset()
            loader.item.message = ""
            sddm.secrets = []
            sddm.count = 0
        }

        function test_a_wrong_drawing_shows_the_modules_words_and_red() {
            loader.item.submitPattern("24678")
            compare(sddm.secrets, ["alex 24678 0"])
            sddm.informationMessage("Wrong pattern. 4 tries left before a wait.")
            sddm.loginFailed()
            compare(grid().phase, "wrong")
            compare(loader.item.message, "Wrong pattern. 4 tries left before a wait.")
            // pam_unix's end, and SDDM's "Authentication failure": the module's words stay.
            sddm.informationMessage("Authentication failure")
            sddm.loginFailed()
            sddm.loginFailed()
            compare(loader.item.message, "Wrong pattern. 4 tries left before a wait.")
            tryCompare(loader.item, "attempt", "", 1000)
        }

        // A login screen gives the way out that works there (the password), never the module's command, in the
        // module's language; and the grid does not move when three lines of it appear.
        function test_the_forgotten_pattern_route_is_the_password_and_nothing_moves() {
            var g = grid()
            var before = g.mapToItem(scene, 0, 0)
            loader.item.submitPattern("24678")
            sddm.informationMessage("Wrong pattern. 4 tries left before a wait. Forgot your pattern? Set a new one with your password: patternctl set --forgot")
            sddm.loginFailed()
            compare(loader.item.message, "Wrong pattern. 4 tries left before a wait. Forgot your pattern? Use your password.")
            var after = g.mapToItem(scene, 0, 0)
            compare(after.y, before.y)
            sddm.loginFailed()
            sddm.loginFailed()
            tryCompare(loader.item, "attempt", "", 1000)
            loader.item.submitPattern("2946138")
            sddm.informationMessage("图案错误。错误尝试次数过多，图案现已被停用；管理员可以重新启用。密码仍然可用。 忘记图案了？可用密码设置新图案：patternctl set --forgot")
            sddm.loginFailed()
            compare(loader.item.message, "图案错误。错误尝试次数过多，图案现已被停用；管理员可以重新启用。密码仍然可用。 忘记图案了？请使用密码。")
            compare(g.mapToItem(scene, 0, 0).y, before.y)
            sddm.loginFailed()
            sddm.loginFailed()
            tryCompare(loader.item, "attempt", "", 1000)
        }

        function test_a_wait_dims_the_grid_counts_down_and_shows_no_red() {
            loader.item.submitPattern("2946138")
            sddm.informationMessage("Too many wrong patterns: try again in 5 minutes. Your password still works.")
            sddm.loginFailed()
            verify(grid().locked)
            verify(grid().phase !== "wrong")
            sddm.loginFailed()
            sddm.loginFailed()
            tryCompare(loader.item, "attempt", "", 1000)
            // The countdown says the wait in the module's own words, a second less each second.
            tryVerify(function () { return /^Too many wrong patterns: try again in 4 minutes 5\d seconds\./.test(loader.item.message) }, 2500)
            // No drawing is taken while locked.
            var sent = sddm.count
            mousePress(grid(), grid().width / 6, grid().height / 6)
            mouseMove(grid(), grid().width / 2, grid().height / 6)
            mouseMove(grid(), grid().width * 5 / 6, grid().height / 6)
            mouseMove(grid(), grid().width * 5 / 6, grid().height / 2)
            mouseRelease(grid(), grid().width * 5 / 6, grid().height / 2)
            wait(300)
            compare(sddm.count, sent)
        }

        function test_a_drawing_made_while_an_attempt_runs_is_sent_at_its_end() {
            loader.item.submitPattern("24678")
            sddm.informationMessage("Wrong pattern. 4 tries left before a wait.")
            sddm.loginFailed()
            loader.item.submitPattern("2946138")
            compare(sddm.count, 1)
            sddm.loginFailed()
            sddm.loginFailed()
            tryCompare(sddm, "count", 2, 1000)
            compare(sddm.secrets[1], "alex 2946138 0")
            sddm.loginSucceeded()
            compare(grid().phase, "success")
        }

        // SDDM 0.19 with quiet_services = sddm: no word until the attempt ends, after pam_unix's delay.
        function test_without_messages_a_wrong_drawing_turns_red_at_its_end_and_is_sent_once() {
            loader.item.submitPattern("24678")
            wait(2600)  // pam_unix's 2 s and the hash: no answer yet, and not taken for an ignored login
            compare(sddm.count, 1)
            verify(grid().phase !== "wrong")
            sddm.loginFailed()
            sddm.loginFailed()
            compare(grid().phase, "wrong")
            compare(loader.item.message, "Login Failed")
            tryCompare(loader.item, "attempt", "", 1000)
            compare(sddm.count, 1)
        }

        function test_the_end_of_a_silent_attempt_is_not_painted_over_a_drawing_begun_meanwhile() {
            loader.item.submitPattern("24678")
            var g = grid()
            var dot = function (n) { return g.dotCenter(n) }
            mousePress(g, dot(1).x, dot(1).y)
            mouseMove(g, dot(2).x, dot(2).y)
            sddm.loginFailed()
            sddm.loginFailed()
            verify(g.phase !== "wrong")
            mouseMove(g, dot(3).x, dot(3).y)
            mouseMove(g, dot(6).x, dot(6).y)
            mouseRelease(g, dot(6).x, dot(6).y)
            compare(sddm.count, 1)  // the attempt is not over yet: kept
            tryCompare(sddm, "count", 2, 1000)
            compare(sddm.secrets[1], "alex 1236 0")
            sddm.loginSucceeded()
        }
    }
}
