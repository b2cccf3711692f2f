import Testing

@testable import PatternCore

/// The helper protocol: every verdict survives encode -> decode with its exit status, anything else is refused,
/// and stdin framing accepts exactly the operation's NUL-ended fields.
struct HelperProtocolTests {
    static let verdicts: [HelperVerdict] = [
        .accepted, .allowed(freeAttemptsLeft: 5), .allowed(freeAttemptsLeft: 0),
        .wrong(.allowed(freeAttemptsLeft: 3)), .wrong(.wait(secondsLeft: 60)), .wrong(.disabled),
        .locked(.wait(secondsLeft: 31_536_000)), .locked(.disabled), .notEnrolled, .malformed(minimumLength: 6),
        .unavailable, .refused(.usage), .refused(.user), .refused(.tty), .refused(.input),
        .tpmRefused(.absent), .tpmRefused(.ownerAuthorization), .tpmRefused(.full), .tpmRefused(.failed),
        .tpmRefused(.tooSlow),
        .pruned(0), .pruned(65536), .expired,
    ]

    @Test func everyVerdictRoundTripsWithItsExitStatus() {
        for verdict in Self.verdicts {
            let line = verdict.line
            #expect(line.count <= HelperVerdict.maximumLineBytes)
            #expect(HelperVerdict.decode(exitStatus: verdict.exit.rawValue, output: line) == verdict)
        }
    }

    @Test func aLineWithTheWrongExitStatusIsRefused() {
        for verdict in Self.verdicts {
            for status in Int32(0)...Int32(8) where status != verdict.exit.rawValue {
                #expect(HelperVerdict.decode(exitStatus: status, output: verdict.line) == nil)
            }
        }
    }

    @Test func linesOutsideTheProtocolAreRefused() {
        let bad = [
            "", "accepted", "accepted\nx\n", "accepted \n", " accepted\n", "allowed\n", "allowed -1\n",
            "allowed 01\n", "allowed 1234567890123\n", "wrong\n", "wrong wait\n", "wrong disabled 3\n",
            "locked allowed 3\n", "malformed minlen 3\n", "malformed minlen 10\n", "refused nope\n",
            "ACCEPTED\n", "accepted\n\n", String(repeating: "a", count: 80) + "\n", "expired 1\n", "expired\n\n",
            "allowed 5\naccepted\n",
        ]
        for text in bad {
            for status in Int32(0)...Int32(7) {
                #expect(HelperVerdict.decode(exitStatus: status, output: Array(text.utf8)) == nil, "\(text)")
            }
        }
    }

    @Test func throttleVerdictsKeepTheirNumbers() {
        let line = Array("wrong wait 900\n".utf8)
        #expect(HelperVerdict.decode(exitStatus: 1, output: line) == .wrong(.wait(secondsLeft: 900)))
        #expect(HelperVerdict.wrong(.wait(secondsLeft: -5)).line == Array("wrong wait 0\n".utf8))
    }

    @Test func framingAcceptsExactlyTheFields() {
        #expect(HelperRequest.parseFields([], count: 0) == [])
        #expect(HelperRequest.parseFields(Array("1235789\0".utf8), count: 1) == [Array("1235789".utf8)])
        #expect(HelperRequest.parseFields(Array("1\02\0".utf8), count: 2) == [[0x31], [0x32]])
        // Unterminated, extra field, bytes after the NUL, input where none is expected, a missing field.
        #expect(HelperRequest.parseFields(Array("1235789".utf8), count: 1) == nil)
        #expect(HelperRequest.parseFields(Array("1\02\0".utf8), count: 1) == nil)
        #expect(HelperRequest.parseFields(Array("1\0x".utf8), count: 1) == nil)
        #expect(HelperRequest.parseFields([0], count: 0) == nil)
        #expect(HelperRequest.parseFields(Array("1\0".utf8), count: 2) == nil)
    }

    @Test func framingRefusesOversizedInput() {
        let longest = [UInt8](repeating: 0x31, count: HelperRequest.maximumFieldBytes) + [0]
        #expect(HelperRequest.parseFields(longest, count: 1) != nil)
        let tooLong = [UInt8](repeating: 0x31, count: HelperRequest.maximumFieldBytes + 1) + [0]
        #expect(HelperRequest.parseFields(tooLong, count: 1) == nil)
        let huge = [UInt8](repeating: 0, count: HelperRequest.maximumInputBytes + 1)
        #expect(HelperRequest.parseFields(huge, count: HelperRequest.maximumInputBytes + 1) == nil)
        let fields: [[UInt8]] = [Array("24678".utf8), Array("1235789".utf8)]
        #expect(HelperRequest.parseFields(HelperRequest.encodeFields(fields), count: 2) == fields)
    }

    @Test func argumentsAreExactlyOperationAndAValidUser() {
        let ok = HelperRequest.parseArguments([Array("verify".utf8), Array("alice".utf8)])
        #expect((try? ok.get())?.0 == .verify)
        let cases: [([[UInt8]], HelperRefusal)] = [
            ([], .usage), ([Array("verify".utf8)], .usage), ([Array("frob".utf8), Array("alice".utf8)], .usage),
            ([Array("check".utf8), Array("alice".utf8), []], .usage),
            ([Array("check".utf8), []], .user), ([Array("check".utf8), Array("a:b".utf8)], .user),
            ([Array("check".utf8), Array("a\nb".utf8)], .user),
        ]
        for (arguments, refusal) in cases {
            guard case .failure(let error) = HelperRequest.parseArguments(arguments) else {
                Issue.record("accepted \(arguments)")
                continue
            }
            #expect(error.refusal == refusal)
        }
    }
}

@Suite struct SelfServiceProtocolTests {
    /// authenticate reads nothing before its check, then exactly what verify reads; its last answer is verify's.
    @Test func authenticateTakesVerifysGuessAfterItsCheck() {
        #expect(HelperOperation.authenticate.acceptedFieldLimits == HelperOperation.verify.acceptedFieldLimits)
        #expect(!HelperOperation.authenticate.isRootOnly)
        #expect(HelperVerdict.expired.line == Array("expired\n".utf8))
        #expect(HelperVerdict.expired.exit == .expired)
        #expect(HelperExit.expired.rawValue == 7)
        #expect(HelperRequest.guessWaitSeconds > 0 && HelperRequest.guessWaitSeconds <= 300)
    }

    @Test func enrollTakesALongerPasswordThanAPattern() {
        let limits = HelperOperation.enroll.fieldLimits
        #expect(limits == [HelperRequest.maximumPasswordBytes, HelperRequest.maximumFieldBytes])
        let input = Array("pp-Secret-42".utf8) + [0] + Array("2946138".utf8) + [0]
        #expect(
            HelperRequest.parseFields(input, limits: limits) == [Array("pp-Secret-42".utf8), Array("2946138".utf8)])
        let long = [UInt8](repeating: 0x61, count: 100) + [0] + Array("2946138".utf8) + [0]
        #expect(HelperRequest.parseFields(long, limits: limits) != nil)
        #expect(HelperRequest.parseFields(long, limits: HelperOperation.set.fieldLimits) == nil)
        #expect(HelperRequest.parseFields(Array("2946138".utf8) + [0], limits: limits) == nil)
    }

    /// Every word read back gives its case; the same word with one byte off, cased differently or
    /// padded gives none.
    @Test func everyWordReadsBackToItsCaseAndNothingElseDoes() {
        func check<Named: NamedByWord & Equatable>(_: Named.Type) {
            for named in Named.allCases {
                #expect(Named(word: named.word) == named)
                #expect(Named(word: named.word[...]) == named)
                #expect(Named(word: named.word + [0x20]) == nil)
                #expect(Named(word: named.word.dropLast()) == nil)
                #expect(Named(word: Array(String(decoding: named.word, as: UTF8.self).uppercased().utf8)) == nil)
            }
            #expect(Named(word: []) == nil)
        }
        check(HelperOperation.self)
        check(HelperRefusal.self)
        check(TPMProblem.self)
        check(TPMMode.self)
        #expect(HelperOperation.allCases.count == 11)
        #expect(TPMMode(word: Array("auto".utf8)) == .auto)
        #expect(HelperRefusal(word: Array("enrolled".utf8)) == .enrolled)
        // password-reset takes one field, a password's length, and anyone may ask it for themselves.
        #expect(HelperOperation(word: Array("password-reset".utf8)) == .passwordReset)
        #expect(HelperOperation.passwordReset.fieldLimits == [HelperRequest.maximumPasswordBytes])
        #expect(!HelperOperation.passwordReset.isRootOnly)
        #expect(TPMProblem(word: Array("owner-auth".utf8)) == .ownerAuthorization)
        #expect(TPMProblem(word: Array("too-slow".utf8)) == .tooSlow)
    }

    @Test func newOperationsAndVerdictsRoundTrip() {
        for operation in HelperOperation.allCases {
            #expect(HelperOperation(word: operation.word) == operation)
        }
        let verdicts: [HelperVerdict] = [
            .weak, .refused(.policy), .refused(.enrolled),
            .status(UserStatus(setAt: 1_764_500_000, cost: 7, failures: 3, verdict: .allowed(freeAttemptsLeft: 2))),
            .status(UserStatus(setAt: 0, cost: 11, failures: 100_000, verdict: .wait(secondsLeft: 999_999_999_999))),
            .status(UserStatus(setAt: 5, cost: 1, failures: 20, verdict: .disabled)),
            .status(UserStatus(setAt: 5, cost: nil, failures: 0, verdict: .disabled, enrolmentsRefused: true)),
            .status(
                UserStatus(
                    setAt: 7, cost: nil, failures: 1, verdict: .allowed(freeAttemptsLeft: 4), enrolmentsRefused: true)),
            .status(UserStatus(setAt: nil, cost: nil, failures: 2, verdict: .allowed(freeAttemptsLeft: 3))),
            // A pattern the TPM holds has a time but no yescrypt cost.
            .status(UserStatus(setAt: 1_764_500_000, cost: nil, failures: 0, verdict: .allowed(freeAttemptsLeft: 5))),
        ]
        for verdict in verdicts {
            #expect(verdict.line.count <= HelperVerdict.maximumLineBytes)
            #expect(HelperVerdict.decode(exitStatus: verdict.exit.rawValue, output: verdict.line) == verdict)
        }
        #expect(HelperVerdict.decode(exitStatus: 0, output: Array("status 1 2 3\n".utf8)) == nil)
        #expect(HelperVerdict.decode(exitStatus: 0, output: Array("status - 7 0 allowed 5\n".utf8)) == nil)
        // "too-often" only last, once, after a whole throttle verdict.
        for bad in [
            "status 5 - 0 too-often\n", "status 5 - 0 too-often disabled\n", "status 5 - 0 disabled x\n",
            "status 5 - 0 disabled too-often too-often\n",
        ] {
            #expect(HelperVerdict.decode(exitStatus: 0, output: Array(bad.utf8)) == nil, "\(bad)")
        }
    }
}
