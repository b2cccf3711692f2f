import Testing

@testable import PatternCore

struct ForgottenPatternTests {
    @Test func theRouteIsThePasswordUnlessSelfEnrolmentIsOff() {
        #expect(
            String(decoding: ForgottenPattern.route(selfEnroll: true), as: UTF8.self)
                == "Forgot your pattern? Set a new one with your password: patternctl set --forgot")
        #expect(
            String(decoding: ForgottenPattern.route(selfEnroll: false), as: UTF8.self)
                == "Forgot your pattern? Only an administrator can set a new one.")
    }

    @Test func everyRouteBeginsWithTheLeadAReaderCutsAt() {
        let lead = Array("\(ForgottenPattern.lead)".utf8)
        for selfEnroll in [true, false] {
            #expect(Array(ForgottenPattern.route(selfEnroll: selfEnroll).prefix(lead.count)) == lead)
        }
    }
}
