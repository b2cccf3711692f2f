import Glibc
import PatternCore

/// Writes to stdout and stderr without Foundation or stdio buffering.
///
/// Why write(2) and not print(): patternctl mixes stdout, stderr and prompts
/// read from the terminal; unbuffered writes keep the order on screen the
/// order in the code (and the stdio globals are not concurrency-safe in Swift 6).
enum Output {
    /// Writes `text` to stdout as is.
    static func write(_ text: String) {
        writeAll(text, to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to stdout.
    static func line(_ text: String = "") {
        write(text + "\n")
        if !text.isEmpty { DrawWindow.say(.info, text) }
    }

    /// Writes "patternctl: message" and a newline to stderr (and shows it in red in the drawing window).
    static func error(_ message: String) {
        writeAll("patternctl: " + message + "\n", to: STDERR_FILENO)
        DrawWindow.say(.error, message)
    }

    /// Writes text to stderr as is (prompts, the hint after a usage error).
    static func errorText(_ text: String) {
        writeAll(text, to: STDERR_FILENO)
    }

    /// Every byte through the core's one write loop (EINTR and short writes); gives up silently on errors
    /// (a closed pipe must not turn into a crash).
    private static func writeAll(_ text: String, to descriptor: Int32) {
        try? SystemCall.writeToStream(descriptor, Array(text.utf8))
    }
}
