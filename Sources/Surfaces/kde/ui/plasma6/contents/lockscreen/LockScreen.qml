// The KDE Plasma 6 lock screen (kscreenlocker_greet loads it from a shell package): the shared
// PatternLockScreen.qml with 6's `authenticator` (PamAuthenticators), whose texts are properties announced by
// ...Changed signals: promptForSecret waits for respond(bytes) or cancel(); errorMessage/infoMessage carry what
// the modules say; succeeded() or failed(what, authenticator) ends a run (what 0: the interactive one, ours; a
// fingerprint or smart card authenticator reports its own).
import QtQuick

PatternLockScreen {
    id: screen

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
}
