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
        case .tooSlow:
            return localized(
                "the TPM is there but answered too slowly (one step took longer than its %s s deadline; the syslog lines of pam_pattern_helper name it); try again when the machine is less busy, and if it keeps happening see TPM mode in the reference",
                "\(TPMLockBounds.changeMilliseconds / 1000)")
        case .busy:
            return localized(
                "another enrolment, removal or sweep held the TPM index lock (.tpm.lock beside the pattern store) for longer than the wait; try again"
            )
        case .tooOften:
            return localized(
                "you have put a new pattern into the TPM %s times in the last hour, as often as allowed (its memory is small and wears); try again later, or ask root",
                "\(EnrolmentRecord.limit)")
        }
    }
}
