import Glibc

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
    }

    /// Writes "patternctl: message" and a newline to stderr.
    static func error(_ message: String) {
        writeAll("patternctl: " + message + "\n", to: STDERR_FILENO)
    }

    /// Writes text to stderr as is (prompts, the hint after a usage error).
    static func errorText(_ text: String) {
        writeAll(text, to: STDERR_FILENO)
    }

    /// write(2) until everything is written, retrying EINTR; gives up silently
    /// on other errors (a closed pipe must not turn into a crash).
    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
