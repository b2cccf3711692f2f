import Testing

@testable import PatternCore

@Suite struct DrawWindowProtocolTests {
    @Test func onlyTheQuestionsAreAnswered() {
        let asking: [DrawWindowProtocol.Request] = [.current, .password, .new, .again]
        for request in asking + [.error, .info, .done] {
            #expect(request.asks == asking.contains(request))
        }
    }

    @Test func theCurrentAskCarriesTheThrottleAndTheOffer() {
        let asks: [DrawWindowProtocol.CurrentAsk] = [
            .init(lock: .open, passwordOffered: true),
            .init(lock: .wait(seconds: 299), passwordOffered: false),
            .init(lock: .disabled, passwordOffered: true),
        ]
        for ask in asks { #expect(DrawWindowProtocol.CurrentAsk(ask.encoded) == ask) }
        #expect(String(decoding: asks[1].encoded, as: UTF8.self) == "299 0")
        for bad in ["", "0", "0 2", "-2 1", "x 1", "1 1 1", "99999999999999999999 1"] {
            #expect(DrawWindowProtocol.CurrentAsk(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func theNewAskCarriesTheRules() {
        let ask = DrawWindowProtocol.NewAsk(minimumLength: 6, rules: .commonShapes)
        #expect(String(decoding: ask.encoded, as: UTF8.self) == "6 2")
        #expect(DrawWindowProtocol.NewAsk(ask.encoded) == ask)
        #expect(DrawWindowProtocol.NewAsk(Array("2 3".utf8))?.minimumLength == 4)
        for bad in ["", "4", "4 4", "10 3", "4 -1", "a b"] {
            #expect(DrawWindowProtocol.NewAsk(Array(bad.utf8)) == nil, "\(bad)")
        }
    }
}
