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
}
