// The KDE Plasma lock screen with the pattern grid, for Plasma 5.27 and Plasma 6: each version's LockScreen.qml
// (plasma5/, plasma6/) is this with its greeter's `authenticator` connected to secretPrompted, heard, unlocked and
// runEnded. It runs as the person, unprivileged: PAM (pam_pattern, through its setuid helper) decides; this only
// draws and relays. A drawing answers pam_pattern's prompt; a typed password answers the password prompt
// (pam_pattern's is skipped with an empty answer, which it does not count).
//
// Both versions' `authenticator` take respond(bytes) and cancel(); a run starts with tryUnlock() (5.27) or
// startAuthenticating() (6). The prompt texts are recognised in every shipped language by ModuleWords.js,
// generated from the message catalogue (po/module-words.py).
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Window 2.15
import QtQml 2.15
import "ModuleWords.js" as Words

Rectangle {
    id: root
    color: "#1b1e20"

    // What the running pam_authenticate is for: "" (none), "pattern" (a drawing), "password" (typed).
    property string mode: ""
    property string pendingDigits: ""
    property bool patternAnswered: false
    // A drawing made while another run was still ending: it starts the next run.
    property string queuedDigits: ""
    property string message: ""
    property bool messageIsError: false
    // A wait the module announced: the grid is dimmed and takes no drawing until it has run out; the
    // message counts down in the module's own words and language (ModuleWords.waitSaid).
    property var wait: null
    property double waitEnds: 0

    // What the tests drive by (the grid's place) and a person chasing a problem reads, never a secret: off unless
    // asked for with QT_LOGGING_RULES=pam_pattern.greeter.debug=true in the greeter's environment.
    LoggingCategory {
        id: debugLog
        name: "pam_pattern.greeter"
        defaultLogLevel: LoggingCategory.Warning
    }

    function log(text) {
        console.log(debugLog, "pam_pattern: " + text)
    }

    // Where the dots are on the screen (global coordinates), logged once the window is on screen and has the input (the first
    // frame drawn while active), and again when the layout changes: what a test drives the pointer by.
    property bool shown: false

    function reportGeometry() {
        if (grid.width <= 0 || !shown) return
        var centres = []
        for (var dot = 1; dot <= 9; ++dot) {
            var local = grid.dotCenter(dot)
            var point = grid.mapToGlobal(local.x, local.y)
            centres.push(Math.round(point.x) + "," + Math.round(point.y))
        }
        log("grid " + centres.join(" "))
    }

    // What the module said, read back (ModuleWords.read): a wait or a disabled pattern locks the grid.
    function heard(text, isError) {
        if (text === "") return
        message = text
        messageIsError = isError
        log("message " + text)
        var said = Words.read(text)
        if (said.kind === "wait") {
            wait = said
            waitEnds = Date.now() + said.seconds * 1000
            grid.locked = true
            countdown.restart()
            log("locked for " + said.seconds + " s")
        } else if (said.kind === "disabled") {
            wait = null
            countdown.stop()
            grid.locked = true
            log("disabled")
        }
    }

    function tick() {
        var left = Math.ceil((waitEnds - Date.now()) / 1000)
        if (left <= 0) {
            countdown.stop()
            wait = null
            grid.locked = false
            message = ""
            log("wait over")
            return
        }
        message = Words.waitSaid(wait.language, left, wait.route)
        log("countdown " + left)
    }

    Timer {
        id: countdown
        interval: 1000
        repeat: true
        onTriggered: root.tick()
    }

    function start(newMode) {
        mode = newMode
        patternAnswered = false
        if (typeof authenticator.startAuthenticating === "function")
            authenticator.startAuthenticating()
        else
            authenticator.tryUnlock()
    }

    function submitPattern(digits) {
        message = ""
        if (mode !== "") {
            // The last run still waits (for the password, after a wrong pattern): end it, then this drawing
            // starts the next one (onFailed).
            queuedDigits = digits
            authenticator.cancel()
            return
        }
        pendingDigits = digits
        log("pattern sent")
        start("pattern")
    }

    function submitPassword() {
        if (password.text === "") return
        if (mode !== "") authenticator.cancel()
        queuedDigits = ""
        start("password")
    }

    Text {
        id: clock
        anchors.horizontalCenter: parent.horizontalCenter
        y: parent.height * 0.06
        color: "white"
        font.pixelSize: Math.max(24, parent.height / 12)
        text: new Date().toLocaleTimeString(Qt.locale(), Locale.ShortFormat)
        // Woken when the minute turns, not every second: the clock shows no seconds (make bench: idle CPU).
        Timer {
            interval: 60000 - Date.now() % 60000 + 50
            running: true
            onTriggered: {
                clock.text = new Date().toLocaleTimeString(Qt.locale(), Locale.ShortFormat)
                interval = 60000 - Date.now() % 60000 + 50
                restart()
            }
        }
    }

    Column {
        id: column
        anchors.horizontalCenter: parent.horizontalCenter
        anchors.top: clock.bottom
        anchors.topMargin: parent.height * 0.03
        spacing: 12
        width: Math.min(parent.width * 0.8, 480)

        Image {
            anchors.horizontalCenter: parent.horizontalCenter
            source: kscreenlocker_userImage
            visible: kscreenlocker_userImage !== ""
            width: 64
            height: 64
            fillMode: Image.PreserveAspectCrop
        }

        Text {
            width: parent.width
            horizontalAlignment: Text.AlignHCenter
            color: "white"
            font.pixelSize: 20
            text: kscreenlocker_userName
        }

        Text {
            id: messageText
            objectName: "message"
            width: parent.width
            height: Math.max(implicitHeight, 2 * font.pixelSize * 1.3)
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.WordWrap
            color: root.messageIsError ? "#ff8080" : "white"
            font.pixelSize: 15
            text: root.message
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }

        PatternGrid {
            id: grid
            objectName: "grid"
            anchors.horizontalCenter: parent.horizontalCenter
            width: Math.min(root.width, root.height) * 0.42
            height: width
            // What a screen reader says: the grid, locked or not, and each dot by its number (never whether it is
            // taken: the drawing is a secret).
            accessibleName: Words.tr("Pattern grid: draw your pattern")
            lockedAccessibleName: Words.tr("Pattern grid, locked: the message says how long")
            dotAccessibleName: Words.tr("Dot %s")
            onDrawn: function (digits) { root.submitPattern(digits) }
            onStarted: {
                root.message = ""
            }
            onShakenOff: function (count) { root.log("shaken off " + count) }
            onWidthChanged: geometryTimer.restart()
            onXChanged: geometryTimer.restart()
            onYChanged: geometryTimer.restart()
        }

        TextField {
            id: password
            objectName: "password"
            anchors.horizontalCenter: parent.horizontalCenter
            width: Math.min(parent.width, 320)
            echoMode: TextInput.Password
            placeholderText: Words.tr("Password")
            focus: true
            Accessible.name: Words.tr("Password")
            onAccepted: root.submitPassword()
            // A steady cursor: the default one blinks, and each blink redraws the whole locked screen (make bench:
            // the idle lock screen's CPU).
            cursorDelegate: Rectangle {
                width: 2
                color: password.color
                visible: password.activeFocus
            }
        }
    }

    Timer {
        id: geometryTimer
        interval: 200
        onTriggered: root.reportGeometry()
    }

    Component.onCompleted: password.forceActiveFocus()

    Connections {
        target: root.Window.window
        function onXChanged() { geometryTimer.restart() }
        function onYChanged() { geometryTimer.restart() }
        function onFrameSwapped() {
            if (root.shown || !root.Window.active) return
            root.shown = true
            root.reportGeometry()
        }
    }

    // What the greeter's authenticator says (LockScreen.qml connects it).
    function secretPrompted(prompt) {
        var kind = Words.promptKind(prompt)
        if (root.mode === "pattern") {
            if (kind !== "password" && !root.patternAnswered) {
                root.patternAnswered = true
                var digits = root.pendingDigits
                root.pendingDigits = ""
                authenticator.respond(digits)
            } else {
                // The next module's prompt (the password): the drawing was not accepted. Nothing is sent.
                authenticator.cancel()
            }
        } else if (root.mode === "password") {
            // pam_pattern's prompt is skipped (an empty answer is not counted); the password answers the rest.
            authenticator.respond(kind === "pattern" ? "" : password.text)
        } else {
            authenticator.cancel()
        }
    }

    function unlocked() {
        grid.phase = "success"
        password.text = ""
        root.log("unlocked")
        Qt.quit()
    }

    // The run of pam_authenticate ended without unlocking.
    function runEnded() {
        var was = root.mode
        root.mode = ""
        root.pendingDigits = ""
        if (was === "pattern" && grid.locked) {
            // The module asked for no pattern (it is held back): nothing was judged, nothing is red.
            grid.reset()
            root.log("not asked: locked")
        } else if (was === "pattern") {
            grid.showWrong()
            root.log("wrong pattern")
        } else if (was === "password") {
            password.text = ""
            if (root.message === "") {
                root.message = Words.tr("Unlocking failed")
                root.messageIsError = true
            }
            root.log("wrong password")
        }
        if (root.queuedDigits !== "") {
            var queued = root.queuedDigits
            root.queuedDigits = ""
            root.submitPattern(queued)
        }
    }
}
