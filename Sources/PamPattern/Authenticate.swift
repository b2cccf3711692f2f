import CPamShim
import CPatternSystem
import PatternCoreEmbedded

/// The flow of pam_sm_authenticate, one decision per step. Returns an
/// outcome; Entry.swift turns it into a PAM code (AuthOutcome.swift).
///
/// 1. user; 2. remote host refused unless allow_remote (no prompt; LoginOrigin says what is remote);
/// 3. not enrolled: no prompt; 4. locked: no prompt, say why and that the
/// password works; 5. grid + echo-off prompt; 6. empty answer skips;
/// 7. malformed says what is wrong (not counted); 8. GuessGate records the
/// failure before hashing, verifies, resets on success.
/// forward_pass changes 7 and 8, forward_non_pattern only 7: see `forward`.
struct Authenticator {
    let options: PatternSettings
    let flags: Int32
    let items: PamItems
    let conversation: Conversation
    let log: ModuleLog
    /// Seconds since the epoch; injected so the flow has no hidden clock.
    let now: () -> Int64

    /// The longest password handed on with forward_pass (PAM_MAX_RESP_SIZE).
    static let maximumForwardedBytes = Int(PAM_MAX_RESP_SIZE)

    func run() -> AuthOutcome {
        // 0. The account password check of pam_pattern_helper's enroll (PAM service "patternctl", reached through
        // common-auth): the password sets a new pattern there, so no pattern may stand in for it, and the
        // answer given to every echo-off prompt is the password, never to be judged (and counted) as a pattern.
        if items.service() == PamItems.passwordCheckService {
            log.debug("service patternctl: the account password check, skipped")
            return .passwordCheckSkipped
        }

        // 1. Who.
        let user: [UInt8]
        switch items.user() {
        case .user(let name): user = name
        case .failed(let code): return .userLookupFailed(code)
        case .unusable: return .unusableUser
        }

        // 2. A pattern is too small a secret for the network.
        if items.isRemote() && !options.allowRemote {
            log.notice(logLine("refusing a pattern from a remote host for user ", user, " (allow_remote not set)"))
            return .remoteRefused
        }

        // Root reads the store itself; anyone else (a screen locker) asks pam_pattern_helper, and so does root
        // for a pattern held by the TPM (decided where the record is read: GuessService.enrollment).
        var service = GuessService.forCurrentProcess(options: options)
        // A helper still waiting for a guess that never came is told so and reaped before the host goes on.
        defer { service.finish() }

        // 3. Enrolled? A store we cannot trust is never "not enrolled".
        // 4. Locked: no pattern prompt (under PAM_SILENT with forward_pass, a password prompt that says why).
        let triesLeft: Int
        do {
            switch try service.enrollment(user: user, now: now()) {
            case .notEnrolled:
                return notEnrolled(user)
            case .enrolled(let verdict):
                switch verdict {
                case .allowed(let left): triesLeft = left
                case .wait, .disabled:
                    conversation.error(UserMessages.locked(verdict, selfEnroll: options.selfEnroll))
                    logLocked(user, verdict)
                    if conversation.silent && options.asksForPassword {
                        return passwordWhileLocked(verdict, user: user)
                    }
                    return .locked(verdict)
                }
            }
        } catch {
            return serviceFailure(error, user: user)
        }

        // 5. Ask.
        if options.showGrid {
            // ASCII: the module cannot know the terminal's locale. The keys shown
            // follow layout=; the conversation adds the final newline itself.
            var grid = Array(PatternDrawing.emptyGrid(style: .ascii, layout: options.layout).utf8)
            if grid.last == UInt8(ascii: "\n") { grid.removeLast() }
            conversation.info(grid)
        }
        let outcome: AuthOutcome
        do {
            outcome = try conversation.prompt(
                promptText(triesLeft: triesLeft), viewLimit: Pattern.maximumInputBytes + 1
            ) {
                answer in judge(answer, user: user, service: &service)
            }
        } catch {
            switch error {
            case .failed(let code): log.error("conversation failed (PAM code \(Int(code)))")
            case .noAnswer: log.error("conversation returned no answer")
            }
            return .conversationFailed
        }
        return outcome
    }

    /// Steps 6-8 on a typed answer (valid only during this call).
    func judge(_ answer: Answer, user: [UInt8], service: inout GuessService) -> AuthOutcome {
        // 6. Enter alone: skip to the next module, not counted.
        if answer.isEmpty {
            log.debug(logLine("empty answer from user ", user))
            if options.emptyFails {
                conversation.error(UserMessages.emptyRefused)
                log.notice(logLine("empty answer from user ", user, " refused (empty_fails)"))
                return .emptyAnswerRefused
            }
            return .emptyAnswer
        }

        // 7. Is it a pattern at all?
        let pattern: Pattern
        do throws(PatternError) {
            if answer.isLongerThanView {
                throw PatternError.tooLong(byteCount: answer.bytes.count)
            }
            pattern = try Pattern.parse(answer.bytes, layout: options.layout, minimumLength: options.minimumLength)
        } catch {
            return malformed(error, answer: answer, user: user)
        }

        // The canonical dots must not stay in the host's freed memory (the parser zeroed its own arrays).
        defer { pattern.wipe() }

        // 8. Record, verify, reset.
        let outcome: GuessOutcome
        var unseen: UnseenFailures? = nil
        do {
            // Every success ends the run of failures, told or not (PAM_SILENT, a locker through the helper): the
            // next notice counts from the last success anywhere, as its words say.
            switch try service.attempt(
                user: user, pattern: pattern, now: now(), origin: items.origin(),
                markSeen: true, unseen: &unseen)
            {
            case .judged(let judged): outcome = judged
            case .tooShort(let minimum):
                // The system's minlen (through the helper) is stricter than this module's.
                return malformed(.tooShort(dotCount: pattern.dots.count, minimum: minimum), answer: answer, user: user)
            }
        } catch {
            if options.forwardPass { _ = items.setAuthToken(answer.cString) }
            return serviceFailure(error, user: user)
        }
        switch outcome {
        case .accepted:
            log.debug(logLine("pattern accepted for user ", user))
            if let unseen { tellFailuresSince(unseen.count, last: unseen.last) }
            return .accepted
        case .rejected(let verdictAfter):
            log.notice(logLine("wrong pattern for user ", user))
            if options.forwardPass { return forward(answer, user: user, counted: verdictAfter) }
            conversation.error(UserMessages.wrong(verdictAfter, selfEnroll: options.selfEnroll))
            return .wrongPattern(verdictAfter: verdictAfter)
        case .refused(let verdict):
            // Locked between check and attempt (a parallel login).
            if options.forwardPass { _ = items.setAuthToken(answer.cString) }
            conversation.error(UserMessages.locked(verdict, selfEnroll: options.selfEnroll))
            logLocked(user, verdict)
            return .locked(verdict)
        case .revoked:
            // The pattern matched, but the store no longer holds that record: removed or changed while hashing.
            if options.forwardPass { _ = items.setAuthToken(answer.cString) }
            conversation.error(UserMessages.revoked)
            log.notice(logLine("pattern of user ", user, " was changed or removed during the attempt; refused"))
            return .revoked
        case .notEnrolled:
            // Removed between lookup and attempt.
            if options.forwardPass { _ = items.setAuthToken(answer.cString) }
            return notEnrolled(user)
        }
    }

    /// Step 7's refusal: not a pattern, not counted (with forward_pass or forward_non_pattern: handed on as a
    /// password).
    func malformed(_ error: PatternError, answer: Answer, user: [UInt8]) -> AuthOutcome {
        if options.asksForPassword { return forward(answer, user: user, counted: nil) }
        conversation.error(UserMessages.malformed)
        log.notice(logLine("malformed pattern from user ", user, " (not counted)"))
        return .malformed(error)
    }

    /// forward_pass: hand the answer on as PAM_AUTHTOK so the next module
    /// (pam_unix try_first_pass) can use it and the person types once.
    /// `counted` is the verdict after a wrong pattern, nil for a non-pattern.
    func forward(_ answer: Answer, user: [UInt8], counted: ThrottleVerdict?) -> AuthOutcome {
        if answer.isLonger(than: Self.maximumForwardedBytes) {
            log.notice(logLine("answer too long to forward for user ", user))
            return .forwardFailed
        }
        let code = items.setAuthToken(answer.cString)
        guard code == PAM_SUCCESS else {
            log.critical("pam_set_item(PAM_AUTHTOK) failed (PAM code \(Int(code)))")
            return .forwardFailed
        }
        guard let verdictAfter = counted else { return .forwarded }
        // The answer may be a numeric password, so no "wrong pattern" unless the
        // pattern just got locked: then the person must know why it stops working.
        switch verdictAfter {
        case .allowed: break
        case .wait, .disabled: conversation.error(UserMessages.wrong(verdictAfter, selfEnroll: options.selfEnroll))
        }
        return .forwardedAfterWrongPattern(verdictAfter: verdictAfter)
    }

    /// The prompt: `prompt=` as given, else the default in the application's language. Under PAM_SILENT (or for a
    /// service of `quiet_services`) the prompt is all the person sees, so after a failure the default one says how
    /// many tries are left before a wait (what "Wrong pattern. 3 tries left before a wait." would have said).
    func promptText(triesLeft: Int) -> [UInt8] {
        if options.prompt == PatternSettings.defaultPrompt {
            let failed = triesLeft < max(options.throttle.deny, 1)
            if conversation.silent && failed && triesLeft > 0 {
                return UserMessages.promptWithTries(orPassword: options.asksForPassword, left: triesLeft)
            }
            return UserMessages.defaultPrompt(orPassword: options.asksForPassword)
        }
        return options.effectivePrompt
    }

    /// PAM_SILENT (or `quiet_services`) hides why a locked pattern is not asked for; with forward_pass the module
    /// may ask for the password itself, in words that say it ("Password (pattern locked: try again in 5 minutes):
    /// "), and hand the answer on as PAM_AUTHTOK, as it does with any answer that is not a pattern. Still a refusal
    /// (locked).
    func passwordWhileLocked(_ verdict: ThrottleVerdict, user: [UInt8]) -> AuthOutcome {
        do {
            return try conversation.prompt(UserMessages.passwordWhileLocked(verdict), viewLimit: 0) { answer in
                if answer.isEmpty { return .locked(verdict) }
                if answer.isLonger(than: Self.maximumForwardedBytes) { return .forwardFailed }
                let code = items.setAuthToken(answer.cString)
                guard code == PAM_SUCCESS else {
                    log.critical("pam_set_item(PAM_AUTHTOK) failed (PAM code \(Int(code)))")
                    return .forwardFailed
                }
                log.debug(logLine("locked pattern: the password of user ", user, " asked for and handed on"))
                return .locked(verdict)
            }
        } catch {
            return .conversationFailed
        }
    }

    /// "N failed pattern attempts since your last success, the last from su on /dev/pts/1 at ...".
    func tellFailuresSince(_ count: Int, last: FailedAttempt) {
        var buffer = [CChar](repeating: 0, count: 64)
        let formatted = buffer.withUnsafeMutableBufferPointer { out -> Bool in
            guard let base = out.baseAddress else { return false }
            return pam_pattern_format_time(last.time, base, Int32(out.count)) == 0
        }
        let time = formatted ? CString.prefix(buffer, limit: buffer.count) : UserMessages.number(last.time)
        conversation.info(
            UserMessages.failuresSince(
                count: count, last: last, time: time,
                wasLocked: count >= options.throttle.deny))
    }

    /// Every refusal by the throttle reaches syslog with the wait, so the admin can tell the person why
    /// their pattern was refused even when the caller (sudo before 1.9.16) passed PAM_SILENT.
    func logLocked(_ user: [UInt8], _ verdict: ThrottleVerdict) {
        var line = logLine("pattern locked for user ", user)
        switch verdict {
        case .wait(let secondsLeft):
            line +=
                Array(" (too many wrong patterns; next try in ".utf8) + UserMessages.number(secondsLeft)
                + Array(" s)".utf8)
        case .disabled: line += Array(" (disabled after too many wrong patterns; patternctl reset re-enables it)".utf8)
        case .allowed: break
        }
        if let silence = conversation.silence { line += Array("; \(silence.logNote)".utf8) }
        log.notice(line)
    }

    func notEnrolled(_ user: [UInt8]) -> AuthOutcome {
        // PAM_DISALLOW_NULL_AUTHTOK overrides nullok, as in pam_unix.
        if options.nullok && (flags & Int32(PAM_DISALLOW_NULL_AUTHTOK)) == 0 {
            log.debug(logLine("no pattern for user ", user, ", skipped (nullok)"))
            return .notEnrolledSkipped
        }
        log.notice(logLine("no pattern enrolled for user ", user))
        return .notEnrolled
    }

    func serviceFailure(_ error: GuessService.Failure, user: [UInt8]) -> AuthOutcome {
        switch error {
        case .store(let storeError):
            log.critical("pattern store or state unusable: \(storeError.message)")
            return .storeUnavailable(storeError)
        case .helper(let failure):
            log.critical(failure.message)
            return .helperFailed(failure)
        }
    }
}
