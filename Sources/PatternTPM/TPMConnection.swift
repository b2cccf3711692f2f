import CPatternTPM

/// An open connection to a TPM through one TCTI.
///
/// The TCTI string comes from root's configuration or the compile-time default, never from the
/// caller's environment: a setuid helper must not let its caller point it at another "TPM".
public final class TPMConnection {
    /// The kernel's resource manager: it flushes what a killed process left in the TPM.
    public static let defaultTCTI = "device:/dev/tpmrm0"

    let context: OpaquePointer

    /// Opens the TPM behind `tcti` ("device:/path" or "swtpm:path=/path").
    public init(tcti: String) throws(TPMFailure) {
        var opened: OpaquePointer? = nil
        let rc = tcti.withCString { pattern_tpm_open($0, &opened) }
        guard rc == 0, let context = opened else { throw TPMFailure(code: rc == 0 ? 0x7E00_0001 : rc) }
        self.context = context
    }

    deinit {
        pattern_tpm_close(context)
    }

    /// The NV indexes defined in `from`...`through` (at most 256, ascending).
    public func definedIndexes(from first: UInt32, through last: UInt32) throws(TPMFailure) -> [UInt32] {
        var handles = [UInt32](repeating: 0, count: PATTERN_TPM_MAX_LISTED)
        var count = 0
        let rc = handles.withUnsafeMutableBufferPointer { buffer in
            pattern_tpm_list_indexes(context, first, last, buffer.baseAddress, &count)
        }
        guard rc == 0 else { throw TPMFailure(code: rc) }
        return Array(handles.prefix(count))
    }
}
