import Testing

@testable import PatternCore

@Suite struct MessageFormatTests {
    func fill(_ template: String, _ arguments: String...) -> String {
        String(decoding: MessageFormat.fill(Array(template.utf8), arguments.map { Array($0.utf8) }), as: UTF8.self)
    }

    @Test func fillsInOrderAndByPosition() {
        #expect(fill("%s of %s", "1", "2") == "1 of 2")
        #expect(fill("%2$s，%1$s", "a", "b") == "b，a")
        #expect(fill("100%% %s", "x") == "100% x")
    }

    @Test func oddTemplatesNeverTrap() {
        #expect(fill("%s %s", "only") == "only ")  // a missing argument stays empty
        #expect(fill("%9$s", "a") == "")
        #expect(fill("%") == "%")
        #expect(fill("%d %1$") == "%d %1$")
        #expect(fill("%0$s", "a") == "%0$s")
    }
}
