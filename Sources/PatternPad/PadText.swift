import CPatternPad
import PatternCoreEmbedded

/// The pad's own words in the person's language: gettext in the "pam_pattern" domain (the module's
/// catalogue, so a msgid the module also uses has one translation). Every msgid is a literal at a
/// `localized`/`localizedPlural` call (po/extract-messages.py collects them); arguments fill "%s".
func localized(_ msgid: StaticString, _ arguments: [UInt8]...) -> [UInt8] {
    return withCString(msgid) { fill(pattern_pad_gettext($0), arguments) }
}

/// `localized` with a count: the singular or plural form the language uses for `count`.
func localizedPlural(
    _ singular: StaticString, _ plural: StaticString, _ count: Int64, _ arguments: [UInt8]...
)
    -> [UInt8]
{
    let n = UInt(clamping: count < 0 ? 0 : count)
    return withCString(singular) { one in
        withCString(plural) { many in fill(pattern_pad_ngettext(one, many, n), arguments) }
    }
}

/// A literal as a C string (the compiler stores literals NUL-terminated).
private func withCString(_ text: StaticString, _ body: (UnsafePointer<CChar>) -> [UInt8]) -> [UInt8] {
    guard text.hasPointerRepresentation else { return [] }
    return text.utf8Start.withMemoryRebound(to: CChar.self, capacity: text.utf8CodeUnitCount + 1) { body($0) }
}

private func fill(_ template: UnsafePointer<CChar>?, _ arguments: [[UInt8]]) -> [UInt8] {
    guard let bytes = PadText.bytes(template, limit: MessageFormat.maximumTemplateBytes) else { return [] }
    return MessageFormat.fill(bytes, arguments)
}

enum PadText {
    /// The bytes of a NUL-terminated C string of at most `limit` bytes; nil for NULL or a longer one.
    static func bytes(_ pointer: UnsafePointer<CChar>?, limit: Int) -> [UInt8]? {
        guard let pointer else { return nil }
        var length = 0
        while length <= limit && pointer[length] != 0 { length += 1 }
        guard length <= limit else { return nil }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    static func bytes(_ text: StaticString) -> [UInt8] {
        var out: [UInt8] = []
        text.withUTF8Buffer { out.append(contentsOf: $0) }
        return out
    }

    static func number(_ n: Int64) -> [UInt8] { TextCodec.signedDecimal(n) }

    /// A wait as the module spells it ("4 minutes", "1 minute 5 seconds"; the core's DurationWords), in the
    /// person's language.
    static func duration(_ seconds: Int64) -> [UInt8] {
        let words = DurationWords(seconds: seconds)
        let larger = count(words.unit, words.count)
        return words.rest == 0 ? larger : both(larger, count(words.restUnit, words.rest))
    }

    static func count(_ unit: DurationWords.Unit, _ n: Int64) -> [UInt8] {
        switch unit {
        case .second: return localizedPlural("%s second", "%s seconds", n, number(n))
        case .minute: return localizedPlural("%s minute", "%s minutes", n, number(n))
        case .hour: return localizedPlural("%s hour", "%s hours", n, number(n))
        }
    }

    static func both(_ larger: [UInt8], _ smaller: [UInt8]) -> [UInt8] { localized("%1$s %2$s", larger, smaller) }

    /// Whether `bytes` starts with `prefix` at `index`.
    static func has(_ bytes: [UInt8], _ prefix: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + prefix.count <= bytes.count else { return false }
        for i in 0..<prefix.count where bytes[index + i] != prefix[i] { return false }
        return true
    }

    /// The number of characters (UTF-8 lead bytes) in `bytes`.
    static func characterCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }
}
