import CPamShim

/// Why a prompt produced no usable answer.
enum ConversationFailure: Error {
    /// The application's conversation failed or is missing (the code it returned,
    /// PAM_CONV_ERR when there is no conversation function or no response array).
    case failed(Int32)
    /// The application answered "success" but gave a NULL response string.
    case noAnswer
}

/// A typed answer, valid only inside `Conversation.prompt`'s body. The C string
/// is zeroed and freed right after (pam_pattern_free_answer), so the digits never
/// outlive the call; no Swift copy of them is made here.
struct Answer {
    /// The NUL-terminated answer, for handing on as PAM_AUTHTOK.
    let cString: UnsafePointer<CChar>
    /// The answer's bytes, cut at `viewLimit` (a longer answer shows viewLimit bytes
    /// and `isLongerThanView` is true).
    let bytes: UnsafeBufferPointer<UInt8>
    /// True when the answer is longer than the view.
    let isLongerThanView: Bool
    /// True when the answer is longer than `limit` bytes (never reads past limit + 1).
    func isLonger(than limit: Int) -> Bool { CString.length(cString, limit: limit + 1) > limit }
    var isEmpty: Bool { bytes.isEmpty && !isLongerThanView }
}

/// The module's side of the PAM conversation (through the shim, which refuses a
/// NULL conversation function or NULL response array instead of dereferencing it).
struct Conversation {
    let handle: OpaquePointer?
    /// Why informational and error messages are not shown (prompts still are); nil when they are.
    let silence: Silence?

    /// Why the module holds its messages back.
    enum Silence {
        /// The application passed PAM_SILENT.
        case pamSilent
        /// The service is one of `quiet_services` (SDDM before 0.20 can lose the prompt that follows a message).
        case quietService

        /// How the log says why the person was not told.
        var logNote: String {
            switch self {
            case .pamSilent: return "not told (PAM_SILENT)"
            case .quietService: return "not told (quiet_services)"
            }
        }
    }

    /// PAM_SILENT first: it says more about the caller than the file does.
    static func silence(flags: Int32, quietService: Bool) -> Silence? {
        if (flags & Int32(PAM_SILENT)) != 0 { return .pamSilent }
        return quietService ? .quietService : nil
    }

    /// Whether messages are held back, for whatever reason: the flow then puts what it can into the prompt.
    var silent: Bool { silence != nil }

    /// Shows one PAM_TEXT_INFO message; failures are ignored (a message is a courtesy).
    func info(_ text: [UInt8]) { show(PAM_TEXT_INFO, text) }
    /// Shows one PAM_ERROR_MSG message; failures are ignored.
    func error(_ text: [UInt8]) { show(PAM_ERROR_MSG, text) }
    func info(_ text: String) { info(Array(text.utf8)) }
    func error(_ text: String) { error(Array(text.utf8)) }

    private func show(_ style: Int32, _ text: [UInt8]) {
        guard !silent, let handle else { return }
        _ = CString.with(text, orElse: PAM_BUF_ERR) { pam_pattern_converse(handle, style, $0, nil) }
    }

    /// Prompts with echo off and runs `body` on the answer, whose first `viewLimit`
    /// bytes are visible; the answer is zeroed and freed afterwards.
    func prompt<R>(
        _ text: [UInt8], viewLimit: Int,
        _ body: (Answer) -> R
    ) throws(ConversationFailure) -> R {
        guard let handle else { throw .failed(PAM_SYSTEM_ERR) }
        var raw: UnsafeMutablePointer<CChar>? = nil
        let code = CString.with(text, orElse: PAM_BUF_ERR) {
            pam_pattern_converse(handle, PAM_PROMPT_ECHO_OFF, $0, &raw)
        }
        guard code == PAM_SUCCESS else {
            pam_pattern_free_answer(raw)
            throw .failed(code == PAM_SUCCESS ? PAM_CONV_ERR : code)
        }
        guard let answer = raw else { throw .noAnswer }
        defer { pam_pattern_free_answer(answer) }
        let length = CString.length(answer, limit: viewLimit + 1)
        let visible = length > viewLimit ? viewLimit : length
        return answer.withMemoryRebound(to: UInt8.self, capacity: visible + 1) { start in
            body(
                Answer(
                    cString: UnsafePointer(answer),
                    bytes: UnsafeBufferPointer(start: start, count: visible),
                    isLongerThanView: length > viewLimit))
        }
    }
}
