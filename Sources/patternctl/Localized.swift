import CPatternSystem
import Glibc
import PatternCore

/// patternctl's messages in the user's language: gettext with the text domain "pam_pattern" (one catalogue
/// for the module and the CLI). Unlike the module, patternctl owns its process, so it sets the locale.
/// Every msgid is a literal at a `localized`/`localizedPlural` call (po/extract-messages.py collects them);
/// arguments fill "%s" in order or "%1$s".."%9$s" (MessageFormat).
enum Language {
    /// Where `make install` puts the catalogues.
    static let localeDirectory = "/usr/share/locale"
    static let textDomain = "pam_pattern"

    /// The user's locale (LANG, LC_ALL, LC_MESSAGES) and the catalogue.
    static func setUp() {
        _ = setlocale(LC_ALL, "")
        _ = bindtextdomain(textDomain, localeDirectory)
    }
}

func localized(_ msgid: StaticString, _ arguments: String...) -> String {
    localized(msgid, arguments: arguments)
}

/// `localized` for a msgid that is not a literal here (the core's messages mark theirs with `translatable`).
func localized(_ msgid: StaticString, arguments: [String]) -> String {
    // gettext may return its argument: copy the result while the C string is alive.
    let text = msgid.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    let template = text.withCString { Array(String(cString: dgettext(Language.textDomain, $0)).utf8) }
    return String(decoding: MessageFormat.fill(template, arguments.map { Array($0.utf8) }), as: UTF8.self)
}

func localizedPlural(
    _ singular: StaticString, _ plural: StaticString, _ count: Int, _ arguments: String...
)
    -> String
{
    let one = singular.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    let many = plural.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    let template = one.withCString { oneC in
        many.withCString { manyC in
            Array(String(cString: dngettext(Language.textDomain, oneC, manyC, UInt(max(count, 0)))).utf8)
        }
    }
    return String(decoding: MessageFormat.fill(template, arguments.map { Array($0.utf8) }), as: UTF8.self)
}
