// The pattern's hooks into the shell's AuthPrompt (js/gdm/authPrompt.js), shared by the extension's entry points
// for GNOME Shell 43 and 48 (shell-43/, shell-48/): five of its methods wrapped, private ones, the same in both
// versions (the versions it was tested on are pinned in each metadata.json). What a wrapper adds is the prompt's
// PatternPrompt (patternPrompt.js).
const AuthPrompt = imports.gdm.authPrompt;
const Me = imports.misc.extensionUtils.getCurrentExtension();
const { PatternPrompt } = Me.imports.patternPrompt;

// The prompt's PatternPrompt, made when first needed (the dialogs build their AuthPrompt after enable()).
function patternOf(prompt) {
    if (!prompt._pamPattern)
        prompt._pamPattern = new PatternPrompt(prompt);
    return prompt._pamPattern;
}

// Each wrapped method: name -> (the shell's own, bound to the prompt) => what it does with the pattern.
const WRAPPED = {
    _onAskQuestion(own, _verifier, serviceName, question, secret) {
        patternOf(this).askQuestion((...a) => own(_verifier, ...a), serviceName, question, secret);
    },
    _onShowMessage(own, _verifier, serviceName, message, type, ...rest) {
        patternOf(this).showMessage((s, m, t) => own(_verifier, s, m, t, ...rest), serviceName, message, type);
    },
    _activateNext(own, shouldSpin) {
        patternOf(this).activateNext(own, shouldSpin);
    },
    _onVerificationComplete(own, ...args) {
        own(...args);
        patternOf(this).verificationComplete();
    },
    _onVerificationFailed(own, ...args) {
        own(...args);
        patternOf(this).verificationFailed();
    },
    reset(own, ...args) {
        if (this._pamPattern)
            this._pamPattern.reset();
        own(...args);
    },
};

var PromptHooks = class PromptHooks {
    constructor() {
        this._originals = null;
    }

    enable() {
        const proto = AuthPrompt.AuthPrompt.prototype;
        this._originals = {};
        for (const [name, wrapper] of Object.entries(WRAPPED)) {
            const original = proto[name];
            this._originals[name] = original;
            proto[name] = function (...args) {
                return wrapper.call(this, (...a) => original.apply(this, a), ...args);
            };
        }
    }

    disable() {
        if (this._originals === null)
            return;
        const proto = AuthPrompt.AuthPrompt.prototype;
        for (const [name, original] of Object.entries(this._originals))
            proto[name] = original;
        this._originals = null;
        // The prompts on screen lose their grids; their next question is the shell's alone.
        for (const prompt of PatternPrompt.live)
            prompt.destroy();
    }
};
