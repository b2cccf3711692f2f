import CPamShim
import CPatternSystem
import PatternCoreEmbedded

/// A `reset_on_success` line: the stack has succeeded (the line sits where nothing else reaches: common-auth's
/// "Additional" block, after pam_deny), so the user's pattern failures are cleared, as pam_faillock's
/// `authsucc`. No prompt, no message, and always PAM_IGNORE, so the line can never turn the stack's verdict.
///
/// The throttle is what stops a program running as the person from guessing their pattern at sudo, so a reset
/// needs a success the resetting process sees itself. As root (sudo, su, login) the module is the
/// authenticating program's own code, run only past the primary block: it clears the state in process. Not as
/// root (a screen locker runs PAM as the person, and so could any program of theirs), the module's word counts
/// for nothing: it hands the password the stack holds (PAM_AUTHTOK, which pam_unix left) to the helper, which
/// checks it itself and clears only on a match (HelperOperation.passwordReset). No PAM_AUTHTOK: no reset.
struct SuccessReset {
    let options: PatternSettings
    let items: PamItems
    let log: ModuleLog

    /// What the line came to (logged; the PAM code is PAM_IGNORE whatever it is).
    enum Result {
        /// Not this line's business: no user set, the helper's own password check, or the pattern accepted in
        /// this very stack (which cleared the count already).
        case skipped
        case nothingToReset
        case cleared
        /// lock_after reached: kept until root resets it.
        case disabled
        /// Not root and no password on the handle (the stack succeeded some other way): the helper has nothing to
        /// check, so nothing is cleared.
        case noPassword
        /// The helper found the password wrong (not the one the stack checked): nothing cleared.
        case wrongPassword
        /// The state or the helper could not be used: nothing cleared.
        case failed
    }

    func run(handle: OpaquePointer) -> Result {
        // pam_pattern_helper's own PAM run (service "patternctl"): the helper clears after its own check.
        if items.service() == PamItems.passwordCheckService { return .skipped }
        guard let user = items.currentUser(), StoreRecord.isValidUserName(user) else { return .skipped }
        if let kept = StackVerdict.kept(on: handle), kept.user == user, kept.code == PAM_SUCCESS {
            log.debug(logLine("reset_on_success: the pattern of user ", user, " was accepted in this stack"))
            return .skipped
        }
        return geteuid() == 0 ? clearInProcess(user) : clearThroughHelper(user)
    }

    /// Root: the state file read under its lock, written only when there is something to clear.
    func clearInProcess(_ user: [UInt8]) -> Result {
        do throws(StoreError) {
            let outcome = try PasswordReset.clear(
                user: user, throttle: ThrottleStore(directory: options.stateDirectory), settings: options.throttle)
            return logged(outcome, user: user)
        } catch {
            log.critical("reset_on_success: throttle state unusable: \(error.message)")
            return .failed
        }
    }

    /// Not root: the password the stack checked, checked again by the helper, which alone may clear.
    func clearThroughHelper(_ user: [UInt8]) -> Result {
        guard var token = items.authToken(limit: HelperRequest.maximumPasswordBytes), !token.isEmpty else {
            log.debug(logLine("reset_on_success: no usable PAM_AUTHTOK for user ", user, "; not reset"))
            return .noPassword
        }
        defer { token.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
        let client = HelperClient(deadlineMilliseconds: HelperClient.moduleDeadlineMilliseconds)
        switch client.call(.passwordReset, user: user, fields: [token]) {
        case .success(.accepted):
            log.debug(logLine("reset_on_success: the helper cleared the pattern failures of user ", user))
            return .cleared
        case .success(.locked(.disabled)): return logged(.disabled, user: user)
        case .success(.wrong):
            log.notice(logLine("reset_on_success: the helper found the password of user ", user, " wrong; not reset"))
            return .wrongPassword
        case .success(let other):
            log.critical("reset_on_success: unexpected helper answer (exit \(Int(other.exit.rawValue)))")
            return .failed
        case .failure(let failure):
            log.critical(failure.message)
            return .failed
        }
    }

    func logged(_ outcome: PasswordReset, user: [UInt8]) -> Result {
        switch outcome {
        case .nothingToReset: return .nothingToReset
        case .cleared(let failures):
            log.notice(logLine("pattern failures (\(failures)) of user ", user, " cleared after a successful login"))
            return .cleared
        case .disabled:
            log.debug(logLine("reset_on_success: the pattern of user ", user, " is disabled; only root resets it"))
            return .disabled
        }
    }
}

extension SuccessReset.Result {
    /// For the debug line.
    var name: String {
        switch self {
        case .skipped: return "skipped"
        case .nothingToReset: return "nothing to reset"
        case .cleared: return "failures cleared"
        case .disabled: return "disabled, kept"
        case .noPassword: return "no password to check, not reset"
        case .wrongPassword: return "password wrong, not reset"
        case .failed: return "could not reset"
        }
    }
}
