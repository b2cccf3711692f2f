// The KDE Plasma 5.27 lock screen (kscreenlocker_greet loads it from a look-and-feel package): the shared
// PatternLockScreen.qml with 5.27's `authenticator`, whose signals carry the text: promptForSecret(text) waits
// for respond(bytes) or cancel(); errorMessage/infoMessage carry what the modules say; succeeded() or failed()
// ends the run.
//
// Around it, Plasma's own lock screen (Breeze) as the person knows it, its parts imported from where Plasma
// installs them, never copied: the lock-screen wallpaper the greeter loads from kscreenlockerrc (`wallpaper`,
// faded and blurred by Breeze's WallpaperFader), Breeze's clock and date, the avatar (UserDelegate), switch
// user (where the greeter can), the keyboard layout (where there is more than one), the on-screen keyboard
// (where Qt's virtual keyboard is installed) and the battery.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.plasma.extras 2.0 as PlasmaExtras
import org.kde.plasma.workspace.components 2.0 as PW
import org.kde.plasma.private.sessions 2.0
import "file:///usr/share/plasma/look-and-feel/org.kde.breeze.desktop/contents/components" as Breeze

PatternLockScreen {
    id: screen
    plainChrome: false
    // Light text on the darkened wallpaper, as Breeze's lock screen has it.
    PlasmaCore.ColorScope.colorGroup: PlasmaCore.Theme.ComplementaryColorGroup
    PlasmaCore.ColorScope.inherit: false
    // Below the clock; while the on-screen keyboard is up, as high as it takes for the password field to show
    // above it, as Breeze moves its own.
    blockTop: {
        var below = clock.y + clock.height + PlasmaCore.Units.largeSpacing
        if (!inputPanel.keyboardActive) return below
        return Math.min(below, inputPanel.y + inputPanel.item.y - screen.passwordBottom - PlasmaCore.Units.largeSpacing)
    }
    shownParts: [clock, avatar, virtualKeyboardButton]
    // Breeze's password field (with its button that shows what is typed).
    passwordFieldComponent: Component {
        PlasmaExtras.PasswordField {
            font.pointSize: PlasmaCore.Theme.defaultFont.pointSize + 1
        }
    }

    // The names Breeze's components look up in the lock screen that holds them.
    property bool viewVisible: false
    property bool suspendToRamSupported: false
    property bool suspendToDiskSupported: false
    signal suspendToDisk()
    signal suspendToRam()

    Connections {
        target: authenticator
        function onPromptForSecret(text) { screen.secretPrompted(text) }
        function onErrorMessage(text) { screen.heard(text, true) }
        function onInfoMessage(text) { screen.heard(text, false) }
        function onSucceeded() { screen.unlocked() }
        function onFailed() { screen.runEnded() }
    }

    PlasmaCore.ColorScope {
        id: lockScreenRoot
        anchors.fill: parent
        z: -1
        colorGroup: PlasmaCore.Theme.ComplementaryColorGroup
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
        y: PlasmaCore.Units.gridUnit * 2
        // Under the raised block while the on-screen keyboard is up, as Breeze's is.
        visible: !inputPanel.keyboardActive
    }

    userArea: Breeze.UserDelegate {
        id: avatar
        objectName: "avatar"
        // Shown while the block is on screen (the on-screen keyboard may push it up), as Breeze's user list.
        opacity: screen.blockTop >= 0 ? 1 : 0
        width: screen.blockItem.width
        height: faceSize + PlasmaCore.Units.gridUnit * 2
        faceSize: PlasmaCore.Units.gridUnit * 4
        name: kscreenlocker_userName
        avatarPath: kscreenlocker_userImage
        iconSource: "user-identity"
    }

    SessionsModel {
        id: sessionsModel
        showNewSessionEntry: false
    }

    actionArea: Breeze.ActionButton {
        objectName: "switchUser"
        text: i18nd("plasma_lookandfeel_org.kde.lookandfeel", "Switch User")
        iconSource: "system-switch-user"
        iconSize: PlasmaCore.Units.gridUnit * 2
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
        source: "file:///usr/share/plasma/look-and-feel/org.kde.breeze.desktop/contents/components/VirtualKeyboard.qml"
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
        anchors.margins: PlasmaCore.Units.smallSpacing
        visible: !inputPanel.keyboardActive
        onYChanged: screen.partsMoved()

        PlasmaComponents3.ToolButton {
            id: virtualKeyboardButton
            objectName: "virtualKeyboard"
            focusPolicy: Qt.TabFocus
            text: i18ndc("plasma_lookandfeel_org.kde.lookandfeel", "Button to show/hide virtual keyboard", "Virtual Keyboard")
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
            Accessible.description: i18ndc("plasma_lookandfeel_org.kde.lookandfeel", "Button to change keyboard layout", "Switch layout")
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
