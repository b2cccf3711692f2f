// Qt's on-screen keyboard for the login screen (Main.qml makes it where the greeter runs with Qt's virtual
// keyboard input method): the panel is in the theme's own scene, across the bottom, shown only after its button
// was pressed and while a text field wants input, so a touch-only machine can type its password.
import QtQuick 2.15
import QtQuick.VirtualKeyboard 2.1

InputPanel {
    id: panel
    objectName: "virtualKeyboard"
    // Pressed the button: show the keys whenever a field has the focus.
    property bool activated: false
    active: activated && Qt.inputMethod.visible
    visible: active
}
