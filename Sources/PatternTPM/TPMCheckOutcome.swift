import CPatternTPM

/// What a TPM check of a pattern means for authentication.
public enum TPMCheckOutcome: Equatable {
    /// The TPM accepted the auth value (and reset the index's failure count).
    case right
    /// The TPM refused the auth value and counted it (TPM_RC_BAD_AUTH / TPM_RC_AUTH_FAIL).
    case wrong
    /// The index is at its pinLimit: the TPM refuses even the right pattern, counts nothing more.
    case limitReached
    /// Anything else: no TPM, a cleared TPM, a missing or different index, a TPM from another machine,
    /// a dead connection before the guess went out. Never a success, never a counted failure: the stack goes
    /// on to the password.
    case unavailable(code: UInt32)
    /// The guess went to the TPM and its answer never came back (the deadline, a dead connection): the TPM
    /// may have judged and counted it. Never a success; the stack goes on to the password, the count stays.
    case unanswered(code: UInt32)

    /// TPM_RC_BAD_AUTH / TPM_RC_AUTH_FAIL on the first session (the index's), as format-one codes.
    static let badAuthSession1: UInt32 = 0x9A2
    static let authFailSession1: UInt32 = 0x98E
    /// TPM_RC_AUTH_UNAVAILABLE: what a PIN Fail index at its limit answers.
    static let authUnavailable: UInt32 = 0x12F
    /// TPM_RC_NV_UNAVAILABLE (a warning, not a TPM response to our index at the limit so far, but the
    /// specification allows it for an index that cannot be used now).
    static let nvUnavailable: UInt32 = 0x923

    /// The meaning of a result of `pattern_tpm_check_pin`. Only exact codes count as "wrong": a TPM
    /// result from another layer (TCTI, ESAPI: 0xA0000..., 0x70000...) or the layer's own codes are
    /// never mistaken for the TPM's verdict.
    public static func classify(_ rc: UInt32) -> TPMCheckOutcome {
        switch rc {
        case 0: return .right
        case badAuthSession1, authFailSession1: return .wrong
        case authUnavailable, nvUnavailable: return .limitReached
        case TPMFailure.unanswered: return .unanswered(code: rc)
        default: return .unavailable(code: rc)
        }
    }
}

/// A TPM result that is not one of the outcomes above, with tpm2-tss's description.
public struct TPMFailure: Error, Equatable {
    public let code: UInt32

    public init(code: UInt32) {
        self.code = code
    }

    /// A short static description (tpm2-tss's decoder, or the layer's own name for its codes).
    public var description: String {
        guard let text = pattern_tpm_describe(code) else { return "unknown TPM result" }
        return String(cString: text)
    }

    /// Another conversation held the TPM-wide lock past the wait (PATTERN_TPM_RC_BUSY).
    public static let busy: UInt32 = 0x7E00_0005
    /// The conversation lock's file could not be opened or locked (PATTERN_TPM_RC_LOCK_UNUSABLE).
    public static let lockUnusable: UInt32 = 0x7E00_0006
    /// A check's read went out and its answer never came back (PATTERN_TPM_RC_UNANSWERED).
    public static let unanswered: UInt32 = 0x7E00_0008
    /// The conversation's deadline passed before the TPM answered (PATTERN_TPM_RC_TOO_SLOW): a TPM that is there
    /// but slow (or busy), never "no TPM".
    public static let tooSlow: UInt32 = 0x7E00_0009

    /// The code as the syslog lines give it (0x0000014C), beside tpm2-tss's description.
    public var hexCode: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = Array("0x".utf8)
        for shift in stride(from: 28, through: 0, by: -4) { text.append(digits[Int((code >> UInt32(shift)) & 0xF)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// There is no TPM to use: tpm2-tss could not be loaded (PATTERN_TPM_RC_NO_LIBRARY), or the TCTI is not one
    /// the layer takes (PATTERN_TPM_RC_BAD_ARGUMENT, or a TCTI-layer refusal other than a failed exchange).
    public var isNoTPM: Bool {
        code == 0x7E00_0007 || code == 0x7E00_0001 || (code & 0xFF_0000 == 0x0A_0000 && code != 0xA_000A)
    }

    /// An NV index already defined at the handle (another enrolment took it meanwhile).
    public var isHandleTaken: Bool { code == 0x14C }

    /// The owner authorization (empty, all pam_pattern ever sends) was refused: the owner hierarchy has a
    /// password. TPM_RC_BAD_AUTH or TPM_RC_AUTH_FAIL on any session, as format-one codes of the TPM layer.
    public var isOwnerAuthorizationRefused: Bool {
        code < 0x1_0000 && (code & 0x0BF == 0x0A2 || code & 0x0BF == 0x08E)
    }

    /// No room for another index: TPM_RC_NV_SPACE, or every handle of the range taken (TPM_RC_NV_DEFINED).
    public var isFull: Bool { code == 0x14B || code == 0x14C }
}
