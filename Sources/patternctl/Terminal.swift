import Glibc

/// The terminal, for reading patterns: echo off on a terminal, plain lines otherwise.
enum Terminal {
    /// Longest line kept. The core refuses anything over Pattern.maximumInputBytes,
    /// so this only bounds memory while still letting the core see "too long".
    static let lineLimit = 4096

    /// True when stdin is a terminal (then entries are read with echo off).
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// True when stdout is a terminal whose locale encodes UTF-8 and whose TERM
    /// can show box-drawing and arrow characters; otherwise drawings are plain
    /// ASCII. TERM unset or "dumb" (no terminal features), "linux" (the console's
    /// 512-glyph fonts lack the diagonals and diagonal arrows) and "vt*" mean ASCII.
    static var outputSupportsUnicode: Bool {
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        guard let term = getenv("TERM").map({ String(cString: $0) }),
              !term.isEmpty, term != "dumb", term != "linux", !term.hasPrefix("linux-"), !term.hasPrefix("vt") else {
            return false
        }
        guard setlocale(LC_CTYPE, "") != nil, let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).lowercased()
        return name == "utf-8" || name == "utf8"
    }

    /// Reads one line from stdin without its line ending; nil at end of input
    /// with nothing read. Unbuffered (read(2) one byte at a time) so that
    /// nothing past the line is consumed.
    static func readLine() -> [UInt8]? {
        var line: [UInt8] = []
        // Reserved up front so no reallocation leaves a copy of the digits behind.
        line.reserveCapacity(lineLimit)
        var byte: UInt8 = 0
        var sawAnything = false
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            if count == 0 { break }
            sawAnything = true
            if byte == UInt8(ascii: "\n") { break }
            if line.count < lineLimit { line.append(byte) }
        }
        byte = 0
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return sawAnything ? line : nil
    }

    /// Shows `prompt` on stderr and reads one line from the terminal with echo off.
    /// Echo is restored afterwards, also when the user interrupts with a signal.
    static func readSecret(prompt: String) -> [UInt8]? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            Output.errorText(prompt)
            return readLine()
        }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO)
        savedTerminal = original
        installRestoringHandlers()
        // Echo goes off BEFORE the prompt shows: whatever is typed after seeing it is
        // never echoed, and TCSAFLUSH only drops what was typed before (as getpass does).
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        Output.errorText(prompt)
        let line = readLine()
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &original)
        savedTerminal = nil
        // The Enter key was not echoed either.
        Output.errorText("\n")
        return line
    }

    /// Overwrites a secret in memory (the typed digits) before it is released.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
        }
        bytes.removeAll()
    }

    /// The terminal settings to restore if a signal arrives while echo is off.
    nonisolated(unsafe) private static var savedTerminal: termios? = nil
    nonisolated(unsafe) private static var handlersInstalled = false

    /// Why: Ctrl-C at the prompt must not leave the user's terminal without echo.
    private static func installRestoringHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                if var saved = Terminal.savedTerminal {
                    _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
                    _ = write(STDERR_FILENO, "\n", 1)
                }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
