import CPatternTPM
import PatternCoreEmbedded

/// The session-key index (TPMIndexRange.sessionKey) and its secret (TPMSessionKeyFile), kept in step by
/// enrolment: checks bind their sessions to it (TPMPatternIndex.check) instead of making an ECC key and an
/// ECDH in the TPM each time.
public enum TPMSessionKey {
    /// Makes sure the index and the file agree (a bound session proves it), else makes a new secret, writes
    /// the file, then (re)defines the index. A failure only leaves checks on the slower salted session. Three
    /// conversations at most, each on a connection of `connect`'s (closed before the next opens): the proof, the
    /// old index's deletion, the new index (its key creation, ECDH and two flash writes alone take about 0.8 s
    /// on the slowest chips).
    public static func ensure(
        beside store: PatternStore, connect: () throws(TPMFailure) -> TPMConnection
    ) throws(TPMFailure) {
        let file = TPMSessionKeyFile(store: store)
        if let secret = file.read() {
            let tpm = try connect()
            let proved = secret.withUnsafeBufferPointer {
                pattern_tpm_prove_session_key(tpm.context, TPMIndexRange.sessionKey, $0.baseAddress)
            }
            if proved == 0 { return }
        }
        // An index whose secret is lost (or another's) at the handle.
        try remove(on: try connect())
        var secret = [UInt8](repeating: 0, count: TPMSessionKeyFile.size)
        defer { for i in secret.indices { secret[i] = 0 } }
        for i in secret.indices { secret[i] = UInt8.random(in: 0...255) }
        // The file first: a helper killed between the two leaves a file the index does not prove, which the
        // next enrolment replaces; never an index whose secret nobody has.
        do throws(StoreError) { try file.write(secret) } catch { throw TPMFailure(code: TPMFailure.lockUnusable) }
        let tpm = try connect()
        let rc = secret.withUnsafeBufferPointer {
            pattern_tpm_define_session_key(tpm.context, TPMIndexRange.sessionKey, $0.baseAddress)
        }
        guard rc == 0 else { throw TPMFailure(code: rc) }
    }

    /// Deletes the index (the orphan sweep, when no store line is a TPM record any more).
    public static func remove(on tpm: TPMConnection) throws(TPMFailure) {
        let rc = pattern_tpm_undefine_any(tpm.context, TPMIndexRange.sessionKey)
        guard rc == 0 || rc == 0x18B else { throw TPMFailure(code: rc) }
    }
}
