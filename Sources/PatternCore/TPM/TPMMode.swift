import CPatternSystem

/// `tpm = yes|no|auto`: whether a pattern set from now on is held by the TPM. Only enrolment reads it: a
/// check goes by the user's store record ("$tpm2$" or a yescrypt hash), so changing the setting never locks
/// anyone out.
public enum TPMMode: Equatable, Sendable, NamedByWord {
    /// A yescrypt hash in the store (the default).
    case no
    /// Always the TPM; with none present, enrolment is refused (the old pattern stays).
    case yes
    /// The TPM when one is present at enrolment, else a yescrypt hash.
    case auto

    /// The option's word (`TPMMode(word:)` reads it back).
    public var word: [UInt8] {
        switch self {
        case .no: return Array("no".utf8)
        case .yes: return Array("yes".utf8)
        case .auto: return Array("auto".utf8)
        }
    }

    /// Whether a new pattern goes into the TPM, given whether one is present; nil when `yes` finds none
    /// (enrolment is refused, nothing changes).
    public func enrolsInTPM(present: Bool) -> Bool? {
        switch self {
        case .no: return false
        case .yes: return present ? true : nil
        case .auto: return present
        }
    }

    /// Whether the TPM that `tcti` names is there: its device node ("device:PATH", /dev/tpmrm0 by default) or
    /// its socket ("swtpm:path=PATH", what the tests point tpm_tcti at) exists. Asks the file system only,
    /// not the TPM, so patternctl can tell without linking tpm2-tss.
    public static func isPresent(tcti: [UInt8]) -> Bool {
        let path: [UInt8]
        if tcti.starts(with: Array("device:".utf8)) {
            path = Array(tcti.dropFirst(7))
        } else if tcti.starts(with: Array("swtpm:path=".utf8)) {
            path = Array(tcti.dropFirst(11))
        } else {
            return false
        }
        guard path.first == UInt8(ascii: "/"), let cPath = SystemCall.cString(path) else { return false }
        return access(cPath, F_OK) == 0
    }
}
