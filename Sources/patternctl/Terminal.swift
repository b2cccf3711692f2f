import CReadPassphrase
import Glibc
import PatternCore

/// The terminal, for reading patterns: echo off on a terminal, plain lines otherwise.
enum Terminal {
    /// Longest line kept. The core refuses anything over Pattern.maximumInputBytes,
    /// so this only bounds memory while still letting the core see "too long".
    static let lineLimit = 4096

    /// True when stdin is a terminal (then entries are read with echo off).
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// The terminal on stdin ("/dev/pts/3"), empty when there is none: for the attempt record only.
    static var name: [UInt8] {
        guard let path = ttyname(STDIN_FILENO) else { return [] }
        return Array(String(cString: path).utf8.prefix(AttemptRecord.maximumFieldBytes))
    }

    /// True when stdout is a terminal whose locale encodes UTF-8 and whose TERM
    /// can show box-drawing and arrow characters; otherwise drawings are plain
    /// ASCII. TERM unset or "dumb" (no terminal features), "linux" (the console's
    /// 512-glyph fonts lack the diagonals and diagonal arrows) and "vt*" mean ASCII.
    static var outputSupportsUnicode: Bool {
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        guard let term = getenv("TERM").map({ String(cString: $0) }),
            !term.isEmpty, term != "dumb", term != "linux", !term.hasPrefix("linux-"), !term.hasPrefix("vt")
        else {
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
        var byte: [UInt8] = [0]
        var sawAnything = false
        // A read error ends the line as end of input does.
        while let count = try? SystemCall.read(STDIN_FILENO, into: &byte, from: 0), count > 0 {
            sawAnything = true
            if byte[0] == UInt8(ascii: "\n") { break }
            if line.count < lineLimit { line.append(byte[0]) }
        }
        byte[0] = 0
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return sawAnything ? line : nil
    }

    /// Shows `prompt` on the terminal and reads one line from it with echo off (libbsd's readpassphrase(3)).
    /// Echo goes off before the prompt shows and is restored however the read ends: Enter, Ctrl-C, SIGTERM,
    /// SIGHUP (the signal is re-raised after the restore, so patternctl still dies of it), and Ctrl-Z: after
    /// `fg` echo goes off again and the prompt is shown anew. Reads the controlling terminal (/dev/tty), as
    /// sudo and ssh do; nil, after saying why, when there is none.
    static func readSecret(prompt: String) -> [UInt8]? {
        // One buffer for the C call, wiped before it is released; lineLimit bytes and the NUL.
        var buffer = [CChar](repeating: 0, count: lineLimit + 1)
        defer {
            buffer.withUnsafeMutableBytes { raw in
                if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
            }
        }
        let read = buffer.withUnsafeMutableBufferPointer { chars -> Bool in
            guard let base = chars.baseAddress else { return false }
            return readpassphrase(prompt, base, chars.count, RPP_ECHO_OFF | RPP_REQUIRE_TTY) != nil
        }
        guard read else {
            Output.error(
                localized(
                    "cannot read from the terminal with echo off (errno %s); run patternctl from a terminal, or give the pattern on standard input",
                    "\(errno)"))
            return nil
        }
        var line: [UInt8] = []
        // Reserved up front so no reallocation leaves a copy of the digits behind.
        line.reserveCapacity(lineLimit)
        for char in buffer {
            if char == 0 { break }
            line.append(UInt8(bitPattern: char))
        }
        return line
    }

    /// Overwrites a secret in memory (the typed digits) before it is released.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
        }
        bytes.removeAll()
    }
}
