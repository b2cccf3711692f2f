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
//
// Around the grid, what SDDM's own Breeze theme shows, from what SDDM gives a theme (its context properties,
// read in 0.19's and 0.21's greeter): the clock and the date in the greeter's locale, the hostname
// (sddm.hostName), the users with their pictures (userModel's icon), the session (sessionModel), the keyboard
// layout (keyboard), shut down / restart / sleep through the daemon (sddm.powerOff() etc., shown as
// sddm.canPowerOff etc. say), and Qt's on-screen keyboard (VirtualKeyboard.qml) behind a button. Breeze's own
// components are not imported: on Plasma 5.27 they are files inside its theme that need plasma-framework (which
// SDDM without Plasma, as on LXQt, does not have), and Plasma 6 moved them into a module of a different API.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Window 2.15
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
        var account = users.currentIndex >= 0 ? accounts.objectAt(users.currentIndex) : null
        return account ? account.name : ""
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
        // The buttons shown around it (for a test's pointer) and what the header says (never a secret).
        var places = []
        var controls = [suspendButton, rebootButton, powerOffButton, keyboardButton]
        for (var c = 0; c < controls.length; ++c) {
            var control = controls[c]
            if (!control.visible) continue
            var middle = control.mapToGlobal(control.width / 2, control.height / 2)
            places.push(control.objectName + "=" + Math.round(middle.x) + "," + Math.round(middle.y))
        }
        log("controls " + places.join(" "))
        var field = password.mapToGlobal(password.width / 2, password.height / 2)
        log("password field " + Math.round(field.x) + "," + Math.round(field.y))
        log("header " + clock.text + " | " + date.text + " | " + hostName.text)
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
            if (message === "") showMessage(Words.tr("Login Failed"))
            passwordShake.restart()
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
        showMessage(atScreen(text, said))
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

    // The module's way out of a forgotten pattern is a command (patternctl set --forgot) or an administrator:
    // at a login screen it is the password, said in the module's language.
    function screenRoute(language) {
        return Words.languageNamed(language).routeScreen
    }

    function atScreen(text, said) {
        if (said.route === "") return text
        return text.slice(0, text.length - said.route.length) + screenRoute(said.language)
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
            if (message === "") showMessage(Words.tr("Login Failed"))
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
        message = Words.waitSaid(wait.language, left, wait.route ? screenRoute(wait.language) : "")
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

    // The clock and the date as Breeze shows them (the locale's short time, long date), and the machine's name.
    Column {
        id: header
        anchors.top: parent.top
        anchors.topMargin: 24
        anchors.horizontalCenter: parent.horizontalCenter
        spacing: 2
        visible: !root.keyboardShown

        Text {
            id: clock
            objectName: "clock"
            anchors.horizontalCenter: parent.horizontalCenter
            color: "white"
            font.pixelSize: 44
            text: root.now.toLocaleTimeString(Qt.locale(), Locale.ShortFormat)
        }
        Text {
            id: date
            objectName: "date"
            anchors.horizontalCenter: parent.horizontalCenter
            color: "white"
            font.pixelSize: 18
            text: root.now.toLocaleDateString(Qt.locale(), Locale.LongFormat)
        }
        Text {
            id: hostName
            objectName: "hostName"
            anchors.horizontalCenter: parent.horizontalCenter
            color: "#bdc3c7"
            font.pixelSize: 14
            // A line of its own even before the daemon has said the name: nothing below moves when it comes.
            height: Math.ceil(font.pixelSize * 1.4)
            text: sddm.hostName
        }
    }

    property date now: new Date()
    Timer {
        interval: 1000
        repeat: true
        running: true
        onTriggered: root.now = new Date()
    }

    Column {
        id: column
        anchors.horizontalCenter: parent.horizontalCenter
        // Just above the on-screen keyboard while it is shown (the clock gives way), so the password field stays in
        // sight.
        // Otherwise from sizes that are fixed once the screen's is known (not from what the daemon sends later,
        // fonts or the field's style): the grid stays where the first frame put it.
        y: keyboardShown ? root.height - keyboardPanel.height - height - 8
                         : Math.round(Math.max(140, (root.height - users.height - messageText.height - grid.height
                                                     - 2 * spacing - 60) / 2))
        spacing: 10
        width: Math.min(parent.width * 0.8, 480)

        // The users, each with the picture SDDM gives (userModel's icon: AccountsService's or ~/.face.icon, else
        // SDDM's default face), the chosen one brighter.
        ListView {
            id: users
            objectName: "users"
            anchors.horizontalCenter: parent.horizontalCenter
            width: Math.min(parent.width, count * 104)
            height: 96
            orientation: ListView.Horizontal
            interactive: contentWidth > width
            model: userModel
            currentIndex: userModel.lastIndex >= 0 ? userModel.lastIndex : 0
            Accessible.role: Accessible.List
            Accessible.name: Words.tr("User")
            delegate: Item {
                width: 104
                height: 96
                opacity: ListView.isCurrentItem ? 1 : 0.55
                Accessible.role: Accessible.ListItem
                Accessible.name: label.text
                Rectangle {
                    id: face
                    anchors.horizontalCenter: parent.horizontalCenter
                    width: 64
                    height: 64
                    radius: 32
                    color: "#31363b"
                    border.color: parent.ListView.isCurrentItem ? "#3daee9" : "#7f8c8d"
                    border.width: 2
                    clip: true
                    Image {
                        id: picture
                        anchors.fill: parent
                        anchors.margins: 2
                        source: model.icon ? String(model.icon) : ""
                        fillMode: Image.PreserveAspectCrop
                        sourceSize.width: 64
                        sourceSize.height: 64
                    }
                    Text {
                        anchors.centerIn: parent
                        visible: picture.status !== Image.Ready
                        color: "white"
                        font.pixelSize: 28
                        text: String(model.realName || model.name).charAt(0).toUpperCase()
                    }
                }
                Text {
                    id: label
                    anchors.top: face.bottom
                    anchors.topMargin: 6
                    width: parent.width
                    horizontalAlignment: Text.AlignHCenter
                    elide: Text.ElideRight
                    color: "white"
                    font.pixelSize: 14
                    text: model.realName !== "" ? model.realName : model.name
                }
                MouseArea {
                    anchors.fill: parent
                    onClicked: {
                        users.currentIndex = index
                        password.forceActiveFocus()
                    }
                }
            }
        }

        // Room for three lines whether or not anything is said: nothing moves under the pointer when a message
        // comes or goes.
        Text {
            id: messageText
            objectName: "message"
            width: parent.width
            height: 3 * Math.ceil(font.pixelSize * 1.35)
            horizontalAlignment: Text.AlignHCenter
            verticalAlignment: Text.AlignBottom
            wrapMode: Text.WordWrap
            maximumLineCount: 3
            elide: Text.ElideRight
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
            width: Math.min(root.width, root.height) * 0.36
            height: width
            trailVisible: config.trail !== "false"
            accessibleName: Words.tr("Pattern grid: draw your pattern")
            lockedAccessibleName: Words.tr("Pattern grid, locked: the message says how long")
            dotAccessibleName: Words.tr("Dot %s")
            onDrawn: function (digits) { root.submitPattern(digits) }
            onStarted: root.message = ""
            shakesItself: false  // the theme shakes the whole grid (below): one movement
            onShakenOff: function (count) {
                shake.restart()
                root.log("shaken off " + count)
            }
            onWidthChanged: geometryTimer.restart()
            onXChanged: geometryTimer.restart()
            onYChanged: geometryTimer.restart()
            // A too-short drawing: the grid shakes once (the dots stay where they are for the next press).
            transform: Translate { id: shaking }
            SequentialAnimation {
                id: shake
                NumberAnimation { target: shaking; property: "x"; to: -14; duration: 50 }
                NumberAnimation { target: shaking; property: "x"; to: 14; duration: 80 }
                NumberAnimation { target: shaking; property: "x"; to: -10; duration: 80 }
                NumberAnimation { target: shaking; property: "x"; to: 6; duration: 70 }
                NumberAnimation { target: shaking; property: "x"; to: 0; duration: 60 }
            }
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
            // A refused password: the field shakes as Breeze's does, and the message says so.
            transform: Translate { id: passwordShaking }
            SequentialAnimation {
                id: passwordShake
                NumberAnimation { target: passwordShaking; property: "x"; to: -10; duration: 50 }
                NumberAnimation { target: passwordShaking; property: "x"; to: 10; duration: 80 }
                NumberAnimation { target: passwordShaking; property: "x"; to: -6; duration: 80 }
                NumberAnimation { target: passwordShaking; property: "x"; to: 0; duration: 60 }
            }
        }
    }

    // Session, keyboard layout and on-screen keyboard on the left; sleep, restart, shut down on the right.
    Item {
        id: footer
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        anchors.margins: 12
        height: 40
        visible: !root.keyboardShown

        Row {
            anchors.left: parent.left
            anchors.verticalCenter: parent.verticalCenter
            spacing: 8

            ComboBox {
                id: sessions
                width: 220
                model: sessionModel
                textRole: "name"
                currentIndex: sessionModel.lastIndex >= 0 ? sessionModel.lastIndex : 0
                Accessible.name: Words.tr("Session")
                onActivated: password.forceActiveFocus()
            }

            // The layouts SDDM found (keyboard.layouts); choosing one switches the keyboard as Breeze's button does.
            ComboBox {
                id: layouts
                objectName: "keyboardLayout"
                width: 160
                visible: keyboard.layouts.length > 0
                enabled: keyboard.layouts.length > 1
                model: keyboard.layouts
                textRole: "longName"
                currentIndex: keyboard.currentLayout
                Accessible.name: Words.tr("Keyboard layout")
                onActivated: function (index) {
                    keyboard.currentLayout = index
                    password.forceActiveFocus()
                }
            }

            Button {
                id: keyboardButton
                objectName: "virtualKeyboardButton"
                visible: root.keyboardPanel !== null
                text: Words.tr("Virtual Keyboard")
                onClicked: root.showKeyboard(true)
            }
        }

        Row {
            anchors.right: parent.right
            anchors.verticalCenter: parent.verticalCenter
            spacing: 8

            Button {
                id: suspendButton
                objectName: "suspend"
                visible: sddm.canSuspend
                text: Words.tr("Sleep")
                onClicked: {
                    root.log("suspend")
                    sddm.suspend()
                }
            }
            Button {
                id: rebootButton
                objectName: "reboot"
                visible: sddm.canReboot
                text: Words.tr("Restart")
                onClicked: {
                    root.log("reboot")
                    sddm.reboot()
                }
            }
            Button {
                id: powerOffButton
                objectName: "powerOff"
                visible: sddm.canPowerOff
                text: Words.tr("Shut Down")
                onClicked: {
                    root.log("power off")
                    sddm.powerOff()
                }
            }
        }
    }

    // Qt's on-screen keyboard, in the theme's own window (where the greeter runs with
    // QT_IM_MODULE=qtvirtualkeyboard and no panel is in the scene, Qt opens a window of its own over the whole
    // screen instead), hidden until its button is pressed. It can be made only where the greeter runs with that
    // input method (Qt 5's panel needs the plugin's types) and the module is installed; elsewhere there is no
    // panel and no button, and nothing is said (SDDM's InputMethod= setting turns it off on purpose).
    property var keyboardPanel: null
    readonly property bool keyboardShown: keyboardPanel !== null && keyboardPanel.active

    function makeKeyboard() {
        var component = Qt.createComponent("VirtualKeyboard.qml")
        if (component.status !== Component.Ready) {
            log("no on-screen keyboard")
            return
        }
        keyboardPanel = component.createObject(root, { "width": Qt.binding(function () { return root.width }) })
        keyboardPanel.y = Qt.binding(function () { return root.height - keyboardPanel.height })
        log("on-screen keyboard ready")
    }

    function showKeyboard(on) {
        if (keyboardPanel === null) return
        keyboardPanel.activated = on
        password.forceActiveFocus()
        if (on) Qt.inputMethod.show()
        log(on ? "keyboard shown" : "keyboard hidden")
        geometryTimer.restart()
    }

    // The model gives its roles to delegates only: the chosen account's name is read here.
    Instantiator {
        id: accounts
        model: userModel
        delegate: QtObject { property string name: model.name }
    }

    Timer {
        id: geometryTimer
        interval: 200
        onTriggered: root.reportGeometry()
    }

    Component.onCompleted: {
        makeKeyboard()
        password.forceActiveFocus()
    }

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
