import CPamShim
import PatternCoreEmbedded

/// One answer, judged once per pam_authenticate call however many pam_pattern lines the stack holds (the
/// pam-auth-update profile in common-auth plus a service file's own line, or any include): the first line that
/// runs prompts and judges, and keeps its verdict on the PAM handle (pam_set_data); a later line of the same
/// call returns that verdict without a prompt and without counting anything.
///
/// libpam tells a module nothing about calls, so a call is recognised by the lines themselves: each line of
/// the stack is its own handler with its own argv, and within one pam_authenticate call every line runs at
/// most once (jumps go forward only). So a line that finds its own argv among those that already used the
/// kept verdict is running in a NEW call (i3lock and xsecurelock's authproto_pam call pam_authenticate again
/// on the same handle for each new answer): it judges afresh and replaces the verdict. A verdict is reused
/// only for the same PAM_USER. pam_pattern(8) says what cannot be told apart (two lines without arguments).
struct StackVerdict: Equatable {
    /// The pam_set_data name.
    static let dataName = "pam_pattern_stack_verdict"
    /// Lines remembered per verdict; a stack with more pam_pattern lines than this judges again.
    static let maximumLines = 16

    /// The PAM code the first line returned.
    var code: Int32
    /// The argv of each line that used it, the judging line first.
    var lines: [UInt64]
    /// PAM_USER it was judged for.
    var user: [UInt8]

    /// "code (4 bytes) count (1 byte) lines (8 bytes each) user".
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        let unsignedCode = UInt32(bitPattern: code)
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: unsignedCode >> UInt32(shift)))
        }
        bytes.append(UInt8(truncatingIfNeeded: lines.count))
        for line in lines {
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: line >> UInt64(shift)))
            }
        }
        bytes.append(contentsOf: user)
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> StackVerdict? {
        guard bytes.count >= 5 else { return nil }
        var unsignedCode: UInt32 = 0
        for index in 0..<4 { unsignedCode |= UInt32(bytes[index]) << UInt32(8 * index) }
        let count = Int(bytes[4])
        guard count <= maximumLines, bytes.count >= 5 + 8 * count else { return nil }
        var lines: [UInt64] = []
        for line in 0..<count {
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(bytes[5 + 8 * line + index]) << UInt64(8 * index) }
            lines.append(value)
        }
        return StackVerdict(code: Int32(bitPattern: unsignedCode), lines: lines, user: Array(bytes[(5 + 8 * count)...]))
    }

    /// The verdict kept on the handle, if any.
    static func kept(on handle: OpaquePointer) -> StackVerdict? {
        var length = 0
        guard let pointer = pam_pattern_kept_bytes(handle, dataName, &length) else { return nil }
        return decode(Array(UnsafeBufferPointer(start: pointer, count: length)))
    }

    /// Keeps it on the handle; false when libpam could not (the next line then judges again, prompting).
    func keep(on handle: OpaquePointer) -> Bool {
        let bytes = encoded()
        return bytes.withUnsafeBufferPointer {
            pam_pattern_keep_bytes(handle, StackVerdict.dataName, $0.baseAddress, $0.count)
        }
            == PAM_SUCCESS
    }

    /// The code for line `line` of the current call if an earlier line of it judged `user` already (and records
    /// that this line used it); nil when this line must judge.
    static func reuse(on handle: OpaquePointer, line: UInt64, user: [UInt8]?) -> Int32? {
        guard let user, var kept = kept(on: handle), kept.user == user, !kept.lines.contains(line),
            kept.lines.count < maximumLines
        else { return nil }
        kept.lines.append(line)
        _ = kept.keep(on: handle)
        return kept.code
    }

    /// Whether an outcome is a verdict a later line may return: not when no user was settled, nor when the
    /// application will resume the call (PAM_INCOMPLETE).
    static func isKept(_ outcome: AuthOutcome) -> Bool {
        switch outcome {
        case .userLookupFailed, .unusableUser: return false
        default: return outcome.pamCode != PAM_INCOMPLETE
        }
    }
}
