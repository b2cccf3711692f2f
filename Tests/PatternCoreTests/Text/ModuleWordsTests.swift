import Testing

@testable import PatternCore

/// The reader on the generated table; every sentence in every language is read through both builds by
/// Tests/CoreVectorsTests, these are the rules in one place.
struct ModuleWordsTests {
    static func read(_ text: String) -> ModuleWords.Reading { ModuleWords.read(Array(text.utf8)) }

    @Test func theModulesVerdictsReadBackAsSaid() {
        // What the module says (VerdictWords, the route after it), read back: the verdict it was made from.
        let verdicts: [(ThrottleVerdict, ModuleWords.Said, Bool)] = [
            (.allowed(freeAttemptsLeft: 0), .wrong(triesLeft: nil), true),
            (.allowed(freeAttemptsLeft: 1), .wrong(triesLeft: 1), true),
            (.allowed(freeAttemptsLeft: 4), .wrong(triesLeft: 4), true),
            (.wait(secondsLeft: 294), .wait(seconds: 294), true),
            (.wait(secondsLeft: 7260), .wait(seconds: 7260), true),
            (.disabled, .disabled, true),
        ]
        for selfEnroll in [true, false] {
            let route = ForgottenPattern.route(selfEnroll: selfEnroll)
            for (verdict, said, afterWrong) in verdicts {
                let reading = ModuleWords.read(VerdictWords.wrong(verdict) + [0x20] + route)
                #expect(reading.said == said, "\(verdict)")
                #expect(reading.afterWrong == afterWrong, "\(verdict)")
                #expect(reading.route == route)
                #expect(reading.language == Array("C".utf8))
            }
            for (verdict, said) in [
                (ThrottleVerdict.wait(secondsLeft: 59), ModuleWords.Said.wait(seconds: 59)),
                (.disabled, .disabled),
            ] {
                let reading = ModuleWords.read(VerdictWords.locked(verdict) + [0x20] + route)
                #expect(reading.said == said && !reading.afterWrong, "\(verdict)")
            }
        }
    }

    @Test func anythingElseIsOther() {
        for text in [
            "", "Password: ", "Wrong pattern. x tries left before a wait.",
            "Wrong pattern. 1234567890123 tries left before a wait.",
            "Too many wrong patterns: try again in soon. Your password still works.",
            "Wrong pattern. Forgot your pattern?",
        ] {
            #expect(Self.read(text) == ModuleWords.Reading.other, "\(text)")
        }
    }

    @Test func theModulesPrompts() {
        #expect(ModuleWords.prompt(Array("Pattern: ".utf8)) == .pattern)
        #expect(ModuleWords.prompt(Array("Pattern or password: ".utf8)) == .patternOrPassword)
        #expect(ModuleWords.prompt(Array("图案：".utf8)) == .pattern)
        #expect(ModuleWords.prompt(Array("Password: ".utf8)) == nil)
    }

    @Test func templatesCutAtTheirPlaceholders() {
        #expect(ModuleWords.split(Array("a %s b %2$s".utf8)) == [Array("a ".utf8), Array(" b ".utf8), []])
        #expect(ModuleWords.split(Array("%1$s %2$s".utf8)) == [[], [0x20], []])
        #expect(ModuleWords.split(Array("100%".utf8)) == [Array("100%".utf8)])
    }
}
