import Testing

@testable import PatternCore

@Suite struct DrawWindowProtocolTests {
    @Test func onlyTheQuestionsAreAnswered() {
        let asking: [DrawWindowProtocol.Request] = [.current, .password, .new, .again]
        for request in asking + [.error, .info, .done] {
            #expect(request.asks == asking.contains(request))
        }
    }
}
