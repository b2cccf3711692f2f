import Glibc
import PatternCore

/// set, remove and status run by a user who is not root: their own pattern only, through the setuid helper
/// (HelperCall), which decides everything that matters (see pam_pattern_helper(8)): the current pattern is a
/// counted guess, the password for a first pattern is checked by PAM as root, the new pattern must pass the
/// strength rules, and the paths, throttle, minlen, cost and self_enroll come from the system's
/// configuration. What patternctl does here is the conversation: prompts, the new pattern twice, messages.
enum OwnPattern {
    /// The caller's own name, or nil after saying why this run is not allowed: another USER, or an option
    /// that would only apply to root's direct access (the helper always uses the system's settings).
    static func caller(requested: String?, command: String, global: GlobalOptions, rootOnly: [String]) -> String? {
        guard let own = UserDatabase.name(of: getuid()) else {
            Output.error(localized("cannot tell who you are (uid %s has no name)", "\(getuid())"))
            return nil
        }
        if let requested, requested != own {
            Output.error(othersRefusal(command, own: own))
            return nil
        }
        let given = global.overrides.filter { $0.key != .layout }.map { $0.key }
        if let key = given.first, let flag = GlobalOptions.tableOptions.first(where: { $0.key == key })?.spec.name {
            Output.error(
                localized("option '--%s' is for root: your own pattern always uses the system's settings", flag))
            return nil
        }
        if let option = rootOnly.first {
            Output.error(
                localized("option '--%s' is for root: your own pattern always uses the system's settings", option))
            return nil
        }
        return own
    }

    /// `patternctl status` for oneself: the facts the helper tells (not root's account line or attempt record).
    static func status(user: String, json: Bool, global: GlobalOptions) -> ExitStatus {
        let now = Timestamp.now()
        switch HelperCall.run(.status, user: Array(user.utf8), fields: []) {
        case .success(.status(let facts)):
            if json {
                Output.line(
                    UserFacts.json(
                        user: user, setAt: facts.setAt, cost: facts.cost, failures: facts.failures,
                        verdict: facts.verdict, now: now
                    ).text)
                return .success
            }
            let lines = StatusLines.lines(
                user: user, setAt: facts.setAt, cost: facts.cost, failures: facts.failures, verdict: facts.verdict,
                now: now, throttle: global.throttle)
            for line in lines { Output.line(line) }
            return .success
        case .success(let other): return unexpected(other)
        case .failure(let failure): return helperFailed(failure)
        }
    }

    /// `patternctl set` for oneself: the current pattern first (counted), or the account password when there
    /// is none yet or it was forgotten (--forgot); then the new one twice.
    static func set(user: String, command: SetCommand, global: GlobalOptions) -> ExitStatus {
        let name = Array(user.utf8)
        let enrolled: Bool
        let verdict: ThrottleVerdict
        switch HelperCall.run(.status, user: name, fields: []) {
        case .success(.status(let facts)):
            enrolled = facts.setAt != nil
            verdict = facts.verdict
            // Before anything is asked for or counted: the helper would refuse the new pattern anyway.
            if facts.enrolmentsRefused {
                Output.error(
                    localized(
                        "could not put the pattern into the TPM: %s; nothing was changed", TPMProblem.tooOften.sentence)
                )
                return .failure
            }
            // A locked pattern cannot be given now; a forgotten one need not be. The window counts the wait
            // down instead, and offers the password meanwhile.
            if enrolled && !command.forgot && !DrawWindow.isOpen {
                if case .allowed = facts.verdict {
                } else {
                    refusedPattern(localized("%s; nothing was changed", WaitText.locked(facts.verdict)), global)
                    return .failure
                }
            }
        case .success(let other): return unexpected(other)
        case .failure(let failure): return helperFailed(failure)
        }
        if enrolled && !command.forgot {
            Output.line(localized("Changing the unlock pattern of %s.", user))
            var current: [UInt8]
            if DrawWindow.isOpen {
                switch currentInWindow(user: name, verdict: verdict, command: command, global: global) {
                case .verified(let digits): current = digits
                case .passwordChosen:
                    return setWithPassword(user: user, enrolled: true, command: command, global: global)
                case .stopped(let status): return status
                }
            } else {
                guard let typed = currentPattern(command: command, global: global) else { return .failure }
                current = typed
                // Checked now, so a wrong one stops before the new pattern is asked for; counted like a login.
                switch HelperCall.run(
                    .verify, user: name, fields: [current, Array("patternctl".utf8), Terminal.name])
                {
                case .success(.accepted): break
                case .success(let verdict):
                    Terminal.wipe(&current)
                    return refused(verdict, secret: .pattern, global)
                case .failure(let failure):
                    Terminal.wipe(&current)
                    return helperFailed(failure)
                }
            }
            defer { Terminal.wipe(&current) }
            guard let new = command.askTwice(orSay: localized("no new pattern was set; nothing was changed")) else {
                return .failure
            }
            return finish(
                HelperCall.run(.set, user: name, fields: [current, new.digits]), new, command, global,
                secret: .pattern, changed: true)
        }
        return setWithPassword(user: user, enrolled: enrolled, command: command, global: global)
    }

    /// A first pattern, or one in place of a forgotten one: the account password (checked by PAM as root in the
    /// helper), then the new pattern twice.
    private static func setWithPassword(
        user: String, enrolled: Bool, command: SetCommand, global: GlobalOptions
    ) -> ExitStatus {
        guard global.settings.selfEnroll else {
            Output.error(policyMessage(forgotten: enrolled))
            return .failure
        }
        Output.line(
            enrolled
                ? localized(
                    "Setting a new unlock pattern for %s in place of the forgotten one. Your account password first.",
                    user)
                : localized("Setting a first unlock pattern for %s. Your account password first.", user))
        guard var password = command.readEntry(.password, prompt: localized("Password: ")) else {
            Output.error(command.gaveUp(localized("no password given; nothing was changed")))
            return .failure
        }
        defer { Terminal.wipe(&password) }
        guard let new = command.askTwice(orSay: localized("no pattern was set; nothing was changed")) else {
            return .failure
        }
        return finish(
            HelperCall.run(.enroll, user: Array(user.utf8), fields: [password, new.digits]), new, command, global,
            secret: enrolled ? .passwordForForgotten : .password, changed: enrolled)
    }

    /// How the current pattern asked in the window ended.
    private enum WindowCurrent {
        /// The helper took it: its canonical digits (the caller wipes them).
        case verified([UInt8])
        /// The person chose their account password instead.
        case passwordChosen
        /// Cancelled, or refused for good: the exit status, after saying why.
        case stopped(ExitStatus)
    }

    /// The current pattern in the drawing window, as a phone asks it: a wrong one is said in the throttle's
    /// words (the tries left, or the wait, as the module says them: VerdictWords) and asked again, the wait
    /// counted down in the window; at any time the person may take the forgotten pattern's way (their account
    /// password) instead. Each drawing is checked by the helper and counted like a login.
    private static func currentInWindow(
        user name: [UInt8], verdict start: ThrottleVerdict, command: SetCommand, global: GlobalOptions
    ) -> WindowCurrent {
        var verdict = start
        while true {
            let ask = DrawWindowProtocol.CurrentAsk(
                lock: DrawWindow.lock(verdict), passwordOffered: global.settings.selfEnroll)
            guard var typed = command.readEntry(.current, prompt: "", text: ask.encoded) else {
                if DrawWindow.passwordChosen { return .passwordChosen }
                Output.error(command.gaveUp(localized("no pattern given; nothing was changed")))
                return .stopped(.failure)
            }
            defer { Terminal.wipe(&typed) }
            guard var current = canonical(typed, global: global, retrying: true) else { continue }
            switch HelperCall.run(.verify, user: name, fields: [current, Array("patternctl".utf8), Terminal.name]) {
            case .success(.accepted): return .verified(current)
            case .success(.wrong(let after)):
                Output.error(String(decoding: VerdictWords.wrong(after), as: UTF8.self))
                verdict = after
            case .success(.locked(let now)):
                Output.error(String(decoding: VerdictWords.locked(now), as: UTF8.self))
                verdict = now
            case .success(let other):
                Terminal.wipe(&current)
                return .stopped(refused(other, secret: .pattern, global))
            case .failure(let failure):
                Terminal.wipe(&current)
                return .stopped(helperFailed(failure))
            }
            Terminal.wipe(&current)
        }
    }

    /// The current pattern as canonical digits, asked again after an entry that is not a pattern (nothing is
    /// counted for it) until the person gives up (an empty entry, Ctrl-D, Esc), as the new pattern is; from a
    /// file or a pipe the first line only. nil after saying why there is none.
    private static func currentPattern(command: SetCommand, global: GlobalOptions) -> [UInt8]? {
        while true {
            guard var typed = command.readEntry(.current, prompt: localized("Current pattern: ")) else {
                Output.error(command.gaveUp(localized("no pattern given; nothing was changed")))
                return nil
            }
            defer { Terminal.wipe(&typed) }
            if command.interactive && typed.isEmpty {
                Output.error(SetCommand.cancelled)
                return nil
            }
            if let digits = canonical(typed, global: global, retrying: command.interactive) { return digits }
            if !command.interactive {
                Output.error(localized("nothing was changed"))
                return nil
            }
        }
    }

    /// `patternctl remove` for oneself, after the current pattern (counted).
    static func remove(user: String, global: GlobalOptions) -> ExitStatus {
        guard var typed = SetCommand.readLineOrSecret(prompt: localized("Current pattern: ")) else {
            Output.error(localized("no pattern given; nothing was changed"))
            return .failure
        }
        defer { Terminal.wipe(&typed) }
        guard var current = canonical(typed, global: global, retrying: false) else {
            Output.error(localized("nothing was changed"))
            return .failure
        }
        defer { Terminal.wipe(&current) }
        switch HelperCall.run(.remove, user: Array(user.utf8), fields: [current]) {
        case .success(.accepted):
            Output.line(localized("Removed your pattern. Log in with your password."))
            return .success
        case .success(let verdict): return refused(verdict, secret: .pattern, global)
        case .failure(let failure): return helperFailed(failure)
        }
    }

    private static func finish(
        _ result: Result<HelperVerdict, HelperFailure>, _ pattern: Pattern,
        _ command: SetCommand, _ global: GlobalOptions, secret: Secret, changed: Bool
    ) -> ExitStatus {
        switch result {
        case .success(.accepted):
            let dots = "\(pattern.dots.count)"
            Output.line(
                changed ? localized("Pattern changed (%s dots):", dots) : localized("Pattern set (%s dots):", dots))
            Output.write(PatternDrawing.render(pattern, style: command.style, layout: global.layout))
            Output.line(DrawingChoice.legend(pattern, layout: global.layout))
            return .success
        case .success(let verdict): return refused(verdict, secret: secret, global)
        case .failure(let failure): return helperFailed(failure)
        }
    }

    /// The entry as canonical digits ("1235789"), or nil after saying what is wrong (nothing counted), and
    /// with `retrying` that it is asked again.
    private static func canonical(_ typed: [UInt8], global: GlobalOptions, retrying: Bool) -> [UInt8]? {
        do {
            return try Pattern.parse(typed, layout: global.layout, minimumLength: Pattern.minimumLengthRange.lowerBound)
                .digits
        } catch {
            Output.error(error.message(layout: global.layout) + (retrying ? " " + SetCommand.tryAgain : ""))
            return nil
        }
    }

    /// self_enroll = no, for a first pattern or a forgotten one.
    static func policyMessage(forgotten: Bool) -> String {
        forgotten
            ? localized(
                "setting a new pattern with your password is turned off (self_enroll = no in %s); ask root: sudo patternctl set USER",
                "/etc/security/pam_pattern.conf")
            : localized(
                "setting a first pattern yourself is turned off (self_enroll = no in %s); ask root: sudo patternctl set USER",
                "/etc/security/pam_pattern.conf")
    }

    /// Which secret a wrong answer was: the current pattern, or the password for a first or a forgotten one.
    enum Secret { case pattern, password, passwordForForgotten }

    /// A refusal of the current pattern, then the way out for a forgotten one.
    private static func refusedPattern(_ text: String, _ global: GlobalOptions) {
        Output.error(text)
        Output.error(String(decoding: ForgottenPattern.route(selfEnroll: global.settings.selfEnroll), as: UTF8.self))
    }

    /// Why this user may not act on another's pattern; `command` is the verb ("set", "remove", "see").
    private static func othersRefusal(_ command: String, own: String) -> String {
        switch command {
        case "set": return localized("only root can set the pattern of another user; yours is '%s'", own)
        case "remove": return localized("only root can remove the pattern of another user; yours is '%s'", own)
        default: return localized("only root can see the pattern of another user; yours is '%s'", own)
        }
    }

    /// A verdict other than success, said in words; exit 1.
    private static func refused(_ verdict: HelperVerdict, secret: Secret, _ global: GlobalOptions) -> ExitStatus {
        switch verdict {
        case .wrong(let after):
            var text: String =
                secret == .pattern
                ? localized("wrong pattern; nothing was changed") : localized("wrong password; nothing was changed")
            switch after {
            case .allowed(let left) where left > 0: text = localized("%s (%s)", text, WaitText.triesLeft(left))
            case .allowed: break
            case .wait, .disabled: text = localized("%s (%s)", text, WaitText.locked(after))
            }
            if secret == .pattern { refusedPattern(text, global) } else { Output.error(text) }
        case .locked(let now):
            let text = localized("%s; nothing was changed", WaitText.locked(now))
            if secret == .pattern { refusedPattern(text, global) } else { Output.error(text) }
        case .malformed(let minimum):
            Output.error(localized("not a pattern of at least %s dots; nothing was changed", "\(minimum)"))
        case .weak: Output.error(localized("refused as too easy to guess; nothing was changed"))
        case .notEnrolled: Output.error(localized("you have no pattern; nothing was changed"))
        case .refused(.policy): Output.error(policyMessage(forgotten: secret == .passwordForForgotten))
        case .refused(.enrolled):
            Output.error(
                secret == .passwordForForgotten
                    ? localized("your pattern was changed meanwhile; nothing was changed")
                    : localized("you have a pattern already: change it with 'patternctl set'"))
        case .tpmRefused(let problem):
            Output.error(localized("could not put the pattern into the TPM: %s; nothing was changed", problem.sentence))
        default: return unexpected(verdict)
        }
        return .failure
    }

    private static func helperFailed(_ failure: HelperFailure) -> ExitStatus {
        Output.error(failure.outcomeSentence)
        return .failure
    }

    private static func unexpected(_ verdict: HelperVerdict) -> ExitStatus {
        Output.error(verdict.unexpectedSentence)
        return .failure
    }
}
