/// What the store keeps for a pattern held by the TPM: where its PIN Fail index is, which index it
/// must be, and the salt of its auth value. No hash: nothing in it can be checked offline.
///
/// Text form (one store field, like a crypt(5) string, so it cannot contain ':' or a newline):
///
///     $tpm2$<handle: 8 hex>$<Name: 68 hex>$<salt: 32 hex>
///
/// lower-case hex only. The handle is in the range TPMIndexRange.handles; the Name is the index's
/// TPM Name (0x000B = SHA-256, then the digest of its public area, which fixes its type,
/// attributes, write policy and size), so a different index at the same handle (another user's,
/// another TPM's, one defined later) is refused before the TPM is asked anything.
public struct TPMRecord: Equatable, Sendable {
    public static let prefix: [UInt8] = Array("$tpm2$".utf8)
    public static let nameSize = 34
    /// Random bytes of the auth value's salt (TPMPinAuth).
    public static let saltSize = 16
    /// 6 + 8 + 1 + 68 + 1 + 32.
    public static let textSize = 116

    public let handle: UInt32
    public let name: [UInt8]
    public let salt: [UInt8]

    /// nil unless the handle is in range and the sizes are right.
    public init?(handle: UInt32, name: [UInt8], salt: [UInt8]) {
        guard TPMIndexRange.handles.contains(handle), name.count == TPMRecord.nameSize,
            name.first == 0x00, name.dropFirst().first == 0x0B, salt.count == TPMRecord.saltSize
        else { return nil }
        self.handle = handle
        self.name = name
        self.salt = salt
    }

    /// Whether a store field is meant to be a TPM record (as opposed to a yescrypt hash).
    public static func isTPMField<Field: Collection>(_ field: Field) -> Bool where Field.Element == UInt8 {
        return field.starts(with: prefix)
    }

    /// Parses the exact text form; nil for anything else.
    public init?<Field: Collection>(text field: Field) where Field.Element == UInt8 {
        let bytes = Array(field)
        guard bytes.count == TPMRecord.textSize, bytes.starts(with: TPMRecord.prefix),
            bytes[14] == 0x24, bytes[83] == 0x24,
            let handleBytes = TextCodec.parseHex(bytes[6..<14]),
            let name = TextCodec.parseHex(bytes[15..<83]),
            let salt = TextCodec.parseHex(bytes[84..<116])
        else { return nil }
        var handle: UInt32 = 0
        for byte in handleBytes { handle = handle << 8 | UInt32(byte) }
        self.init(handle: handle, name: name, salt: salt)
    }

    /// The text form.
    public var text: [UInt8] {
        var out = TPMRecord.prefix
        let handleBytes: [UInt8] = [
            UInt8(truncatingIfNeeded: handle >> 24), UInt8(truncatingIfNeeded: handle >> 16),
            UInt8(truncatingIfNeeded: handle >> 8), UInt8(truncatingIfNeeded: handle),
        ]
        out.append(contentsOf: TextCodec.hex(handleBytes))
        out.append(0x24)
        out.append(contentsOf: TextCodec.hex(name))
        out.append(0x24)
        out.append(contentsOf: TextCodec.hex(salt))
        return out
    }
}

/// The NV index handles pam_pattern uses: 0x01A50000-0x01A5FFFF, inside the owner range
/// 0x01800000-0x01BFFFFF of the TCG "Registry of Reserved TPM 2.0 Handles and Localities" and clear of
/// the sub-ranges assigned there (systemd 0x01800400-0x018005FF, TCG EK certificates 0x01C0xxxx,
/// the Linux range 0x01D1xxxx). Enrolment takes the lowest handle in it that is free; the top one is the
/// session-key index (TPMSessionKeyFile), never a pattern's.
public enum TPMIndexRange {
    public static let first: UInt32 = 0x01A5_0000
    /// The last handle a pattern's index may have.
    public static let last: UInt32 = 0x01A5_FFFE
    /// The index whose auth value the checks' sessions are bound to (TPMSessionKeyFile).
    public static let sessionKey: UInt32 = 0x01A5_FFFF
    /// Patterns' handles.
    public static let handles: ClosedRange<UInt32> = first...last
    /// Every handle pam_pattern may define (what `postrm purge` clears).
    public static let all: ClosedRange<UInt32> = first...sessionKey

    /// The lowest handle in `from`...last not in `defined` (any order), or nil when all are taken.
    public static func firstFree(defined: [UInt32], from start: UInt32 = first) -> UInt32? {
        guard handles.contains(start) else { return nil }
        let taken = defined.filter { $0 >= start && $0 <= last }.sorted()
        var candidate = start
        for handle in taken {
            if handle > candidate { break }
            if handle == candidate {
                if candidate == last { return nil }
                candidate += 1
            }
        }
        return candidate
    }
}
