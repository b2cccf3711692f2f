// The KDE Plasma 6 lock screen (kscreenlocker_greet loads it from a shell package): the shared
// PatternLockScreen.qml with 6's `authenticator` (PamAuthenticators), whose texts are properties announced by
// ...Changed signals: promptForSecret waits for respond(bytes) or cancel(); errorMessage/infoMessage carry what
// the modules say; succeeded() or failed(what, authenticator) ends a run (what 0: the interactive one, ours; a
// fingerprint or smart card authenticator reports its own).
//
// Around it, Plasma 6's own lock screen (Breeze) as the person knows it, its parts imported from Plasma's QML
// module org.kde.breeze.components, never copied: the lock-screen wallpaper the greeter loads from
// kscreenlockerrc (`wallpaper`, faded by WallpaperFader), the clock and date, the avatar (UserDelegate), Breeze's
// password field, switch user (where the greeter can), the keyboard layout (where there is more than one), the
// on-screen keyboard (where Qt's virtual keyboard is installed) and the battery.
import QtQuick
import QtQuick.Layouts
import org.kde.kirigami as Kirigami
import org.kde.plasma.components as PlasmaComponents3
import org.kde.plasma.extras as PlasmaExtras
import org.kde.plasma.workspace.components as PW
import org.kde.plasma.private.sessions
import org.kde.breeze.components as Breeze

PatternLockScreen {
    id: screen
    plainChrome: false
    plasmaDomain: "plasma_shell_org.kde.plasma.desktop"
    // Below the clock; while the on-screen keyboard is up, as high as it takes for the password field to show
    // above it, as Breeze moves its own.
    blockTop: {
        var below = clock.y + clock.height + Kirigami.Units.largeSpacing
        if (!inputPanel.keyboardActive) return below
        return Math.min(below, inputPanel.y + inputPanel.item.y - screen.passwordBottom - Kirigami.Units.largeSpacing)
    }
    shownParts: [clock, avatar, virtualKeyboardButton]
    // Light text on the darkened wallpaper, as Breeze's lock screen has it.
    Kirigami.Theme.inherit: false
    Kirigami.Theme.colorSet: Kirigami.Theme.Complementary

    // The names Breeze's components look up in the lock screen that holds them.
    property bool viewVisible: false
    property bool suspendToRamSupported: false
    property bool suspendToDiskSupported: false
    signal suspendToDisk()
    signal suspendToRam()

    passwordFieldComponent: Component {
        PlasmaExtras.PasswordField {
            font.pointSize: Kirigami.Theme.defaultFont.pointSize + 1
        }
    }

    Connections {
        target: authenticator
        // Emptied when the greeter (re)makes its authenticator: no question then.
        function onPromptForSecretChanged() {
            if (authenticator.promptForSecret !== "") screen.secretPrompted(authenticator.promptForSecret)
        }
        function onErrorMessageChanged() { screen.heard(authenticator.errorMessage, true) }
        function onInfoMessageChanged() { screen.heard(authenticator.infoMessage, false) }
        function onSucceeded() { screen.unlocked() }
        function onFailed(what, which) { if (what === 0) screen.runEnded() }
    }

    // The greeter may have started the run itself before this screen was made: a question already waiting is
    // taken as if it had just come.
    Component.onCompleted: Qt.callLater(function () {
        if (authenticator.promptForSecret !== "" && screen.awaiting === "") screen.secretPrompted(authenticator.promptForSecret)
    })

    Item {
        id: lockScreenRoot
        anchors.fill: parent
        z: -1
        property bool uiVisible: true

        Breeze.WallpaperFader {
            anchors.fill: parent
            state: "on"
            source: wallpaper
            mainStack: screen.blockItem
            footer: footer
            clock: clock
        }
    }

    Breeze.Clock {
        id: clock
        objectName: "clock"
        // Breeze's fader shows a shadow behind the clock while the rest is faded out; this screen never fades.
        property Item shadow: Item {}
        anchors.horizontalCenter: parent.horizontalCenter
        y: Kirigami.Units.gridUnit * 2
        // Under the raised block while the on-screen keyboard is up, as Breeze's is.
        visible: !inputPanel.keyboardActive
    }

    userArea: Breeze.UserDelegate {
        id: avatar
        objectName: "avatar"
        // Shown while the block is on screen (the on-screen keyboard may push it up), as Breeze's user list.
        opacity: screen.blockTop >= 0 ? 1 : 0
        width: screen.blockItem.width
        height: faceSize + Kirigami.Units.gridUnit * 2
        faceSize: Kirigami.Units.gridUnit * 4
        name: kscreenlocker_userName
        avatarPath: kscreenlocker_userImage !== "" ? "file://" + kscreenlocker_userImage.split("/").map(encodeURIComponent).join("/") : ""
        iconSource: "user-identity"
    }

    SessionsModel {
        id: sessionsModel
        showNewSessionEntry: false
    }

    actionArea: Breeze.ActionButton {
        objectName: "switchUser"
        text: i18nd("plasma_shell_org.kde.plasma.desktop", "Switch User")
        icon.name: "system-switch-user"
        visible: sessionsModel.canStartNewSession && sessionsModel.canSwitchUser
        // A new session, locking this one (the greeter's session switcher is Breeze's, not shown here).
        onClicked: sessionsModel.startNewSession(true)
    }

    Loader {
        id: inputPanel
        readonly property bool keyboardActive: item ? item.active : false
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        // Qt's on-screen keyboard, as Breeze has it: loaded where QtQuick.VirtualKeyboard is installed, shown
        // on demand by the footer's button.
        source: "qrc:/qt/qml/org/kde/breeze/components/VirtualKeyboard.qml"
        function showHide() {
            if (!item) return
            item.activated = !item.activated
            if (item.activated) Qt.inputMethod.show()
            else Qt.inputMethod.hide()
        }
    }

    RowLayout {
        id: footer
        anchors.bottom: parent.bottom
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.margins: Kirigami.Units.smallSpacing
        visible: !inputPanel.keyboardActive
        onYChanged: screen.partsMoved()

        PlasmaComponents3.ToolButton {
            id: virtualKeyboardButton
            objectName: "virtualKeyboard"
            focusPolicy: Qt.TabFocus
            text: i18ndc("plasma_shell_org.kde.plasma.desktop", "Button to show/hide virtual keyboard", "Virtual Keyboard")
            icon.name: inputPanel.keyboardActive ? "input-keyboard-virtual-on" : "input-keyboard-virtual-off"
            onClicked: {
                screen.password.forceActiveFocus()
                inputPanel.showHide()
            }
            visible: inputPanel.status === Loader.Ready
        }

        PlasmaComponents3.ToolButton {
            objectName: "keyboardLayout"
            focusPolicy: Qt.TabFocus
            Accessible.description: i18ndc("plasma_shell_org.kde.plasma.desktop", "Button to change keyboard layout", "Switch layout")
            icon.name: "input-keyboard"
            PW.KeyboardLayoutSwitcher {
                id: keyboardLayoutSwitcher
                anchors.fill: parent
                acceptedButtons: Qt.NoButton
            }
            text: keyboardLayoutSwitcher.layoutNames.longName
            onClicked: keyboardLayoutSwitcher.keyboardLayout.switchToNextLayout()
            visible: keyboardLayoutSwitcher.hasMultipleKeyboardLayouts
        }

        Item {
            Layout.fillWidth: true
        }

        Breeze.Battery {}
    }
}
