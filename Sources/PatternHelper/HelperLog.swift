import CPatternHelper
import PatternCoreEmbedded

/// syslog (LOG_AUTHPRIV, ident pam_pattern_helper). Never the input; user names made printable.
enum HelperLog {
    static func notice(_ message: String) { write(LOG_NOTICE, Array(message.utf8)) }
    static func notice(_ message: [UInt8]) { write(LOG_NOTICE, message) }
    static func critical(_ message: String) { write(LOG_CRIT, Array(message.utf8)) }

    /// `text` + the user name with anything outside printable ASCII as '?'.
    static func line(_ text: String, _ user: [UInt8]) -> [UInt8] {
        var out = Array(text.utf8)
        out.append(contentsOf: TextCodec.printable(Array(user.prefix(100)), space: false))
        return out
    }

    private static func write(_ priority: Int32, _ message: [UInt8]) {
        var text = message.map { $0 == 0 ? UInt8(ascii: "?") : $0 }
        text.append(0)
        text.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                pattern_helper_log(priority, $0)
            }
        }
    }
}
