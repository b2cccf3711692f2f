// The KDE Plasma lock screen with the pattern grid, for Plasma 5.27 and Plasma 6: each version's LockScreen.qml
// (plasma5/, plasma6/) is this with its greeter's `authenticator` connected to secretPrompted, heard, unlocked and
// runEnded, and the desktop's own parts around it (plasma5: Breeze's wallpaper, clock, avatar, buttons). It runs
// as the person, unprivileged: PAM (pam_pattern, through its setuid helper) decides; this only draws and relays.
//
// A run of PAM is always open, waiting at its first prompt: pam_pattern's (a drawing answers it at once; a typed
// password skips it with an empty answer, which it does not count) or, when there is no pattern to draw (none
// set, or held back: the module says why first), the password's. So the grid is shown as it is from the first
// frame it appears in: hidden without a pattern, dimmed with its countdown while locked. A run that ends
// without unlocking is followed by the next.
//
// Both versions' `authenticator` take respond(bytes) and cancel(); a run starts with tryUnlock() (5.27) or
// startAuthenticating() (6). The prompt texts are recognised in every shipped language by ModuleWords.js,
// generated from the message catalogue (po/module-words.py).
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Window 2.15
import QtQml 2.15
import "ModuleWords.js" as Words

Item {
    id: root

    // The plain surroundings (background, clock, avatar and name) for a greeter that brings none of its own.
    property bool plainChrome: true
    // Where the block (message, grid, password) starts, and what stands above its message (the avatar).
    property real blockTop: clock.y + clock.height + height * 0.03
    property alias userArea: userSlot.data
    property alias actionArea: actionSlot.data
    readonly property Item password: passwordLoader.item
    // Where the password field ends below blockTop: what an on-screen keyboard must leave uncovered.
    readonly property real passwordBottom: passwordLoader.y + passwordLoader.height
    property Component passwordFieldComponent: plainPasswordField

    Component {
        id: plainPasswordField
        TextField {}
    }

    // A steady cursor in whichever password field: the default one blinks, and each blink redraws the whole
    // locked screen (make bench: the idle lock screen's CPU).
    Component {
        id: steadyCursor
        Rectangle {
            width: 2
            color: parent ? parent.color : "black"
            visible: parent ? parent.activeFocus : false
        }
    }
    readonly property alias blockItem: column

    // What PAM waits for now: "" (nothing: a run starts or ends), "pattern" (pam_pattern's prompt),
    // "patternOrPassword" (its prompt under forward_pass: either answers it), "password" (the password's).
    property string awaiting: ""
    property bool running: false
    // This run: what was answered, and whether it asked anything at all.
    property bool drawingSent: false
    property bool passwordSent: false
    property bool runPrompted: false
    property bool lockHeard: false
    // Whether the grid's state is known (the first prompt, or what the module said before it), and whether
    // the person has a pattern to draw.
    property bool known: false
    property bool hasPattern: true
    // A drawing or a typed password made while no prompt waited: the next prompt takes it.
    property string queuedDigits: ""
    property bool passwordQueued: false
    property string message: ""
    // A typed password refused: said until the next try, also under a countdown.
    property string failureNote: ""
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

    // Plasma's own words where it has them (its lock screen's catalogue: 5.27's look-and-feel, 6's shell), else ours.
    property string plasmaDomain: "plasma_lookandfeel_org.kde.lookandfeel"

    // `ours`: the same words from our catalogue (Words.tr, so that po/extract-messages.py finds them).
    function plasmaSaid(text, ours) {
        var said = typeof i18nd === "function" ? i18nd(plasmaDomain, text) : text
        return said !== text ? said : ours
    }

    // Where the dots are on the screen (global coordinates), logged once the window is on screen and has the input (the first
    // frame drawn while active) and the grid's state is known, and again when the layout changes: what a test drives the pointer by.
    property bool shown: false

    function reportGeometry() {
        if (grid.width <= 0 || !shown || !known) return
        var centres = []
        for (var dot = 1; dot <= 9; ++dot) {
            var local = grid.dotCenter(dot)
            var point = grid.mapToGlobal(local.x, local.y)
            centres.push(Math.round(point.x) + "," + Math.round(point.y))
        }
        log("grid " + centres.join(" "))
        var parts = [messageText, passwordLoader].concat(shownParts)
        for (var p = 0; p < parts.length; ++p) {
            var at = parts[p].mapToGlobal(0, 0)
            log("box " + parts[p].objectName + " " + [at.x, at.y, parts[p].width, parts[p].height].map(Math.round).join(",")
                + " " + textsOf(parts[p]).join(" | "))
        }
    }

    // The parts of the screen around the grid that a test looks for (LockScreen.qml names its own): where each is
    // and what it says, logged with the grid.
    property var shownParts: []

    function textsOf(item) {
        var texts = item.visible && typeof item.text === "string" && item.text !== "" ? [item.text] : []
        for (var c = 0; c < item.children.length; ++c) texts = texts.concat(textsOf(item.children[c]))
        return texts
    }

    onKnownChanged: {
        if (!hasPattern) log("no pattern")
        reportGeometry()
    }

    // What the module said, read back (ModuleWords.read): a wait or a disabled pattern locks the grid. Its
    // sentence for a forgotten pattern becomes the one for a screen (ModuleWords.atScreen).
    function heard(text, isError) {
        if (text === "") return
        message = Words.atScreen(text)
        messageIsError = isError
        log("message " + message)
        var said = Words.read(text)
        if (said.kind === "wait") {
            lockHeard = true
            wait = said
            wait.route = said.route === "" ? "" : Words.screenRoute(said.language)
            waitEnds = Date.now() + said.seconds * 1000
            grid.locked = true
            nextTick()
            log("locked for " + said.seconds + " s")
        } else if (said.kind === "disabled") {
            lockHeard = true
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
            // The run waiting at the password's prompt ends: the next one asks for the pattern again.
            if (awaiting === "password" && !passwordQueued) authenticator.cancel()
            return
        }
        message = Words.waitSaid(wait.language, left, wait.route) + (failureNote ? "\n" + failureNote : "")
        log("countdown " + left)
        nextTick()
    }

    // Each tick just after the wait's next whole second, so a late tick (a busy machine) never says the same
    // number twice.
    Timer {
        id: countdown
        onTriggered: root.tick()
    }

    function nextTick() {
        countdown.interval = (waitEnds - Date.now()) % 1000 + 20
        countdown.restart()
    }

    function beginRun() {
        running = true
        awaiting = ""
        drawingSent = false
        passwordSent = false
        runPrompted = false
        lockHeard = false
        if (typeof authenticator.startAuthenticating === "function")
            authenticator.startAuthenticating()
        else
            authenticator.tryUnlock()
    }

    // A run that asked nothing (PAM refused at once) is tried again a while later, not in a loop.
    Timer {
        id: retry
        interval: 2000
        onTriggered: if (!root.running) root.beginRun()
    }

    // Until PAM's first answer, the grid is not shown; if it is slow to come, the grid is shown as it was.
    Timer {
        id: firstAnswer
        interval: 3000
        running: true
        onTriggered: root.known = true
    }

    function sendDrawing(digits) {
        awaiting = ""
        drawingSent = true
        log("pattern sent")
        authenticator.respond(digits)
    }

    function sendPassword() {
        awaiting = ""
        passwordSent = true
        passwordQueued = false
        authenticator.respond(password.text)
    }

    function submitPattern(digits) {
        message = ""
        failureNote = ""
        if (awaiting === "pattern" || awaiting === "patternOrPassword") {
            sendDrawing(digits)
            return
        }
        // No pattern prompt waits: this drawing answers the next one.
        queuedDigits = digits
        if (awaiting === "password") authenticator.cancel()
        else if (!running) beginRun()
    }

    function submitPassword() {
        if (password.text === "") return
        message = ""
        failureNote = ""
        queuedDigits = ""
        if (awaiting === "password" || awaiting === "patternOrPassword") {
            sendPassword()
        } else if (awaiting === "pattern") {
            awaiting = ""
            passwordQueued = true
            authenticator.respond("")
        } else {
            passwordQueued = true
            if (!running) beginRun()
        }
    }

    Rectangle {
        anchors.fill: parent
        color: "#1b1e20"
        visible: root.plainChrome
    }

    Text {
        id: clock
        anchors.horizontalCenter: parent.horizontalCenter
        y: parent.height * 0.06
        visible: root.plainChrome
        color: "white"
        font.pixelSize: Math.max(24, parent.height / 12)
        text: root.clockText()
        // Woken when the minute turns, not every second: the clock shows no seconds (make bench: idle CPU).
        Timer {
            interval: 60000 - Date.now() % 60000 + 50
            running: root.plainChrome
            onTriggered: {
                clock.text = root.clockText()
                interval = 60000 - Date.now() % 60000 + 50
                restart()
            }
        }
    }

    // Hours and minutes in the locale's short form, without the seconds some locales' (C's) short form has.
    function clockText() {
        var format = Qt.locale().timeFormat(Locale.ShortFormat).replace(/[:.]ss?/, "")
        return Qt.formatTime(new Date(), format)
    }

    Column {
        id: column
        anchors.horizontalCenter: parent.horizontalCenter
        y: root.blockTop
        onYChanged: geometryTimer.restart()
        spacing: 12
        width: Math.min(parent.width * 0.8, 480)

        Item {
            id: userSlot
            width: parent.width
            height: childrenRect.height
            visible: children.length > 0
        }

        Image {
            anchors.horizontalCenter: parent.horizontalCenter
            source: kscreenlocker_userImage
            visible: root.plainChrome && kscreenlocker_userImage !== ""
            width: 64
            height: 64
            fillMode: Image.PreserveAspectCrop
        }

        Text {
            width: parent.width
            visible: root.plainChrome
            horizontalAlignment: Text.AlignHCenter
            color: "white"
            font.pixelSize: 20
            text: kscreenlocker_userName
        }

        // Three lines are kept for what PAM says, shown or not: nothing below moves when a message comes.
        Text {
            id: messageText
            objectName: "message"
            width: parent.width
            height: Math.ceil(messageMetrics.height * 3)
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
            FontMetrics {
                id: messageMetrics
                font: messageText.font
            }
        }

        PatternGrid {
            id: grid
            objectName: "grid"
            anchors.horizontalCenter: parent.horizontalCenter
            width: Math.min(root.width, root.height) * (root.plainChrome ? 0.42 : 0.34)
            height: width
            // Shown once PAM has said whether there is a pattern to draw; never without one.
            opacity: root.known && root.hasPattern ? 1 : 0
            enabled: root.known && root.hasPattern
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

        // The password field: the greeter's own kind where LockScreen.qml gives one (passwordFieldComponent), a
        // plain one otherwise.
        Loader {
            id: passwordLoader
            objectName: "password field"
            anchors.horizontalCenter: parent.horizontalCenter
            width: Math.min(parent.width, 320)
            sourceComponent: root.passwordFieldComponent
            onLoaded: {
                item.objectName = "password"
                item.width = Qt.binding(function () { return passwordLoader.width })
                item.echoMode = TextInput.Password
                item.placeholderText = root.plasmaSaid("Password", Words.tr("Password"))
                item.Accessible.name = item.placeholderText
                item.focus = true
                item.cursorDelegate = steadyCursor
                item.accepted.connect(root.submitPassword)
            }
        }

        Row {
            id: actionSlot
            anchors.horizontalCenter: parent.horizontalCenter
            spacing: 12
        }
    }

    // What a LockScreen.qml calls when one of its shownParts moves: all places are logged again.
    function partsMoved() {
        geometryTimer.restart()
    }

    Timer {
        id: geometryTimer
        interval: 200
        onTriggered: root.reportGeometry()
    }

    Component.onCompleted: {
        if (password) password.forceActiveFocus()
        beginRun()
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

    // What the greeter's authenticator says (LockScreen.qml connects it).
    function secretPrompted(prompt) {
        runPrompted = true
        var kind = Words.promptKind(prompt)
        if (kind !== "password") {
            firstAnswer.stop()
            hasPattern = true
            known = true
            if (queuedDigits !== "") {
                var digits = queuedDigits
                queuedDigits = ""
                sendDrawing(digits)
            } else if (passwordQueued && kind === "patternOrPassword") {
                sendPassword()
            } else if (passwordQueued) {
                authenticator.respond("")  // skipped, not counted; the password answers the next prompt
            } else {
                awaiting = kind
            }
            return
        }
        if (drawingSent) {
            // The drawing was not taken (the module said why: wrong, or now held back). This run only waits for
            // the password now; the next drawing is for the next run.
            authenticator.cancel()
            return
        }
        if (!known) {
            firstAnswer.stop()
            // The password first: no pattern to draw, unless the module said it is held back.
            hasPattern = lockHeard
            known = true
        }
        if (passwordQueued) sendPassword()
        else awaiting = "password"
    }

    function unlocked() {
        grid.phase = "success"
        password.text = ""
        root.log("unlocked")
        Qt.quit()
    }

    // The run of pam_authenticate ended without unlocking.
    function runEnded() {
        running = false
        awaiting = ""
        if (drawingSent) {
            if (grid.phase === "checking") grid.showWrong()
            root.log("wrong pattern")
        } else if (passwordSent) {
            password.text = ""
            // Said every time, in Plasma's words, in place of whatever stood there (a countdown goes on above it).
            root.failureNote = root.plasmaSaid("Unlocking failed", Words.tr("Unlocking failed"))
            root.message = root.wait === null ? root.failureNote : root.message + "\n" + root.failureNote
            root.messageIsError = true
            root.log("message " + root.message)
            root.log("wrong password")
        }
        if (queuedDigits !== "" || passwordQueued || runPrompted) beginRun()
        else retry.restart()
    }
}
