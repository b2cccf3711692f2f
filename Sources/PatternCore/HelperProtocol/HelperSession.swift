import CPatternSystem

/// An `authenticate` run of the helper between its check and the guess (HelperOperation.authenticate): started
/// by HelperClient.startAuthentication, finished exactly once, by `verify` or `close`, before the caller returns
/// to its host (the module: at the end of pam_sm_authenticate, whatever happened in between).
public struct HelperSession {
    /// The C side's session (helper_spawn.c): the child's pidfd and the two ends of its stdin and stdout.
    let handle: OpaquePointer
    let deadlineMilliseconds: Int32

    /// What came of sending the guess.
    public enum Guess {
        case answered(Result<HelperVerdict, HelperFailure>)
        /// The helper had stopped waiting ("expired", or gone before the guess was sent): it never saw the
        /// guess, so the caller may send it as a `verify` of its own.
        case notSeen
    }

    /// Sends the guess (verify's fields) and reads the helper's verdict; the session is over.
    public func verify(fields: [[UInt8]]) -> Guess {
        let finished = finish(fields: fields, before: [])
        if finished.ran == PATTERN_HELPER_GONE_BEFORE_INPUT || finished.output.elementsEqual(HelperVerdict.expired.line)
        {
            return .notSeen
        }
        return .answered(finished.answer)
    }

    /// No guess: the helper is told so, exits, and is reaped (within the deadline).
    public func close() {
        _ = finish(fields: nil, before: [])
    }

    /// pattern_helper_session_finish: `fields` sent (none for nil), the rest of stdout read after `before`, the
    /// child reaped, the session freed.
    func finish(
        fields: [[UInt8]]?, before: [UInt8]
    ) -> (
        ran: pattern_helper_run, output: [UInt8],
        answer: Result<
            HelperVerdict, HelperFailure
        >
    ) {
        var input = fields.map { HelperRequest.encodeFields($0) } ?? []
        defer { input.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
        var output = [UInt8](repeating: 0, count: HelperVerdict.maximumLineBytes + 1)
        var outputLength = 0
        var status: Int32 = 0
        let ran = input.withUnsafeBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                pattern_helper_session_finish(
                    handle, inputBuffer.baseAddress, inputBuffer.count, outputBuffer.baseAddress,
                    outputBuffer.count, &outputLength, deadlineMilliseconds, &status)
            }
        }
        let rest = Array(output.prefix(outputLength))
        let answer = HelperClient.answer(
            ran: ran, status: status, output: before + rest, deadline: deadlineMilliseconds)
        return (ran, rest, answer)
    }
}
