import Testing

@testable import PatternCore

private func args(_ list: String...) -> [[UInt8]] { list.map { Array($0.utf8) } }
private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite struct PatternSettingsTests {
    @Test func noArgumentsGiveStrictDefaults() {
        let (options, problems) = PatternSettings.parse([])
        #expect(problems.isEmpty)
        #expect(options == PatternSettings())
        #expect(options.storePath == Array("/etc/security/pam_pattern/patterns".utf8))
        #expect(options.stateDirectory == Array("/var/lib/pam_pattern".utf8))
        #expect(!options.nullok && !options.showGrid && !options.forwardPass && !options.allowRemote && !options.debug)
        #expect(options.layout == .phone)
        #expect(options.minimumLength == 4)
        #expect(options.throttle == ThrottleSettings())
        #expect(options.prompt == Array("Pattern: ".utf8))
    }

    @Test func everyOptionIsApplied() {
        let (options, problems) = PatternSettings.parse(
            args(
                "store=/tmp/s/patterns", "state=/tmp/s/state", "nullok", "layout=numpad", "minlen=6",
                "deny=3", "unlock_time=1", "lock_after=9", "show_grid", "prompt=Draw it: ",
                "forward_pass", "allow_remote", "debug"))
        #expect(problems.isEmpty)
        #expect(options.storePath == Array("/tmp/s/patterns".utf8))
        #expect(options.stateDirectory == Array("/tmp/s/state".utf8))
        #expect(options.nullok && options.showGrid && options.forwardPass && options.allowRemote && options.debug)
        #expect(options.layout == .numpad)
        #expect(options.minimumLength == 6)
        #expect(options.throttle == ThrottleSettings(deny: 3, unlockTime: 1, lockAfter: 9))
        #expect(options.prompt == Array("Draw it: ".utf8))
    }

    @Test func laterOptionWins() {
        let (options, problems) = PatternSettings.parse(args("minlen=5", "minlen=7", "layout=numpad", "layout=phone"))
        #expect(problems.isEmpty)
        #expect(options.minimumLength == 7)
        #expect(options.layout == .phone)
    }

    @Test func unknownOptionIsReportedAndIgnored() {
        let (options, problems) = PatternSettings.parse(args("nulok", "use_first_pass", "debug"))
        #expect(problems.count == 2)
        #expect(text(problems[0]) == "unknown option \"nulok\", ignored")
        #expect(options.debug)
        #expect(!options.nullok)
    }

    @Test(arguments: [
        "minlen=3", "minlen=10", "minlen=", "minlen=-4", "minlen=+5", "minlen= 5", "minlen=5x", "minlen=0x5",
        "minlen=99999999999999999999999999", "minlen=9223372036854775808",
    ])
    func badMinlenKeepsDefault(_ argument: String) {
        let (options, problems) = PatternSettings.parse(args(argument))
        #expect(problems.count == 1)
        #expect(options.minimumLength == 4)
    }

    @Test func numbersAtTheLimitsAreAccepted() {
        let (options, problems) = PatternSettings.parse(
            args("minlen=9", "deny=1000", "unlock_time=31536000", "lock_after=100000"))
        #expect(problems.isEmpty)
        #expect(options.minimumLength == 9)
        #expect(options.throttle == ThrottleSettings(deny: 1000, unlockTime: 31_536_000, lockAfter: 100_000))
        let low = PatternSettings.parse(args("minlen=4", "deny=1", "unlock_time=1", "lock_after=1", "minlen=0004"))
        #expect(low.problems.isEmpty)
        #expect(low.options.throttle == ThrottleSettings(deny: 1, unlockTime: 1, lockAfter: 1))
        #expect(low.options.minimumLength == 4)
        #expect(PatternSettings.parse(args("lock_after=0")).options.throttle.lockAfter == 0)
    }

    @Test(arguments: [
        "deny=0", "deny=1001", "unlock_time=0", "unlock_time=31536001", "lock_after=100001",
        "lock_after=18446744073709551616", "unlock_time=-1", "deny=five",
    ])
    func badThrottleValuesKeepDefaults(_ argument: String) {
        let (options, problems) = PatternSettings.parse(args(argument))
        #expect(problems.count == 1)
        #expect(options.throttle == ThrottleSettings())
    }

    @Test(arguments: ["store=", "store=relative/patterns", "store=/", "state=", "state=var/lib", "store"])
    func badPathsKeepDefaults(_ argument: String) {
        let (options, problems) = PatternSettings.parse(args(argument))
        #expect(problems.count == 1)
        #expect(options.storePath == PatternSettings.defaultStorePath)
        #expect(options.stateDirectory == PatternSettings.defaultStateDirectory)
    }

    @Test func tooLongPathIsRefused() {
        let long = "store=/" + String(repeating: "a", count: 4095)
        let (options, problems) = PatternSettings.parse(args(long))
        #expect(problems.count == 1)
        #expect(options.storePath == PatternSettings.defaultStorePath)
        // The quoted argument in the message is capped.
        #expect(problems[0].count < 200)
        #expect(text(problems[0]).contains("...\""))
    }

    @Test(arguments: ["layout=Phone", "layout=", "layout=numpad2", "layout=keypad"])
    func badLayoutKeepsPhone(_ argument: String) {
        let (options, problems) = PatternSettings.parse(args(argument))
        #expect(problems.count == 1)
        #expect(options.layout == .phone)
    }

    @Test(arguments: ["nullok=1", "nullok=", "debug=yes", "show_grid=0", "forward_pass=", "allow_remote=no"])
    func flagWithValueIsIgnored(_ argument: String) {
        let (options, problems) = PatternSettings.parse(args(argument))
        #expect(problems.count == 1)
        #expect(options == PatternSettings())
        #expect(text(problems[0]).contains("takes no value"))
    }

    @Test func promptMayContainSpacesAndEquals() {
        let (options, problems) = PatternSettings.parse(args("prompt=Your pattern (a=b): "))
        #expect(problems.isEmpty)
        #expect(options.prompt == Array("Your pattern (a=b): ".utf8))
    }

    @Test func badPromptKeepsDefault() {
        let tooLong = "prompt=" + String(repeating: "p", count: 201)
        for argument in [tooLong, "prompt=", "prompt=a\nb", "prompt=\u{1b}[2J"] {
            let (options, problems) = PatternSettings.parse(args(argument))
            #expect(problems.count == 1)
            #expect(options.prompt == Array("Pattern: ".utf8))
        }
        let exactly200 = "prompt=" + String(repeating: "p", count: 200)
        #expect(PatternSettings.parse(args(exactly200)).problems.isEmpty)
    }

    @Test func problemMessagesAreSanitisedForSyslog() {
        let (_, problems) = PatternSettings.parse([[0x66, 0x0a, 0x1b, 0xff, 0x6f]])
        #expect(problems.count == 1)
        #expect(text(problems[0]) == "unknown option \"f???o\", ignored")
        #expect(!problems[0].contains(where: { $0 < 0x20 || $0 >= 0x7f }))
    }

    @Test func emptyArgumentIsUnknown() {
        let (options, problems) = PatternSettings.parse([[]])
        #expect(problems.count == 1)
        #expect(options == PatternSettings())
    }
}

@Suite struct PatternSettingsPromptTests {
    @Test func forwardPassChangesOnlyTheDefaultPrompt() {
        #expect(PatternSettings.parse(args()).options.effectivePrompt == Array("Pattern: ".utf8))
        #expect(
            PatternSettings.parse(args("forward_pass")).options.effectivePrompt == Array("Pattern or password: ".utf8))
        #expect(
            PatternSettings.parse(args("forward_pass", "prompt=PIN: ")).options.effectivePrompt == Array("PIN: ".utf8))
        #expect(PatternSettings.parse(args("prompt=PIN: ")).options.effectivePrompt == Array("PIN: ".utf8))
    }

    @Test func forwardNonPatternAsksForEitherToo() {
        let options = PatternSettings.parse(args("forward_non_pattern")).options
        #expect(options.forwardNonPattern && !options.forwardPass && options.asksForPassword)
        #expect(options.effectivePrompt == Array("Pattern or password: ".utf8))
        #expect(!PatternSettings.parse(args()).options.asksForPassword)
    }
}
