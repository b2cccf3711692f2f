import Testing

@testable import PatternCore

struct DurationWordsTests {
    /// (seconds, unit, count, rest): the largest unit, then the next one only when the first is not whole.
    static let table: [(Int64, DurationWords.Unit, Int64, Int64)] = [
        (-5, .second, 1, 0),  // a running wait is never "0 seconds"
        (0, .second, 1, 0),
        (1, .second, 1, 0),
        (59, .second, 59, 0),
        (60, .minute, 1, 0),
        (294, .minute, 4, 54),
        (3599, .minute, 59, 59),
        (3600, .hour, 1, 0),
        (3661, .hour, 1, 1),  // the seconds of an hour-long wait are not told
        (129_600, .hour, 36, 0),
    ]

    @Test func wordsOfEachWait() {
        for (seconds, unit, count, rest) in DurationWordsTests.table {
            let words = DurationWords(seconds: seconds)
            #expect(words.unit == unit, "\(seconds) s")
            #expect(words.count == count, "\(seconds) s")
            #expect(words.rest == rest, "\(seconds) s")
        }
    }

    @Test func theRestIsTheNextSmallerUnit() {
        #expect(DurationWords(seconds: 7200).restUnit == .minute)
        #expect(DurationWords(seconds: 120).restUnit == .second)
        #expect(DurationWords(seconds: 5).restUnit == .second)
    }

    /// How each program says a wait (the module, the pad and patternctl all show `said`), in the C locale.
    @Test func saidInEnglish() {
        let said = { (seconds: Int64) in String(decoding: DurationWords(seconds: seconds).said, as: UTF8.self) }
        #expect(said(0) == "1 second")
        #expect(said(45) == "45 seconds")
        #expect(said(60) == "1 minute")
        #expect(said(61) == "1 minute 1 second")
        #expect(said(294) == "4 minutes 54 seconds")
        #expect(said(3600) == "1 hour")
        #expect(said(3661) == "1 hour 1 minute")
        #expect(said(10_920) == "3 hours 2 minutes")
    }
}
