/// The write policy of one PIN Fail index (TPMPatternIndex.writePolicy): the write-once branch and the whole
/// policy's digest, with the record's unsatisfiable tag. Worked out by the TPM in a conversation of its own, so
/// the conversation that defines the index fits its deadline on the slowest chips.
public struct TPMWritePolicy: Equatable {
    /// TPMPinAuth.policyTag of the record's salt.
    public let tag: [UInt8]
    /// PolicyCommandCode(NV_Write) + PolicyNvWritten(NO).
    public let branch: [UInt8]
    /// PolicyOR(branch, tag): the index's authPolicy.
    public let digest: [UInt8]
}
