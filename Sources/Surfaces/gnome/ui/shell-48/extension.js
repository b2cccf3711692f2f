// pam_pattern's GNOME Shell extension, GNOME Shell 48's entry point (an ES module, as extensions are since 45):
// the same grid and hooks as 43's (promptHooks.js, patternPrompt.js, patternGrid.js: one source, made into ES
// modules by the build, es_module.py). Kept enabled in the lock screen and the greeter by metadata.json's
// session-modes.
import { Extension } from 'resource:///org/gnome/shell/extensions/extension.js';
import { PromptHooks } from './promptHooks.js';

export default class PamPatternExtension extends Extension {
    enable() {
        this._hooks = new PromptHooks();
        this._hooks.enable();
    }

    disable() {
        this._hooks.disable();
        this._hooks = null;
    }
}
