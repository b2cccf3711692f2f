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
                .store, .state, .layout, .minlen, .deny, .unlockTime, .lockAfter, .cost, .strength, .selfEnroll, .tpm,
                .tpmTCTI,
            ])
        let fileOnly = PatternOption.table.filter { !$0.isArgument }.map { $0.key }
        #expect(fileOnly == [.cost, .strength, .selfEnroll, .tpm, .tpmTCTI])
        // tpm_tcti above all: a pam.d line (or whoever writes one) never picks the TPM that judges guesses.
        let (options, problems) = PatternSettings.parse([
            Array("cost=3".utf8), Array("self_enroll=no".utf8),
            Array("tpm_tcti=swtpm:path=/tmp/s".utf8), Array("tpm=yes".utf8),
        ])
        #expect(problems.count == 4 && options == PatternSettings())
    }

    @Test func everyRowParsesItsOwnCurrentDefault() {
        // The table and PatternSettings agree on kinds: each default, written back as text, parses to itself.
        let defaults = PatternSettings()
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
            case .tpmMode(let mode): text = mode.word
            }
            let setting = try? OptionSetting.parse(row, value: text?[...])
            var options = PatternSettings()
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
        #expect(throws: OptionProblem.notATPMMode) {
            try OptionSetting.parse(PatternOption.spec(for: .tpm), value: Array("maybe".utf8)[...])
        }
        for (text, mode) in [("yes", TPMMode.yes), ("no", .no), ("auto", .auto)] {
            #expect(
                (try? OptionSetting.parse(PatternOption.spec(for: .tpm), value: Array(text.utf8)[...]))
                    == OptionSetting(.tpm, .tpmMode(mode)))
        }
        #expect(OptionProblem.outOfRange(1...1000).requirement == "must be a whole number from 1 to 1000")
    }
}

/// `tpm = yes|no|auto` at enrolment: whether a new pattern goes into the TPM, and what counts as present.
struct TPMModeTests {
    @Test func modeDecidesByPresence() {
        #expect(TPMMode.no.enrolsInTPM(present: true) == false)
        #expect(TPMMode.no.enrolsInTPM(present: false) == false)
        #expect(TPMMode.yes.enrolsInTPM(present: true) == true)
        #expect(TPMMode.yes.enrolsInTPM(present: false) == nil)  // refused: the old pattern stays
        #expect(TPMMode.auto.enrolsInTPM(present: true) == true)
        #expect(TPMMode.auto.enrolsInTPM(present: false) == false)
        #expect(PatternSettings().tpmMode == .no)
    }

    @Test func presentMeansTheNamedDeviceOrSocketExists() {
        #expect(TPMMode.isPresent(tcti: Array("device:/dev/null".utf8)))
        #expect(TPMMode.isPresent(tcti: Array("swtpm:path=/".utf8)))
        #expect(!TPMMode.isPresent(tcti: Array("device:/nonexistent/tpmrm0".utf8)))
        #expect(!TPMMode.isPresent(tcti: Array("swtpm:path=/nonexistent/s".utf8)))
        #expect(!TPMMode.isPresent(tcti: Array("mssim:host=localhost".utf8)))
        #expect(!TPMMode.isPresent(tcti: Array("device:dev/null".utf8)))
    }
}
