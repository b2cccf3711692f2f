import CPamShim
import PatternCoreEmbedded

/// Every way pam_sm_authenticate can end. `pamCode` below is the ONE place where
/// an outcome becomes a PAM return code (docs/reference.md, "Return values", mirrors it).
enum AuthOutcome {
    /// The right pattern (in any spelling that parses to it).
    case accepted
    /// pam_get_user failed with this code (the application gave no user and prompting failed).
    case userLookupFailed(Int32)
    /// No user name, or one no store line can hold (empty, too long, control bytes, ':').
    case unusableUser
    /// PAM_RHOST names a host and `allow_remote` is not set. No prompt was shown.
    case remoteRefused
    /// PAM service "patternctl": pam_pattern_helper checks the account password; no pattern is asked for.
    case passwordCheckSkipped
    /// The user has no pattern and `nullok` is set: let the next module decide.
    case notEnrolledSkipped
    /// The user has no pattern and `nullok` is not set (or PAM_DISALLOW_NULL_AUTHTOK).
    case notEnrolled
    /// The throttle refuses: a wait is running or the pattern is disabled. No prompt was shown.
    case locked(ThrottleVerdict)
    /// The person pressed Enter: skip to the next module. Not counted.
    case emptyAnswer
    /// The person pressed Enter and `empty_fails` is set: a failure (not counted).
    case emptyAnswerRefused
    /// The conversation failed, is missing, or returned no answer.
    case conversationFailed
    /// The answer is not a pattern (bad character, repeated dot, too short, too long). Not counted.
    case malformed(PatternError)
    /// A wrong pattern. Counted.
    case wrongPattern(verdictAfter: ThrottleVerdict)
    /// The pattern matched a record the store no longer holds (removed or changed during the attempt). Counted.
    case revoked
    /// forward_pass or forward_non_pattern: the answer is not a pattern; handed on as PAM_AUTHTOK. Not counted.
    case forwarded
    /// forward_pass: a wrong pattern (counted), also handed on as PAM_AUTHTOK.
    case forwardedAfterWrongPattern(verdictAfter: ThrottleVerdict)
    /// forward_pass: the answer could not be handed on (too long for a password, or pam_set_item failed).
    case forwardFailed
    /// The store or throttle state is missing, unreadable, unsafe or corrupt, a system call failed, or
    /// libcrypt could not hash (StoreError.hash: no memory for yescrypt, for one): fail closed.
    case storeUnavailable(StoreError)
    /// The configuration file is unsafe, unreadable or malformed: fail closed.
    case configurationUnusable(ConfError)
    /// Not running as root, and pam_pattern_helper could not be run or gave no usable answer: fail closed.
    case helperFailed(HelperFailure)
    /// A `reset_on_success` line, past a successful stack: whatever it came to, it changes no verdict.
    case successReset(SuccessReset.Result)

    /// The PAM return code for this outcome.
    var pamCode: Int32 {
        switch self {
        case .accepted: return PAM_SUCCESS
        // Only "no pattern (with nullok)", "nothing typed", the helper's password check and a reset_on_success line
        // may be PAM_IGNORE.
        case .notEnrolledSkipped, .emptyAnswer, .forwarded, .passwordCheckSkipped, .successReset: return PAM_IGNORE
        case .notEnrolled, .unusableUser: return PAM_USER_UNKNOWN
        case .userLookupFailed(let code):
            // pam_get_user's own failure; CONV_AGAIN becomes INCOMPLETE as in pam_unix.
            if code == PAM_CONV_AGAIN { return PAM_INCOMPLETE }
            if code == PAM_SUCCESS || code == PAM_IGNORE { return PAM_USER_UNKNOWN }  // never pass success on
            return code
        case .remoteRefused, .locked, .malformed, .emptyAnswerRefused, .wrongPattern, .forwardedAfterWrongPattern,
            .revoked:
            return PAM_AUTH_ERR
        case .conversationFailed: return PAM_CONV_ERR
        case .forwardFailed: return PAM_AUTH_ERR
        case .storeUnavailable, .configurationUnusable, .helperFailed: return PAM_AUTHINFO_UNAVAIL
        }
    }

    /// Failures that get pam_fail_delay (everything but success and the two skips).
    var isFailure: Bool {
        let code = pamCode
        return code != PAM_SUCCESS && code != PAM_IGNORE
    }

    /// A short name for debug logging (no secrets).
    var name: String {
        switch self {
        case .accepted: return "accepted"
        case .userLookupFailed: return "user lookup failed"
        case .unusableUser: return "unusable user name"
        case .remoteRefused: return "remote host refused"
        case .passwordCheckSkipped: return "the helper's password check, skipped"
        case .notEnrolledSkipped: return "not enrolled, skipped (nullok)"
        case .notEnrolled: return "not enrolled"
        case .locked: return "locked by the throttle"
        case .emptyAnswer: return "empty answer, skipped"
        case .emptyAnswerRefused: return "empty answer, refused (empty_fails)"
        case .conversationFailed: return "conversation failed"
        case .malformed: return "malformed answer"
        case .wrongPattern: return "wrong pattern"
        case .revoked: return "pattern changed or removed during the attempt"
        case .forwarded: return "answer forwarded as password"
        case .forwardedAfterWrongPattern: return "wrong pattern, forwarded as password"
        case .forwardFailed: return "could not forward the answer"
        case .storeUnavailable: return "store unavailable"
        case .configurationUnusable: return "configuration unusable"
        case .helperFailed: return "helper failed"
        case .successReset(let result): return "reset_on_success: " + result.name
        }
    }
}
