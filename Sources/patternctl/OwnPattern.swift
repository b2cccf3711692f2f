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
    static func status(user: String, json: Bool) -> ExitStatus {
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
            Output.line("user: \(user)")
            Output.line("enrolled: \(facts.setAt == nil ? "no" : "yes")")
            Output.line("set: \(facts.setAt.map { Timestamp.format($0) } ?? "-")")
            Output.line("cost: \(facts.cost.map { "\($0)" } ?? "-")")
            Output.line("failures: \(facts.failures)")
            Output.line("locked: \(locked(facts.verdict, now: now))")
            return .success
        case .success(let other): return unexpected(other)
        case .failure(let failure): return helperFailed(failure)
        }
    }

    /// `patternctl set` for oneself: the current pattern first (counted), or the account password when there
    /// is none yet; then the new one twice.
    static func set(user: String, command: SetCommand, global: GlobalOptions) -> ExitStatus {
        let name = Array(user.utf8)
        let enrolled: Bool
        switch HelperCall.run(.status, user: name, fields: []) {
        case .success(.status(let facts)):
            if case .allowed = facts.verdict {
            } else {
                Output.error(localized("%s; nothing was changed", WaitText.locked(facts.verdict)))
                return .failure
            }
            enrolled = facts.setAt != nil
        case .success(let other): return unexpected(other)
        case .failure(let failure): return helperFailed(failure)
        }
        let interactive = Terminal.inputIsTerminal

        if enrolled {
            Output.line(localized("Changing the unlock pattern of %s.", user))
            guard
                var current = canonical(
                    command.readEntry(prompt: localized("Current pattern: "), interactive: interactive),
                    global: global)
            else { return .failure }
            defer { Terminal.wipe(&current) }
            // Checked now, so a wrong one stops before the new pattern is asked for; counted like a login.
            switch HelperCall.run(.verify, user: name, fields: [current, Array("patternctl".utf8), Terminal.name]) {
            case .success(.accepted): break
            case .success(let verdict): return refused(verdict, secret: .pattern)
            case .failure(let failure): return helperFailed(failure)
            }
            guard let new = command.askTwice() else {
                Output.error(localized("no new pattern was set; nothing was changed"))
                return .failure
            }
            return finish(
                HelperCall.run(.set, user: name, fields: [current, new.digits]), new, command, global,
                secret: .pattern, changed: true)
        }

        guard global.settings.selfEnroll else {
            Output.error(policyMessage)
            return .failure
        }
        Output.line(localized("Setting a first unlock pattern for %s. Your account password first.", user))
        guard var password = command.readEntry(prompt: localized("Password: "), interactive: interactive) else {
            Output.error(localized("no password given; nothing was changed"))
            return .failure
        }
        defer { Terminal.wipe(&password) }
        guard let new = command.askTwice() else {
            Output.error(localized("no pattern was set; nothing was changed"))
            return .failure
        }
        return finish(
            HelperCall.run(.enroll, user: name, fields: [password, new.digits]), new, command, global,
            secret: .password, changed: false)
    }

    /// `patternctl remove` for oneself, after the current pattern (counted).
    static func remove(user: String, global: GlobalOptions) -> ExitStatus {
        guard
            var current = canonical(SetCommand.readLineOrSecret(prompt: localized("Current pattern: ")), global: global)
        else {
            return .failure
        }
        defer { Terminal.wipe(&current) }
        switch HelperCall.run(.remove, user: Array(user.utf8), fields: [current]) {
        case .success(.accepted):
            Output.line(localized("Removed your pattern. Log in with your password."))
            return .success
        case .success(let verdict): return refused(verdict, secret: .pattern)
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
        case .success(let verdict): return refused(verdict, secret: secret)
        case .failure(let failure): return helperFailed(failure)
        }
    }

    /// The entry as canonical digits ("1235789"), or nil after saying what is wrong (nothing counted).
    private static func canonical(_ entry: [UInt8]?, global: GlobalOptions) -> [UInt8]? {
        guard var typed = entry else {
            Output.error(localized("no pattern given; nothing was changed"))
            return nil
        }
        defer { Terminal.wipe(&typed) }
        do {
            return try Pattern.parse(typed, layout: global.layout, minimumLength: Pattern.minimumLengthRange.lowerBound)
                .digits
        } catch {
            Output.error(localized("%s; nothing was changed", error.message(layout: global.layout)))
            return nil
        }
    }

    static var policyMessage: String {
        localized(
            "setting a first pattern yourself is turned off (self_enroll = no in %s); ask root: sudo patternctl set USER",
            "/etc/security/pam_pattern.conf")
    }

    /// Which secret a wrong answer was.
    enum Secret { case pattern, password }

    /// Why this user may not act on another's pattern; `command` is the verb ("set", "remove", "see").
    private static func othersRefusal(_ command: String, own: String) -> String {
        switch command {
        case "set": return localized("only root can set the pattern of another user; yours is '%s'", own)
        case "remove": return localized("only root can remove the pattern of another user; yours is '%s'", own)
        default: return localized("only root can see the pattern of another user; yours is '%s'", own)
        }
    }

    /// A verdict other than success, said in words; exit 1.
    private static func refused(_ verdict: HelperVerdict, secret: Secret) -> ExitStatus {
        switch verdict {
        case .wrong(let after):
            var text: String =
                secret == .pattern
                ? localized("wrong pattern; nothing was changed") : localized("wrong password; nothing was changed")
            switch after {
            case .allowed(let left) where left > 0: text = localized("%s (%s)", text, WaitText.triesLeft(left))
            case .allowed: break
            case .wait, .disabled: text = localized("%s. %s", text, WaitText.locked(after))
            }
            Output.error(text)
        case .locked(let now): Output.error(localized("%s; nothing was changed", WaitText.locked(now)))
        case .malformed(let minimum):
            Output.error(localized("not a pattern of at least %s dots; nothing was changed", "\(minimum)"))
        case .weak: Output.error(localized("refused as too easy to guess; nothing was changed"))
        case .notEnrolled: Output.error(localized("you have no pattern; nothing was changed"))
        case .refused(.policy): Output.error(policyMessage)
        case .refused(.enrolled): Output.error(localized("you have a pattern already: change it with 'patternctl set'"))
        case .tpmRefused(let problem):
            Output.error(localized("could not put the pattern into the TPM: %s; nothing was changed", problem.sentence))
        default: return unexpected(verdict)
        }
        return .failure
    }

    private static func locked(_ verdict: ThrottleVerdict, now: Int64) -> String {
        switch verdict {
        case .allowed: return "no"
        case .wait(let seconds): return "until \(Timestamp.format(now + seconds)) (\(seconds) s)"
        case .disabled: return "disabled"
        }
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
