import PatternCore

/// Root's `set`, `remove` and `prune` for patterns held by the TPM. patternctl never links tpm2-tss: the TPM
/// work is the setuid helper's root-only operations (tpm-enroll, tpm-remove, tpm-prune), which use the store
/// and TPM of /etc/security/pam_pattern.conf.
enum RootTPM {
    /// Whether a new pattern goes into the TPM (`tpm`, and whether the TPM tpm_tcti names is present); nil
    /// after saying why not when `tpm = yes` finds none.
    static func enrolsInTPM(_ global: GlobalOptions) -> Bool? {
        let settings = global.settings
        let present = TPMMode.isPresent(tcti: settings.tpmTCTI)
        guard let inTPM = settings.tpmMode.enrolsInTPM(present: present) else {
            Output.error(
                localized(
                    "tpm = yes in %s, but no TPM is present (%s does not exist); nothing was changed",
                    String(decoding: settings.confPath, as: UTF8.self),
                    String(decoding: settings.tpmTCTI, as: UTF8.self)))
            return nil
        }
        return inTPM
    }

    /// Whether the store and state patternctl uses are the system's, the ones the helper works on.
    static func usesSystemStore(_ global: GlobalOptions) -> Bool {
        var system = PatternSettings()
        guard let settings = try? ConfFile(path: ConfFile.defaultPath).settings() else { return false }
        system.apply(settings)
        return system.storePath == global.storePath && system.stateDirectory == global.settings.stateDirectory
    }

    /// tpm-enroll through the helper; true when the pattern is in the TPM and the store line replaced, else
    /// false after saying why (nothing changed).
    static func enroll(user: String, _ pattern: Pattern) -> Bool {
        switch HelperCall.run(.tpmEnroll, user: Array(user.utf8), fields: [pattern.digits]) {
        case .success(.accepted): return true
        case .success(.tpmRefused(let problem)):
            Output.error(localized("could not put the pattern into the TPM: %s; nothing was changed", problem.sentence))
        case .success(.weak): Output.error(localized("refused as too easy to guess; nothing was changed"))
        case .success(.malformed(let minimum)):
            Output.error(localized("not a pattern of at least %s dots; nothing was changed", "\(minimum)"))
        case .success(let other):
            Output.error(localized("%s; nothing was changed", other.unexpectedSentence))
        case .failure(let failure): Output.error(failure.outcomeSentence)
        }
        return false
    }

    /// tpm-remove through the helper: the line, then the index.
    static func remove(user: String) -> Bool {
        switch HelperCall.run(.tpmRemove, user: Array(user.utf8), fields: []) {
        case .success(.accepted): return true
        case .success(.notEnrolled):
            Output.error(localized("%s has no pattern held by the TPM; nothing was changed", user))
        case .success(let other):
            Output.error(other.unexpectedSentence)
        case .failure(let failure): Output.error(failure.outcomeSentence)
        }
        return false
    }

    /// tpm-prune through the helper: the number of orphaned indexes deleted, or nil after saying why not.
    static func prune() -> Int? {
        switch HelperCall.run(.tpmPrune, user: Array("root".utf8), fields: []) {
        case .success(.pruned(let count)): return count
        case .success(.tpmRefused(let problem)):
            Output.error(localized("could not delete TPM indexes no pattern names: %s", problem.sentence))
        case .success(let other):
            Output.error(other.unexpectedSentence)
        case .failure(let failure):
            Output.error(localized("could not delete TPM indexes no pattern names: %s", failure.sentence))
        }
        return nil
    }
}
