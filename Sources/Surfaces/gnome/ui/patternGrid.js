// The pattern grid of the GNOME Shell extension: press, drag, release, as on a phone, with the pointer or a
// finger. It only draws and relays: a release with at least 4 dots emits `drawn(digits)`; PAM decides. Which
// dots a drag takes is patternTrace.js, the QML surfaces' port of the core's rules (held to them by
// Tests/GNOMETests, in GJS). The look follows the pad (hit radius 3/10 of the spacing, dots 1/14 of it), in the
// colours of the shell's theme (stylesheet.css).
const { Clutter, GLib, GObject, St } = imports.gi;
const Me = imports.misc.extensionUtils.getCurrentExtension();
const Trace = Me.imports.patternTrace;

// The grid's side at scale 1 (px): as wide as the prompt's entry.
var SIDE = 240;
// How long a wrong drawing stays red, and how long a too-short one shakes (ms).
const WRONG_MS = 1000;
const SHAKE_MS = 500;

function buttonOf(event) {
    return event.get_button ? event.get_button() : event.button;
}

var PatternGrid = GObject.registerClass({
    Signals: {
        // A release after 4 or more dots: the digits that answer PAM's pattern prompt.
        'drawn': { param_types: [GObject.TYPE_STRING] },
        // A release after 1 to 3 dots: shaken off, nothing sent (Android does not count it either).
        'shaken-off': { param_types: [GObject.TYPE_INT] },
        // A press: a new drawing begins.
        'started': {},
    },
}, class PatternGrid extends St.DrawingArea {
    _init(accessibleName) {
        const scale = St.ThemeContext.get_for_stage(global.stage).scale_factor;
        super._init({
            style_class: 'pam-pattern-grid',
            reactive: true,
            track_hover: true,
            width: SIDE * scale,
            height: SIDE * scale,
            x_align: Clutter.ActorAlign.CENTER,
            accessible_name: accessibleName,
        });
        // "idle", "checking" (released, PAM judges), "wrong", "short" (shaking), "success".
        this.phase = 'idle';
        this.locked = false;
        this._trace = Trace.newTrace();
        this._shown = [];
        this._pointer = null;
        this._grab = null;
        this._timeout = 0;
        this.connect('repaint', this._paint.bind(this));
        this.connect('destroy', () => {
            this._endGrab();
            this._stopTimeout();
        });
    }

    get spacing() {
        return Math.floor(Math.min(this.width, this.height) / 3);
    }

    get hitRadius() {
        return Math.floor(this.spacing * 3 / 10);
    }

    get dotRadius() {
        return Math.max(4, Math.floor(this.spacing / 14));
    }

    _geometry() {
        return Trace.grid(this.width / 2, this.height / 2, this.spacing, this.hitRadius);
    }

    dotCenter(dot) {
        return [this.width / 2 + ((dot - 1) % 3 - 1) * this.spacing,
            this.height / 2 + (Math.floor((dot - 1) / 3) - 1) * this.spacing];
    }

    // The nine centres on the stage (what a test drives the pointer by).
    stageCentres() {
        const centres = [];
        for (let dot = 1; dot <= 9; ++dot) {
            const [x, y] = this.dotCenter(dot);
            const [sx, sy] = this._toStage(x, y);
            centres.push([Math.round(sx), Math.round(sy)]);
        }
        return centres;
    }

    _toStage(x, y) {
        const [ax, ay] = this.get_transformed_position();
        const [sw] = this.get_transformed_size();
        const factor = this.width > 0 ? sw / this.width : 1;
        return [ax + x * factor, ay + y * factor];
    }

    setLocked(locked) {
        this.locked = locked;
        this.reactive = !locked;
        this.opacity = locked ? 77 : 255;
        if (locked)
            this.reset();
    }

    setPhase(phase) {
        this.phase = phase;
        for (const name of ['wrong', 'success'])
            this.remove_style_class_name(`pam-pattern-${name}`);
        if (phase === 'wrong' || phase === 'short')
            this.add_style_class_name('pam-pattern-wrong');
        else if (phase === 'success')
            this.add_style_class_name('pam-pattern-success');
        this.queue_repaint();
    }

    // A wrong drawing: red a while, then gone.
    showWrong() {
        this.setPhase('wrong');
        this._after(WRONG_MS, () => this.reset());
    }

    reset() {
        this._stopTimeout();
        this._endGrab();
        Trace.wipe(this._trace);
        this._shown = [];
        this._pointer = null;
        this.translation_x = 0;
        this.setPhase('idle');
    }

    _after(ms, callback) {
        this._stopTimeout();
        this._timeout = GLib.timeout_add(GLib.PRIORITY_DEFAULT, ms, () => {
            this._timeout = 0;
            callback();
            return GLib.SOURCE_REMOVE;
        });
    }

    _stopTimeout() {
        if (this._timeout) {
            GLib.source_remove(this._timeout);
            this._timeout = 0;
        }
    }

    _endGrab() {
        if (this._grab) {
            this._grab.dismiss();
            this._grab = null;
        }
    }

    // GNOME Shell 43's event vfuncs get the event's struct (x, y on the stage); later ones a Clutter.Event.
    _local(event) {
        const [sx, sy] = event.get_coords ? event.get_coords() : [event.x, event.y];
        const [ok, x, y] = this.transform_stage_point(sx, sy);
        return ok ? [x, y] : null;
    }

    _press(point) {
        this._stopTimeout();
        this.translation_x = 0;
        this.setPhase('idle');
        this._trace = Trace.newTrace();
        Trace.begin(this._trace, this._geometry(), point[0], point[1]);
        this._pointer = point;
        this._shown = this._trace.dots.slice();
        // The whole drag is the grid's: the unlock dialog's swipe and anything under it see none of it.
        this._endGrab();
        this._grab = global.stage.grab(this);
        this.emit('started');
        this.queue_repaint();
    }

    _move(point) {
        if (this._grab === null || this.phase !== 'idle')
            return;
        Trace.extend(this._trace, this._geometry(), point[0], point[1]);
        this._pointer = point;
        this._shown = this._trace.dots.slice();
        this.queue_repaint();
    }

    _release(point) {
        if (this._grab === null)
            return;
        this._endGrab();
        if (this.phase !== 'idle')
            return;
        Trace.extend(this._trace, this._geometry(), point[0], point[1]);
        this._pointer = null;
        const digits = Trace.digits(this._trace);
        Trace.wipe(this._trace);
        this._shown = digits.split('').map(Number);
        if (digits.length >= 4) {
            this.setPhase('checking');
            this.emit('drawn', digits);
        } else if (digits.length > 0) {
            this.setPhase('short');
            this._shake();
            this.emit('shaken-off', digits.length);
        } else {
            this.queue_repaint();
        }
    }

    // A too-short drawing shakes its head, as on a phone, and is gone.
    _shake() {
        const distance = this.dotRadius * 2;
        this.translation_x = 0;
        this.ease({
            translation_x: distance,
            duration: SHAKE_MS / 5,
            mode: Clutter.AnimationMode.EASE_IN_OUT_QUAD,
            repeatCount: 3,
            autoReverse: true,
            onComplete: () => {
                this.translation_x = 0;
            },
        });
        this._after(SHAKE_MS + 100, () => this.reset());
    }

    vfunc_button_press_event(event) {
        if (this.locked || buttonOf(event) !== 1)
            return Clutter.EVENT_PROPAGATE;
        const point = this._local(event);
        if (point)
            this._press(point);
        return Clutter.EVENT_STOP;
    }

    vfunc_motion_event(event) {
        const point = this._local(event);
        if (point)
            this._move(point);
        return Clutter.EVENT_STOP;
    }

    vfunc_button_release_event(event) {
        if (buttonOf(event) !== 1)
            return Clutter.EVENT_PROPAGATE;
        const point = this._local(event);
        if (point)
            this._release(point);
        return Clutter.EVENT_STOP;
    }

    vfunc_touch_event(event) {
        const type = event.get_type ? event.get_type() : event.type;
        const point = this._local(event);
        if (!point || this.locked)
            return Clutter.EVENT_STOP;
        if (type === Clutter.EventType.TOUCH_BEGIN)
            this._press(point);
        else if (type === Clutter.EventType.TOUCH_UPDATE)
            this._move(point);
        else if (type === Clutter.EventType.TOUCH_END)
            this._release(point);
        else if (type === Clutter.EventType.TOUCH_CANCEL)
            this.reset();
        return Clutter.EVENT_STOP;
    }

    _paint(area) {
        const cr = area.get_context();
        const lit = this.get_theme_node().get_foreground_color();
        const [r, g, b] = [lit.red / 255, lit.green / 255, lit.blue / 255];
        const dot = this.dotRadius;
        if (this._shown.length > 0) {
            cr.setSourceRGBA(r, g, b, 1);
            cr.setLineWidth(Math.max(2, dot / 2));
            cr.setLineCap(1); // round
            cr.setLineJoin(1); // round
            const [x0, y0] = this.dotCenter(this._shown[0]);
            cr.moveTo(x0, y0);
            for (const taken of this._shown.slice(1))
                cr.lineTo(...this.dotCenter(taken));
            if (this._pointer !== null && this.phase === 'idle')
                cr.lineTo(this._pointer[0], this._pointer[1]);
            cr.stroke();
        }
        for (let n = 1; n <= 9; ++n) {
            const taken = this._shown.includes(n);
            const [x, y] = this.dotCenter(n);
            // The dots not taken stay as they are, whatever the drawing's colour.
            if (taken)
                cr.setSourceRGBA(r, g, b, 1);
            else
                cr.setSourceRGBA(1, 1, 1, 0.6);
            cr.arc(x, y, taken ? dot * 1.6 : dot, 0, 2 * Math.PI);
            cr.fill();
        }
        cr.$dispose();
    }
});
