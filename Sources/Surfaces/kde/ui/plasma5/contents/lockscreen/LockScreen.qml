// The KDE Plasma 5.27 lock screen (kscreenlocker_greet loads it from a look-and-feel package): the shared
// PatternLockScreen.qml with 5.27's `authenticator`, whose signals carry the text: promptForSecret(text) waits
// for respond(bytes) or cancel(); errorMessage/infoMessage carry what the modules say; succeeded() or failed()
// ends the run.
import QtQuick 2.15

PatternLockScreen {
    id: screen

    Connections {
        target: authenticator
        function onPromptForSecret(text) { screen.secretPrompted(text) }
        function onErrorMessage(text) { screen.heard(text, true) }
        function onInfoMessage(text) { screen.heard(text, false) }
        function onSucceeded() { screen.unlocked() }
        function onFailed() { screen.runEnded() }
    }
}
