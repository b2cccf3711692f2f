import PatternCore

extension TPMProblem {
    /// What to tell the person whose pattern the TPM would not take: the cause, named.
    var sentence: String {
        switch self {
        case .absent: return localized("no TPM is present")
        case .ownerAuthorization:
            return localized(
                "the TPM's owner hierarchy has a password: pam_pattern needs the owner authorization to be empty and keeps no password (see tpm in pam_pattern.conf(5))"
            )
        case .full: return localized("the TPM has no NV space or free handle left for another pattern")
        case .failed: return localized("the TPM refused (the syslog lines of pam_pattern_helper say why)")
        case .busy: return localized("an enrolment into the TPM was under way for longer than the wait; try again")
        }
    }
}
