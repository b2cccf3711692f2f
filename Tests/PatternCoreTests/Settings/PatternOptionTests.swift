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
                .tpmTCTI, .quietServices,
            ])
        let fileOnly = PatternOption.table.filter { !$0.isArgument }.map { $0.key }
        #expect(fileOnly == [.cost, .strength, .selfEnroll, .tpm, .tpmTCTI, .quietServices])
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
            case .names(let names):
                // No service by default: the key left out (an empty value is refused, as for every key).
                if names.isEmpty { continue }
                text = Array(names.joined(separator: [UInt8(ascii: ",")]))
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

    @Test func quietServicesAreNamesPAMServiceCanBe() {
        let quiet = PatternOption.spec(for: .quietServices)
        func names(_ text: String) -> [String]? {
            guard case .names(let names)? = (try? OptionSetting.parse(quiet, value: Array(text.utf8)[...]))?.value
            else { return nil }
            return names.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(names("sddm") == ["sddm"])
        // Commas, spaces and tabs all separate; a name given twice is kept once.
        #expect(names("sddm, sddm-greeter\tkde,,sddm") == ["sddm", "sddm-greeter", "kde"])
        #expect(names("polkit-1 gdm.password a_b+c") == ["polkit-1", "gdm.password", "a_b+c"])
        #expect(names(String(repeating: "s", count: 255)) != nil)
        // libpam lower-cases PAM_SERVICE and keeps its last path component: names it can never hold are refused.
        for bad in [
            "SDDM", "/etc/pam.d/sddm", "sddm;kde", "sddm=1", ",", " , ", "sd\u{e9}dm",
            String(repeating: "s", count: 256),
        ] {
            #expect(throws: OptionProblem.notServiceNames, "\(bad)") {
                try OptionSetting.parse(quiet, value: Array(bad.utf8)[...])
            }
        }
        #expect(throws: OptionProblem.needsValue) { try OptionSetting.parse(quiet, value: Array("".utf8)[...]) }
        #expect(
            OptionProblem.notServiceNames.requirement
                == "must be PAM service names (lower-case letters, digits, . _ + -, at most 255 bytes each) separated by commas or spaces"
        )
        // Nothing is quiet by default; a service is quiet only by its exact name.
        var options = PatternSettings()
        #expect(options.quietServices.isEmpty && !options.isQuiet(service: Array("sddm".utf8)))
        options.apply(OptionSetting(.quietServices, .names([Array("sddm".utf8)])))
        #expect(options.isQuiet(service: Array("sddm".utf8)))
        #expect(!options.isQuiet(service: Array("sddm-greeter".utf8)))
        #expect(!options.isQuiet(service: Array("sdd".utf8)))
        #expect(!options.isQuiet(service: []))
        // A pam.d line cannot set it: the services' stacks share common-auth.
        let (fromArguments, problems) = PatternSettings.parse([Array("quiet_services=sddm".utf8)])
        #expect(fromArguments == PatternSettings() && problems.count == 1)
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
