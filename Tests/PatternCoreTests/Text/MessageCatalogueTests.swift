import Testing

@testable import PatternCore

/// The tests never call setlocale: the C locale, where gettext answers every msgid with itself, in English
/// plurals. The translations themselves are tested through the programs (Tests/LocaleTests, Tests/PadTests).
@Suite struct MessageCatalogueTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func fillsTheTemplateWithTheArguments() {
        #expect(text(localized("%s of %s", Array("1".utf8), Array("2".utf8))) == "1 of 2")
        #expect(
            text(MessageCatalogue.localized("%2$s, %1$s", arguments: [Array("a".utf8), Array("b".utf8)])) == "b, a")
    }

    @Test func choosesThePluralFormForTheCount() {
        #expect(text(localizedPlural("%s try", "%s tries", 1, Array("1".utf8))) == "1 try")
        #expect(text(localizedPlural("%s try", "%s tries", 4, Array("4".utf8))) == "4 tries")
        // A negative count is asked as 0 (ngettext takes an unsigned count).
        #expect(text(localizedPlural("%s try", "%s tries", -1, Array("0".utf8))) == "0 tries")
    }

    @Test func aTranslationIsReadBoundedOrNotAtAll() {
        #expect(MessageCatalogue.template(nil) == [])
        let limit = MessageFormat.maximumTemplateBytes
        for (length, read) in [(limit, limit), (limit + 1, 0)] {
            let answer = UnsafeMutablePointer<CChar>.allocate(capacity: length + 1)
            defer { answer.deallocate() }
            answer.initialize(repeating: 0x61, count: length)
            answer[length] = 0
            #expect(MessageCatalogue.template(UnsafePointer(answer)).count == read, "\(length) bytes")
        }
    }
}
