import CPamShim

/// The module's messages in the application's language, through gettext with the module's own text domain
/// "pam_pattern" (as Linux-PAM's modules use theirs). The module never calls setlocale: the host chose its
/// locale. Every msgid is a literal at a `localized`/`localizedPlural` call; po/extract-messages.py collects
/// them into po/pam_pattern.pot. Arguments fill "%s" in order, or "%1$s".."%9$s" where a translation
/// reorders them; "%%" is '%'.
func localized(_ msgid: StaticString, _ arguments: [UInt8]...) -> [UInt8] {
    return CString.withStatic(msgid) { MessageFormat.fill(pam_pattern_gettext($0), arguments) }
}

/// `localized` with a count: the singular or plural form the language uses for `count`.
func localizedPlural(_ singular: StaticString, _ plural: StaticString, _ count: Int64,
                     _ arguments: [UInt8]...) -> [UInt8] {
    let n = UInt(clamping: count < 0 ? 0 : count)
    return CString.withStatic(singular) { one in
        CString.withStatic(plural) { many in MessageFormat.fill(pam_pattern_ngettext(one, many, n), arguments) }
    }
}

/// Fills a translated template. Bounded: a template is read up to 4 KiB, a missing argument stays empty.
enum MessageFormat {
    static let maximumTemplateBytes = 4096

    static func fill(_ template: UnsafePointer<CChar>?, _ arguments: [[UInt8]]) -> [UInt8] {
        guard let bytes = CString.bytes(template, limit: maximumTemplateBytes) else { return [] }
        return fill(bytes, arguments)
    }

    static func fill(_ template: [UInt8], _ arguments: [[UInt8]]) -> [UInt8] {
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
