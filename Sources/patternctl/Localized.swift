import CPatternSystem
import Glibc
import PatternCore

/// patternctl's messages in the user's language: the core's MessageCatalogue (gettext in the "pam_pattern"
/// domain, one catalogue for the module, the pad and the CLI), as Strings. Unlike the module, patternctl owns
/// its process, so it sets the locale and binds the domain. Every msgid is a literal at a
/// `localized`/`localizedPlural` call (po/extract-messages.py collects them).
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
/// Never inlined: it is called from some 170 places, and one copy of the String round trip is enough.
@inline(never)
func localized(_ msgid: StaticString, arguments: [String]) -> String {
    String(decoding: MessageCatalogue.localized(msgid, arguments: arguments.map { Array($0.utf8) }), as: UTF8.self)
}

@inline(never)
func localizedPlural(
    _ singular: StaticString, _ plural: StaticString, _ count: Int, _ arguments: String...
)
    -> String
{
    let filled = MessageCatalogue.localizedPlural(
        singular, plural, Int64(count), arguments: arguments.map { Array($0.utf8) })
    return String(decoding: filled, as: UTF8.self)
}
