import Testing

@testable import PatternCore

@Suite struct PatternOptionTests {
    @Test func everyKeyHasExactlyOneRowAndEveryNameIsUnique() {
        for key in OptionKey.allCases {
            #expect(PatternOption.table.filter { $0.key == key }.count == 1, "\(key)")
        }
        let names = PatternOption.table.map { $0.nameBytes }
        #expect(Set(names.map { String(decoding: $0, as: UTF8.self) }).count == names.count)
        #expect(PatternOption.table.count == OptionKey.allCases.count)
    }

    @Test func rangesAreDeclaredInTheTableAndReadByTheRules() {
        #expect(PatternOption.spec(for: .minlen).range == 4...9)
        #expect(Pattern.minimumLengthRange == 4...9)
        #expect(PatternOption.spec(for: .cost).range == 1...11)
        #expect(PatternHash.costRange == 1...11)
        // The rules read the one declaration; a message that spells a range spells the table's.
        #expect(PatternOption.countRange(.minlen) == Pattern.minimumLengthRange)
        #expect(PatternOption.countRange(.cost) == PatternHash.costRange)
        #expect(HashError.invalidCost(12).message == "invalid yescrypt cost 12 (allowed: 1 to 11)")
        #expect(PatternOption.spec(for: .deny).range == 1...1000)
        #expect(PatternOption.spec(for: .unlockTime).range == 1...31_536_000)
        #expect(PatternOption.spec(for: .lockAfter).range == 0...100_000)
    }

    @Test func systemPolicyIsInTheFileAndConversationIsNot() {
        let confKeys = PatternOption.table.filter { $0.isConfKey }.map { $0.key }
        #expect(
            confKeys == [
                .store, .state, .layout, .minlen, .deny, .unlockTime, .lockAfter, .cost, .selfEnroll, .tpmTCTI,
            ])
        let fileOnly = PatternOption.table.filter { !$0.isArgument }.map { $0.key }
        #expect(fileOnly == [.cost, .selfEnroll, .tpmTCTI])
        // tpm_tcti above all: a pam.d line (or whoever writes one) never picks the TPM that judges guesses.
        let (options, problems) = ModuleOptions.parse([
            Array("cost=3".utf8), Array("self_enroll=no".utf8),
            Array("tpm_tcti=swtpm:path=/tmp/s".utf8),
        ])
        #expect(problems.count == 3 && options == ModuleOptions())
    }

    @Test func everyRowParsesItsOwnCurrentDefault() {
        // The table and ModuleOptions agree on kinds: each default, written back as text, parses to itself.
        let defaults = ModuleOptions()
        for row in PatternOption.table {
            let text: [UInt8]?
            switch defaults.value(of: row.key) {
            case .number(let number): text = Array("\(number)".utf8)
            case .bytes(let bytes): text = bytes
            case .layout(let layout): text = Array((layout == .phone ? "phone" : "numpad").utf8)
            case .yes(let on):
                if case .flag = row.kind { continue }
                text = Array((on ? "yes" : "no").utf8)
            case .on: text = nil
            }
            let setting = try? OptionSetting.parse(row, value: text?[...])
            var options = ModuleOptions()
            if let setting { options.apply(setting) }
            #expect(setting != nil && options == defaults, "\(row.key)")
        }
    }

    @Test func valuesAreCheckedByKind() {
        let deny = PatternOption.spec(for: .deny)
        #expect(throws: OptionProblem.outOfRange(1...1000)) {
            try OptionSetting.parse(deny, value: Array("0".utf8)[...])
        }
        #expect(throws: OptionProblem.needsValue) { try OptionSetting.parse(deny, value: nil) }
        #expect(throws: OptionProblem.takesNoValue) {
            try OptionSetting.parse(PatternOption.spec(for: .nullok), value: Array("1".utf8)[...])
        }
        #expect(throws: OptionProblem.notYesOrNo) {
            try OptionSetting.parse(PatternOption.spec(for: .selfEnroll), value: Array("true".utf8)[...])
        }
        #expect(throws: OptionProblem.notAbsolutePath) {
            try OptionSetting.parse(PatternOption.spec(for: .store), value: Array("etc/x".utf8)[...])
        }
        #expect(OptionProblem.outOfRange(1...1000).requirement == "must be a whole number from 1 to 1000")
    }
}
