import PatternCoreEmbedded

/// What the person at the prompt is told. Plain sentences, no secrets, in the application's language
/// (MessageCatalogue, the core's gettext); every msgid here is in po/pam_pattern.pot.
enum UserMessages {
    static func number(_ n: Int64) -> [UInt8] {
        if n <= 0 { return [0x30] }
        var digits: [UInt8] = []
        var rest = n
        while rest > 0 {
            digits.append(UInt8(0x30 + rest % 10))
            rest /= 10
        }
        return digits.reversed()
    }

    /// The echo-off prompt when pam.d sets no `prompt=`.
    static func defaultPrompt(orPassword: Bool) -> [UInt8] {
        return orPassword ? localized("Pattern or password: ") : localized("Pattern: ")
    }

    /// A refusal of the person's pattern, then the way out for a forgotten one (ForgottenPattern).
    static func withRoute(_ refusal: [UInt8], selfEnroll: Bool) -> [UInt8] {
        refusal + [0x20] + ForgottenPattern.route(selfEnroll: selfEnroll)
    }

    /// The default prompt under PAM_SILENT after a failure: the tries left before a wait, which no message can say.
    static func promptWithTries(orPassword: Bool, left: Int) -> [UInt8] {
        orPassword
            ? localizedPlural(
                "Pattern or password (%s try before a wait): ", "Pattern or password (%s tries before a wait): ",
                Int64(left), number(Int64(left)))
            : localizedPlural(
                "Pattern (%s try before a wait): ", "Pattern (%s tries before a wait): ", Int64(left),
                number(Int64(left)))
    }

    /// The password prompt with forward_pass under PAM_SILENT while the pattern is locked: why there is no
    /// pattern prompt, in the one text PAM still shows.
    static func passwordWhileLocked(_ verdict: ThrottleVerdict) -> [UInt8] {
        switch verdict {
        case .wait(let secondsLeft):
            return localized(
                "Password (pattern locked: try again in %s): ", DurationWords(seconds: secondsLeft).said)
        case .disabled, .allowed:
            return localized("Password (pattern disabled after too many wrong tries): ")
        }
    }

    /// Shown instead of a prompt while the throttle refuses.
    static func locked(_ verdict: ThrottleVerdict, selfEnroll: Bool) -> [UInt8] {
        withRoute(VerdictWords.locked(verdict), selfEnroll: selfEnroll)
    }

    /// Shown for an empty answer with `empty_fails`: the pattern is required here, not optional.
    static var emptyRefused: [UInt8] { localized("A pattern is required.") }

    /// Shown when the pattern was changed or removed while it was being checked.
    static var revoked: [UInt8] {
        localized("Pattern not accepted: it was changed or removed just now. Your password still works.")
    }

    /// Shown after a wrong pattern.
    static func wrong(_ verdictAfter: ThrottleVerdict, selfEnroll: Bool) -> [UInt8] {
        withRoute(VerdictWords.wrong(verdictAfter), selfEnroll: selfEnroll)
    }

    /// Shown for any answer that is not a pattern (a wrong character, a dot used twice, too few or too many
    /// dots). One fixed sentence that never depends on what was typed: a password typed out of habit must
    /// not be quoted back, not even one character, position or dot number. `patternctl show`, run on
    /// purpose, explains an answer in detail.
    static var malformed: [UInt8] {
        localized("Not a pattern: type the dots of your pattern as digits 1-9, each dot once.")
    }

    /// After a success: the failures since the person's last success, as login tells of failed logins.
    /// `time` is already formatted; `wasLocked` adds why the pattern may have stopped working meanwhile.
    static func failuresSince(count: Int, last: FailedAttempt, time: [UInt8], wasLocked: Bool) -> [UInt8] {
        let service = last.service.isEmpty ? localized("an unknown service") : last.service
        let tty = last.tty.isEmpty ? localized("an unknown terminal") : last.tty
        var text: [UInt8]
        if last.remoteHost.isEmpty {
            text = localizedPlural(
                "%1$s failed pattern attempt since your last success, the last from %2$s on %3$s at %4$s.",
                "%1$s failed pattern attempts since your last success, the last from %2$s on %3$s at %4$s.",
                Int64(count), number(Int64(count)), service, tty, time)
        } else {
            text = localizedPlural(
                "%1$s failed pattern attempt since your last success, the last from %2$s on %3$s (host %5$s) at %4$s.",
                "%1$s failed pattern attempts since your last success, the last from %2$s on %3$s (host %5$s) at %4$s.",
                Int64(count), number(Int64(count)), service, tty, time, last.remoteHost)
        }
        if wasLocked {
            text +=
                [0x0A]
                + localized("They locked your pattern for a while, so it may have been refused without a prompt.")
        }
        return text
    }
}
