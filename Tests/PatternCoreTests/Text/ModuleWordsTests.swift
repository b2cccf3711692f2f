import Testing

@testable import PatternCore

/// The reader on the generated table; every sentence in every language is read through both builds by
/// Tests/CoreVectorsTests, these are the rules in one place.
struct ModuleWordsTests {
    static func read(_ text: String) -> ModuleWords.Reading { ModuleWords.read(Array(text.utf8)) }

    @Test func aScreenSaysThePasswordInPlaceOfEitherRouteInTheModulesLanguage() {
        // A lock or login screen cannot run patternctl: what it says instead, in the language of the message.
        for selfEnroll in [true, false] {
            let reading = ModuleWords.read(
                VerdictWords.wrong(.allowed(freeAttemptsLeft: 2)) + [0x20]
                    + ForgottenPattern.route(selfEnroll: selfEnroll))
            #expect(ModuleWords.screenRoute(for: reading) == ForgottenPattern.atScreen())
            #expect(ModuleWords.screenRoute(for: reading) == Array("Forgot your pattern? Use your password.".utf8))
        }
        let chinese = Self.read("图案错误。还可再试 2 次，之后需要等待。 忘记图案了？可用密码设置新图案：patternctl set --forgot")
        #expect(chinese.language == Array("zh_CN".utf8))
        #expect(ModuleWords.screenRoute(for: chinese) == Array("忘记图案了？请使用密码。".utf8))
        // No route said, none to replace.
        #expect(ModuleWords.screenRoute(for: Self.read("Wrong pattern.")) == [])
        #expect(ModuleWords.screenRoute(for: Self.read("Password: ")) == [])
    }

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
