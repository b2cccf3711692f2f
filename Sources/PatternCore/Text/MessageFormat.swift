/// Fills a translated message template: "%s" takes the next argument, "%1$s".."%9$s" a given one (so a
/// translation can reorder them), "%%" is '%'; anything else is copied. A missing argument stays empty.
/// Shared by the module and patternctl, whose msgids follow the same rule (po/extract-messages.py).
public enum MessageFormat {
    public static let maximumTemplateBytes = 4096

    public static func fill(_ template: [UInt8], _ arguments: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        var next = 0
        var index = 0
        while index < template.count {
            let byte = template[index]
            guard byte == 0x25, index + 1 < template.count else {
                out.append(byte)
                index += 1
                continue
            }
            let following = template[index + 1]
            if following == 0x25 {  // "%%"
                out.append(0x25)
                index += 2
            } else if following == 0x73 {  // "%s"
                if next < arguments.count { out += arguments[next] }
                next += 1
                index += 2
            } else if following >= 0x31 && following <= 0x39, index + 3 < template.count,
                template[index + 2] == 0x24, template[index + 3] == 0x73
            {  // "%N$s"
                let position = Int(following - 0x31)
                if position < arguments.count { out += arguments[position] }
                index += 4
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }
}
