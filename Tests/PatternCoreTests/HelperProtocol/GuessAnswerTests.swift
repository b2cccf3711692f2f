import Testing

@testable import PatternCore

/// A guess's outcome sent by the helper and read back by the module is the outcome the module would have had
/// in process: through the line and exit status on the wire, every outcome the gate gives.
struct GuessAnswerTests {
    static let outcomes: [GuessOutcome] = [
        .accepted, .notEnrolled, .rejected(verdictAfter: .allowed(freeAttemptsLeft: 3)),
        .rejected(verdictAfter: .wait(secondsLeft: 60)), .rejected(verdictAfter: .disabled),
        .refused(.wait(secondsLeft: 299)), .refused(.disabled),
    ]

    static func overTheWire(_ verdict: HelperVerdict) -> HelperVerdict? {
        HelperVerdict.decode(exitStatus: verdict.exit.rawValue, output: verdict.line)
    }

    @Test func everyOutcomeComesBackAsItWent() {
        for outcome in Self.outcomes {
            #expect(Self.overTheWire(HelperVerdict(guess: outcome))?.guess == .judged(outcome), "\(outcome)")
        }
    }

    @Test func aRevokedMatchIsNeverASuccess() {
        #expect(HelperVerdict(guess: .revoked) == .unavailable)
        #expect(HelperVerdict.unavailable.guess == nil)
    }

    @Test func theHelpersMinimumLengthRefusesUncounted() {
        #expect(Self.overTheWire(.malformed(minimumLength: 6))?.guess == .tooShort(minimum: 6))
    }

    @Test func answersNoGuessIsGivenAreNone() {
        for verdict: HelperVerdict in [.allowed(freeAttemptsLeft: 5), .weak, .pruned(2), .expired] {
            #expect(verdict.guess == nil, "\(verdict)")
        }
    }
}
