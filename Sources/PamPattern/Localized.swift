import CPamShim
import PatternCoreEmbedded

/// The module's messages in the application's language, through gettext with the module's own text domain
/// "pam_pattern" (as Linux-PAM's modules use theirs). The module never calls setlocale: the host chose its
/// locale. Every msgid is a literal at a `localized`/`localizedPlural` call; po/extract-messages.py collects
/// them into po/pam_pattern.pot. Arguments fill "%s" in order, or "%1$s".."%9$s" where a translation
/// reorders them; "%%" is '%'.
func localized(_ msgid: StaticString, _ arguments: [UInt8]...) -> [UInt8] {
    return CString.withStatic(msgid) { fill(pam_pattern_gettext($0), arguments) }
}

/// `localized` with a count: the singular or plural form the language uses for `count`.
func localizedPlural(
    _ singular: StaticString, _ plural: StaticString, _ count: Int64,
    _ arguments: [UInt8]...
) -> [UInt8] {
    let n = UInt(clamping: count < 0 ? 0 : count)
    return CString.withStatic(singular) { one in
        CString.withStatic(plural) { many in fill(pam_pattern_ngettext(one, many, n), arguments) }
    }
}

/// A translation from gettext (static storage, NUL-terminated) with its arguments filled in.
private func fill(_ template: UnsafePointer<CChar>?, _ arguments: [[UInt8]]) -> [UInt8] {
    guard let bytes = CString.bytes(template, limit: MessageFormat.maximumTemplateBytes) else { return [] }
    return MessageFormat.fill(bytes, arguments)
}
