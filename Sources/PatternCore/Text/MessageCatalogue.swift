import CPatternSystem

/// The programs' words in the person's language: gettext in the "pam_pattern" domain, one catalogue for the
/// module, the pad and patternctl, so a msgid two of them say has one translation. Each program chooses its
/// locale and binds the domain its own way (the module keeps the host's locale, as Linux-PAM's modules do;
/// the pad and patternctl own their process and call setlocale); the lookup, the bounded read of the
/// translation and the filling of its "%s" are the same for all and live here, as does a sentence several
/// programs say (a wait: DurationWords.said).
public enum MessageCatalogue {
    public static let textDomain: StaticString = "pam_pattern"

    /// `msgid` translated, "%s" and "%1$s".."%9$s" filled from `arguments` (MessageFormat). The msgid is a
    /// literal at the call: po/extract-messages.py collects the literals of every `localized` and
    /// `localizedPlural` call.
    public static func localized(_ msgid: StaticString, _ arguments: [UInt8]...) -> [UInt8] {
        localized(msgid, arguments: arguments)
    }

    public static func localized(_ msgid: StaticString, arguments: [[UInt8]]) -> [UInt8] {
        let translated = withCString(textDomain) { domain in withCString(msgid) { template(dgettext(domain, $0)) } }
        return MessageFormat.fill(translated, arguments)
    }

    /// `localized` with a count: the singular or plural form the language uses for `count`.
    public static func localizedPlural(
        _ singular: StaticString, _ plural: StaticString, _ count: Int64, _ arguments: [UInt8]...
    ) -> [UInt8] {
        localizedPlural(singular, plural, count, arguments: arguments)
    }

    public static func localizedPlural(
        _ singular: StaticString, _ plural: StaticString, _ count: Int64, arguments: [[UInt8]]
    ) -> [UInt8] {
        let n = UInt(clamping: count < 0 ? 0 : count)
        let translated = withCString(textDomain) { domain in
            withCString(singular) { one in withCString(plural) { many in template(dngettext(domain, one, many, n)) } }
        }
        return MessageFormat.fill(translated, arguments)
    }

    /// A literal as a C string: the compiler stores literals NUL-terminated. A StaticString without a pointer
    /// (a single scalar) gives [].
    static func withCString(_ text: StaticString, _ body: (UnsafePointer<CChar>) -> [UInt8]) -> [UInt8] {
        guard text.hasPointerRepresentation else { return [] }
        return text.utf8Start.withMemoryRebound(to: CChar.self, capacity: text.utf8CodeUnitCount + 1) { body($0) }
    }

    /// gettext's answer (static storage, NUL-terminated) as bytes; [] for NULL or one longer than any template
    /// may be (a damaged catalogue is not read past the limit).
    static func template(_ pointer: UnsafePointer<CChar>?) -> [UInt8] {
        guard let pointer else { return [] }
        let limit = MessageFormat.maximumTemplateBytes
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length + 1) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}

/// `MessageCatalogue.localized`, as the module and the pad call it (patternctl adds a String form beside it).
public func localized(_ msgid: StaticString, _ arguments: [UInt8]...) -> [UInt8] {
    MessageCatalogue.localized(msgid, arguments: arguments)
}

/// `MessageCatalogue.localizedPlural`, as the module and the pad call it.
public func localizedPlural(
    _ singular: StaticString, _ plural: StaticString, _ count: Int64, _ arguments: [UInt8]...
) -> [UInt8] {
    MessageCatalogue.localizedPlural(singular, plural, count, arguments: arguments)
}

/// Marks a message the core builds as a gettext msgid (po/extract-messages.py collects these literals, as it
/// does patternctl's `localized` ones); it is translated where it is shown.
func translatable(_ msgid: StaticString) -> StaticString { msgid }
