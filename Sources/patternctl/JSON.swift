/// A JSON value written by `--json`, without Foundation: only what status and
/// list need. Objects keep their keys in the order given, so the output is
/// byte-stable for a given state (scripts and tests may compare it).
indirect enum JSON {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    /// `value` as a JSON string, or null.
    static func optional(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }
    /// `value` as a JSON number, or null.
    static func optional(_ value: Int64?) -> JSON { value.map { .integer($0) } ?? .null }

    /// Compact JSON text (no spaces, no newline).
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let value): JSON.quote(value, to: &out)
        case .integer(let value): out += "\(value)"
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                JSON.quote(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// RFC 8259 string: quote, backslash and control characters escaped; the
    /// rest as UTF-8 (a user name with invalid UTF-8 was already decoded with
    /// U+FFFD replacements).
    private static func quote(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = Array("0123456789abcdef".unicodeScalars)
                    out += "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
