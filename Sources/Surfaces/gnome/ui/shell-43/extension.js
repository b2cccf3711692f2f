// pam_pattern's GNOME Shell extension, GNOME Shell 43's entry point (a legacy GJS module: init() and the object
// it returns): at the lock screen and at GDM's login, the unlock pattern is drawn on a grid under the prompt when
// pam_pattern asks for it (patternPrompt.js, hooked into the shell by promptHooks.js); the password field stays.
// Kept enabled in the lock screen and the greeter by metadata.json's session-modes.
const Me = imports.misc.extensionUtils.getCurrentExtension();
const { PromptHooks } = Me.imports.promptHooks;

function init() {
    return new PromptHooks();
}
