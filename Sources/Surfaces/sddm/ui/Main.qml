// The SDDM login screen with the pattern grid (sddm-greeter loads it as the theme named in [Theme] Current).
// It runs as the sddm user, unprivileged, and only draws and relays: PAM (the `sddm` service's stack, with
// pam_pattern's profile before pam_unix in common-auth) decides.
//
// What SDDM lets a theme do (read in SDDM 0.19's and 0.21's daemon, src/daemon/Display.cpp, and helper,
// src/helper/backend/PamBackend.cpp; run with 0.19): sddm.login(user, secret, session) hands the daemon ONE
// string, and the daemon answers every secret prompt of the stack with it. So a drawing goes as its digits:
// pam_pattern judges them (right: the session starts); after a wrong one pam_unix is asked too and gets the
// same digits, which are not the password. A typed password goes as typed: pam_pattern refuses it as not a
// pattern, uncounted, and pam_unix takes it.
//
// What comes back: every PAM error message is a loginFailed() while PAM goes on (0.21 first sends its text as
// informationMessage(); 0.19 sends no text), and a failed attempt ends with one or two loginFailed() at once
// (the daemon's error, then, not always, its verdict). On 0.19 pam_pattern is told to send the `sddm` service
// no message (quiet_services: 0.19's daemon can lose the prompt that follows one), so there the first word of a
// wrong drawing is the attempt's end, after pam_unix's delay (2 s, which libpam varies). The daemon ignores a
// login() while an attempt runs, without a word. So an attempt is taken as over 300 ms after two failures at
// once, or 4 s after the last failure; a drawing or password given before that waits for it (and the end's red
// is not painted over a newer drawing); and a login() that nothing answers within 5 s, longer than such an
// attempt takes, is sent again (a second one while the first runs is ignored, and a wrong pattern tried again is
// not counted), 4 times at most.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Window 2.15
import QtQml 2.15
import QtQml.Models 2.15
import "ModuleWords.js" as Words

Rectangle {
    id: root
    width: 1024
    height: 768
    color: config.background || "#1b1e20"

    // What the running attempt is for: "" (none), "pattern" (a drawing), "password" (typed), "done" (logged in).
    property string attempt: ""
    // The drawing's digits until the daemon answers (sent again if it seems to have ignored them).
    property string secret: ""
    property bool answered: false
    property int resends: 0
    // The attempt's first failure was shown (red): later ones of the same attempt are not.
    property bool failureShown: false
    // When the last loginFailed() came (ms); whether two came at once (the end of the attempt).
    property double lastFailure: 0
    property bool endSeen: false
    // What was given while an attempt still ran: sent when it is over.
    property string queuedDigits: ""
    property bool queuedPassword: false
    property string message: ""
    property bool messageIsError: false
    // A wait the module announced (SDDM 0.21 passes its words): the grid is dimmed until it has run out.
    property var wait: null
    property double waitEnds: 0

    // What the tests drive by (the grid's place) and a person chasing a problem reads, never a secret: off unless
    // asked for, with debug=true in theme.conf (or theme.conf.user beside it: SDDM 0.19 passes the greeter no
    // environment of ours), or QT_LOGGING_RULES=pam_pattern.greeter.debug=true where the greeter is started by hand
    // (sddm-greeter --test-mode).
    LoggingCategory {
        id: debugLog
        name: "pam_pattern.greeter"
        defaultLogLevel: LoggingCategory.Warning
    }

    function log(text) {
        if (config.debug === "true")
            console.log("pam_pattern: " + text)
        else
            console.log(debugLog, "pam_pattern: " + text)
    }

    function userName() {
        return users.currentIndex >= 0 ? users.textAt(users.currentIndex) : ""
    }

    // Where the dots are on the screen, logged once the window is shown and again when the layout changes:
    // what a test drives the pointer by. Never a secret.
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

    function submitPattern(digits) {
        if (attempt === "done") return
        if (attempt !== "") {
            queuedDigits = digits
            queuedPassword = false
            log("pattern queued")
            return
        }
        begin("pattern", digits)
        log("pattern sent")
        send()
    }

    function submitPassword() {
        if (password.text === "" || attempt === "done") return
        if (attempt !== "") {
            queuedPassword = true
            queuedDigits = ""
            log("password queued")
            return
        }
        begin("password", "")
        log("password sent")
        send()
    }

    function begin(kind, digits) {
        attempt = kind
        secret = digits
        answered = false
        resends = 0
        failureShown = false
        lastFailure = 0
        endSeen = false
        message = ""
    }

    function send() {
        sddm.login(userName(), attempt === "pattern" ? secret : password.text, sessions.currentIndex)
        resend.restart()
    }

    function heardBack() {
        answered = true
        secret = ""
        resend.stop()
    }

    function end() {
        var was = attempt
        attempt = ""
        heardBack()
        settle.stop()
        if (was === "password") {
            password.text = ""
            if (message === "") showMessage(Words.tr("Login failed"))
            log("wrong password")
        }
        if (!grid.locked && grid.phase === "checking") grid.reset()
        if (queuedDigits !== "") {
            var queued = queuedDigits
            queuedDigits = ""
            submitPattern(queued)
        } else if (queuedPassword) {
            queuedPassword = false
            submitPassword()
        }
    }

    // What a module said (SDDM 0.21 only), read back: a wait or a disabled pattern dims the grid.
    function heard(text) {
        log("message " + text)
        if (attempt !== "" && attempt !== "done") heardBack()
        var said = Words.read(text)
        if (said.kind === "other") {
            // Not pam_pattern's verdict ("Authentication failure" at the end, or its refusal of a typed
            // password as not a pattern): shown only when nothing else was said about a drawing.
            if (message === "" && attempt === "pattern") showMessage(text)
            return
        }
        showMessage(text)
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

    function showMessage(text) {
        message = text
        messageIsError = true
    }

    function failed() {
        var now = Date.now()
        if (attempt === "" || attempt === "done") {
            log("failure after the end")
            return
        }
        heardBack()
        if (lastFailure > 0 && now - lastFailure < 250) endSeen = true
        lastFailure = now
        // A drawing's verdict shows at once; a typed password's only at the end (pam_pattern's refusal of it
        // as a pattern is a failure too, and pam_unix may still take it).
        if (!failureShown && attempt === "pattern") {
            failureShown = true
            if (grid.locked) {
                // The module asked for no pattern (it is held back): nothing was judged, nothing is red.
                grid.reset()
                log("not asked: locked")
            } else if (queuedDigits !== "" || grid.pointer !== null) {
                // The grid already shows a newer drawing (waiting to be sent, or being drawn): not this one's red.
                log("wrong pattern, not shown over a newer drawing")
            } else {
                grid.showWrong()
                log("wrong pattern")
            }
            if (message === "") showMessage(Words.tr("Login failed"))
        }
        settle.interval = endSeen ? 300 : 4000
        settle.restart()
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

    Timer {
        id: settle
        onTriggered: {
            root.log("attempt over")
            root.end()
        }
    }

    Timer {
        id: resend
        interval: 5000
        repeat: true
        onTriggered: {
            if (root.answered) {
                stop()
            } else if (root.resends < 4) {
                root.resends += 1
                root.log("sent again")
                sddm.login(root.userName(), root.attempt === "pattern" ? root.secret : password.text,
                           sessions.currentIndex)
            } else {
                root.log("no answer")
                root.end()
            }
        }
    }

    Connections {
        target: sddm
        // informationMessage() is SDDM 0.21's (0.19 has no such signal): no warning where it is missing.
        ignoreUnknownSignals: true
        function onLoginFailed() { root.failed() }
        function onLoginSucceeded() {
            root.heardBack()
            settle.stop()
            root.attempt = "done"
            grid.phase = "success"
            password.text = ""
            root.log("logged in")
        }
        function onInformationMessage(text) { root.heard(text) }
    }

    Column {
        id: column
        anchors.centerIn: parent
        spacing: 12
        width: Math.min(parent.width * 0.8, 480)

        ComboBox {
            id: users
            anchors.horizontalCenter: parent.horizontalCenter
            width: Math.min(parent.width, 320)
            model: userModel
            textRole: "name"
            currentIndex: userModel.lastIndex >= 0 ? userModel.lastIndex : 0
            delegate: ItemDelegate {
                width: users.width
                text: model.realName !== "" ? model.realName + " (" + model.name + ")" : model.name
            }
            // The full name when the account has one (the model gives roles to delegates only: read below).
            displayText: currentIndex >= 0 && currentIndex < realNames.count && realNames.objectAt(currentIndex)
                         && realNames.objectAt(currentIndex).text !== "" ? realNames.objectAt(currentIndex).text : currentText
            Accessible.name: Words.tr("User")
            onActivated: password.forceActiveFocus()
        }

        Text {
            id: messageText
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
            trailVisible: config.trail !== "false"
            accessibleName: Words.tr("Pattern grid: draw your pattern")
            lockedAccessibleName: Words.tr("Pattern grid, locked: the message says how long")
            dotAccessibleName: Words.tr("Dot %s")
            onDrawn: function (digits) { root.submitPattern(digits) }
            onStarted: root.message = ""
            onShakenOff: function (count) { root.log("shaken off " + count) }
            onWidthChanged: geometryTimer.restart()
            onXChanged: geometryTimer.restart()
            onYChanged: geometryTimer.restart()
        }

        // Typing goes here at once (it has the focus): the password is never more than a keystroke away.
        TextField {
            id: password
            anchors.horizontalCenter: parent.horizontalCenter
            width: Math.min(parent.width, 320)
            echoMode: TextInput.Password
            placeholderText: Words.tr("Password")
            focus: true
            Accessible.name: Words.tr("Password")
            onAccepted: root.submitPassword()
        }

        ComboBox {
            id: sessions
            anchors.horizontalCenter: parent.horizontalCenter
            width: Math.min(parent.width, 320)
            model: sessionModel
            textRole: "name"
            currentIndex: sessionModel.lastIndex >= 0 ? sessionModel.lastIndex : 0
            Accessible.name: Words.tr("Session")
            onActivated: password.forceActiveFocus()
        }
    }

    Instantiator {
        id: realNames
        model: userModel
        delegate: QtObject { property string text: model.realName }
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
}
