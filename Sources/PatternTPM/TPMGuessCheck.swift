import PatternCoreEmbedded

/// GuessGate's TPM check (GuessGate.tpmCheck) over the TPM behind one TCTI. The connection is opened only
/// when the gate asks, so a throttle wait never touches the TPM.
public enum TPMGuessCheck {
    /// `tcti` comes from root's configuration or TPMConnection.defaultTCTI, never from a caller; the
    /// conversation lock is the one beside `store` (TPMConversationBound.check bounds the whole check).
    public static func make(tcti: String, store: PatternStore) -> (TPMRecord, [UInt8], Pattern) -> TPMGuessResult {
        return { record, user, pattern in
            let tpm: TPMConnection
            do throws(TPMFailure) {
                tpm = try TPMConnection(tcti: tcti, bound: .check, lockBeside: store)
            } catch {
                return .unavailable(code: error.code)
            }
            // Read under the conversation lock: enrolment replaces it under the same lock.
            let sessionKey = TPMSessionKeyFile(store: store).read()
            switch TPMPatternIndex.check(pattern, user: user, record: record, sessionKey: sessionKey, on: tpm) {
            case .right: return .right
            case .limitReached: return .limitReached
            case .unavailable(let code): return .unavailable(code: code)
            case .unanswered(let code): return .unanswered(code: code)
            case .wrong:
                // The TPM's own count, for the throttle's max(); an unreadable count is only a missed sync.
                do throws(TPMFailure) {
                    let counter = try TPMPatternIndex.counter(of: record, on: tpm)
                    return .wrong(tpmFailures: Int(counter.failures))
                } catch {
                    return .wrong(tpmFailures: nil)
                }
            }
        }
    }
}
