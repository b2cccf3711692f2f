// What the pattern adds to one of the shell's AuthPrompts (the lock screen's, GDM's login): the grid under the
// prompt while PAM waits for pam_pattern's question, the module's words read back (moduleWords.js, generated
// from the message catalogue), a live countdown on a dimmed grid while the pattern is held back. It runs in the
// shell, as the person (lock screen) or as the greeter's user (GDM): GDM's worker runs PAM as root; this only
// draws and relays through the prompt's own ShellUserVerifier.
//
// A run of PAM (one GDM conversation) waits at pam_pattern's prompt, which a drawing answers; a typed password
// skips it with an empty answer, which the module does not count, and answers the password's prompt that
// follows. A drawing not taken is followed by the password's prompt in the same run (the profile goes on to
// pam_unix): the grid turns red, and a further drawing starts a new run.
const { GLib } = imports.gi;
const AuthPrompt = imports.gdm.authPrompt;
const Me = imports.misc.extensionUtils.getCurrentExtension();
const Words = Me.imports.moduleWords;
const { PatternGrid } = Me.imports.patternGrid;

// What the tests drive by (the grid's place, what was sent), never a secret: on only with
// PAM_PATTERN_GNOME_DEBUG=1 in the shell's environment; to the shell's log (its stderr).
const DEBUG = GLib.getenv('PAM_PATTERN_GNOME_DEBUG') === '1';

function debug(text) {
    if (DEBUG)
        log(`pam_pattern: ${text}`);
}

// The running language's name as the catalogue has it ("zh_CN", "C").
function localeName() {
    const name = GLib.get_language_names()[0] || 'C';
    return name.split('.')[0].split('@')[0];
}

function tr(text) {
    return Words.tr(text, localeName());
}

var PatternPrompt = class PatternPrompt {
    constructor(prompt) {
        this._prompt = prompt;
        this.grid = null;
        // What PAM waits for: "", "pattern", "patternOrPassword" (forward_pass), "password".
        this.awaiting = '';
        this.drawingSent = false;
        // A drawing made while no pattern prompt waited: the next run's prompt takes it.
        this.queuedDigits = '';
        this.lockHeard = false;
        this.wait = null;
        this.waitEnds = 0;
        this._countdown = 0;
        this._geometry = 0;
        this._steadyTicks = 0;
        this._lastGeometry = '';
        this._swipeOwner = null;
        this._destroyId = prompt.connect('destroy', () => this.destroy());
        PatternPrompt.live.add(this);
    }

    _showGrid(locked) {
        if (this.grid === null) {
            this.grid = new PatternGrid(tr('Pattern grid: draw your pattern'));
            this.grid.connect('drawn', (_grid, digits) => this._drawn(digits));
            this.grid.connect('shaken-off', (_grid, count) => debug(`shaken off ${count}`));
            this.grid.connect('started', () => {
                if (this.wait === null)
                    this._prompt.setMessage(null);
            });
            // Under the prompt's row (the password field and its button), above the message, whose lines are
            // kept for it (stylesheet.css) so that a message moves nothing under the pointer.
            this._prompt.insert_child_above(this.grid, this._prompt._mainBox);
            this._prompt._message.add_style_class_name('pam-pattern-message');
        }
        this._watchGeometry();
        this.grid.setLocked(locked);
        this.grid.accessible_name = locked
            ? tr('Pattern grid, locked: the message says how long') : tr('Pattern grid: draw your pattern');
        this._holdSwipe(true);
    }

    _removeGrid() {
        this._holdSwipe(false);
        if (this._geometry) {
            GLib.source_remove(this._geometry);
            this._geometry = 0;
        }
        if (this.grid !== null) {
            if (this._prompt._message)
                this._prompt._message.remove_style_class_name('pam-pattern-message');
            this.grid.destroy();
            this.grid = null;
            this._lastGeometry = '';
        }
    }

    // The unlock dialog's swipe (up to the prompt, down to the clock) takes vertical drags anywhere on it and
    // cancels the run: off while the grid is there.
    _holdSwipe(held) {
        if (held && this._swipeOwner === null) {
            let actor = this._prompt.get_parent();
            while (actor && !actor._swipeTracker)
                actor = actor.get_parent();
            if (actor) {
                this._swipeOwner = actor;
                actor._swipeTracker.enabled = false;
            }
        } else if (!held && this._swipeOwner !== null) {
            this._swipeOwner._swipeTracker.enabled = true;
            this._swipeOwner = null;
        }
    }

    // The dots' place on the screen, logged (debug only) whenever it changes in the 2 s after something that can
    // move it (the grid shown, a message above it): looked at 4 times a second, then left alone.
    _watchGeometry() {
        if (!DEBUG)
            return;
        this._steadyTicks = 0;
        if (!this._geometry)
            this._geometry = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 250, () => this._logGeometry());
    }

    _logGeometry() {
        if (this.grid !== null && this.grid.mapped && this.grid.width > 0) {
            const line = this.grid.stageCentres().map(p => p.join(',')).join(' ');
            if (line !== this._lastGeometry) {
                this._lastGeometry = line;
                this._steadyTicks = 0;
                debug(`grid ${line}`);
            }
        }
        if (++this._steadyTicks < 8)
            return GLib.SOURCE_CONTINUE;
        this._geometry = 0;
        return GLib.SOURCE_REMOVE;
    }

    // The prompt's verifier asked `question` (wrapped AuthPrompt._onAskQuestion); `ask` is the shell's own.
    askQuestion(ask, serviceName, question, secret) {
        const kind = Words.promptKind(question);
        const prompt = this._prompt;
        if (kind === 'password') {
            if (this.drawingSent) {
                // The drawing was not taken (the module said why); this run now waits for the password.
                this.drawingSent = false;
                if (this.grid !== null && this.grid.phase === 'checking')
                    this.grid.showWrong();
                debug('wrong pattern');
            } else if (this.grid === null || !this.grid.locked) {
                // The password first: no pattern to draw, unless the module said it is held back.
                if (!this.lockHeard)
                    this._removeGrid();
            }
            this.awaiting = 'password';
            ask(serviceName, question, secret);
            if (this.queuedDigits !== '')
                this._newRun();
            return;
        }
        this.awaiting = kind;
        this.drawingSent = false;
        this._showGrid(this.wait !== null || (this.lockHeard && this.grid !== null && this.grid.locked));
        if (kind === 'pattern' && prompt._preemptiveAnswer) {
            // A password typed before any question: skip the pattern for it, uncounted.
            if (prompt._queryingService)
                prompt.clear();
            prompt._queryingService = serviceName;
            prompt._userVerifier.answerQuery(serviceName, '');
            this.awaiting = '';
            return;
        }
        ask(serviceName, question, secret);
        // The field takes the password; the grid the pattern.
        if (kind === 'pattern')
            prompt._entry.hint_text = tr('Password');
        debug(`asked ${kind}`);
        if (this.queuedDigits !== '') {
            const digits = this.queuedDigits;
            this.queuedDigits = '';
            this._send(digits);
        }
    }

    // The field's Enter (wrapped AuthPrompt._activateNext): a typed password skips the pattern's prompt.
    activateNext(activate, shouldSpin) {
        const prompt = this._prompt;
        if (this.awaiting === 'pattern' && prompt._queryingService) {
            prompt._userVerifier.answerQuery(prompt._queryingService, '');
            prompt._queryingService = null;
        }
        this.awaiting = '';
        this.drawingSent = false;
        activate(shouldSpin);
    }

    _drawn(digits) {
        if (this.wait === null)
            this._prompt.setMessage(null);
        if ((this.awaiting === 'pattern' || this.awaiting === 'patternOrPassword') && this._prompt._queryingService) {
            this._send(digits);
            return;
        }
        // No pattern prompt waits: this drawing answers the next run's.
        this.queuedDigits = digits;
        debug('drawing queued');
        if (this.awaiting === 'password')
            this._newRun();
    }

    _send(digits) {
        const prompt = this._prompt;
        this.awaiting = '';
        this.drawingSent = true;
        prompt.verificationStatus = AuthPrompt.AuthPromptStatus.VERIFICATION_IN_PROGRESS;
        prompt.updateSensitivity(false);
        prompt._userVerifier.answerQuery(prompt._queryingService, digits);
        prompt.emit('next');
        debug('pattern sent');
    }

    // Ends the run waiting at the password's prompt; the next one asks for the pattern again. In progress, so
    // GDM's login goes on with the same user (AuthPrompt.reset: REUSE_USERNAME) rather than its user list.
    _newRun() {
        this.awaiting = '';
        this._prompt.verificationStatus = AuthPrompt.AuthPromptStatus.VERIFICATION_IN_PROGRESS;
        this._prompt.reset();
    }

    // What the module said (wrapped AuthPrompt._onShowMessage): shown as a screen says it, and read back.
    showMessage(show, serviceName, message, type) {
        const text = message ? Words.atScreen(message) : message;
        show(serviceName, text, type);
        if (!message)
            return;
        debug(`message ${text}`);
        this._watchGeometry();
        const said = Words.read(message);
        if (said.kind === 'wrong' && this.drawingSent) {
            if (this.grid !== null && this.grid.phase === 'checking')
                this.grid.showWrong();
        } else if (said.kind === 'wait') {
            this.lockHeard = true;
            this.wait = { language: said.language, route: said.route === '' ? '' : Words.screenRoute(said.language) };
            this.waitEnds = Date.now() + said.seconds * 1000;
            if (this.drawingSent && this.grid !== null && this.grid.phase === 'checking')
                debug('wrong pattern');
            this._showGrid(true);
            this._nextTick();
            debug(`locked for ${said.seconds} s`);
        } else if (said.kind === 'disabled') {
            this.lockHeard = true;
            this._stopCountdown();
            this.wait = null;
            this._showGrid(true);
            debug('disabled');
        }
    }

    _tick() {
        this._countdown = 0;
        const left = Math.ceil((this.waitEnds - Date.now()) / 1000);
        if (left <= 0) {
            this.wait = null;
            this.lockHeard = false;
            this._prompt.setMessage(null);
            if (this.grid !== null)
                this._showGrid(false);
            debug('wait over');
            if (this.awaiting === 'password' && this._prompt._entry.text === '')
                this._newRun();
            return GLib.SOURCE_REMOVE;
        }
        this._prompt._message.text = Words.waitSaid(this.wait.language, left, this.wait.route);
        this._prompt._message.opacity = 255;
        debug(`countdown ${left}`);
        this._nextTick();
        return GLib.SOURCE_REMOVE;
    }

    // Each tick just after the wait's next whole second, so a late tick never says the same number twice.
    _nextTick() {
        this._stopCountdown();
        const ms = (this.waitEnds - Date.now()) % 1000 + 20;
        this._countdown = GLib.timeout_add(GLib.PRIORITY_DEFAULT, Math.max(ms, 20), () => this._tick());
    }

    _stopCountdown() {
        if (this._countdown) {
            GLib.source_remove(this._countdown);
            this._countdown = 0;
        }
    }

    verificationComplete() {
        if (this.grid !== null)
            this.grid.setPhase('success');
        debug('unlocked');
    }

    verificationFailed() {
        if (this.drawingSent && this.grid !== null && this.grid.phase === 'checking') {
            this.grid.showWrong();
            debug('wrong pattern');
        }
        this.drawingSent = false;
    }

    // The prompt starts over (wrapped AuthPrompt.reset): a new run asks anew.
    reset() {
        this.awaiting = '';
        this.drawingSent = false;
    }

    destroy() {
        this._stopCountdown();
        this._removeGrid();
        if (this._destroyId) {
            this._prompt.disconnect(this._destroyId);
            this._destroyId = 0;
        }
        this._prompt._pamPattern = null;
        PatternPrompt.live.delete(this);
    }
};

// Every prompt's PatternPrompt, for the extension's disable().
PatternPrompt.live = new Set();
