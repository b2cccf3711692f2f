/// A closed set of cases, each spelled by one fixed word on the wire or in a file (a helper operation, a
/// refusal's reason, a TPM problem, a conf value). The word is written once, in `word`; reading goes back
/// through `allCases`, so the spelling read and the spelling written cannot drift apart.
public protocol NamedByWord: CaseIterable {
    /// The case's word, exactly as written and read.
    var word: [UInt8] { get }
}

extension NamedByWord {
    /// The case spelled exactly `word` (bytes, case-sensitive); nil for anything else.
    public init?<Bytes: Sequence>(word: Bytes) where Bytes.Element == UInt8 {
        for candidate in Self.allCases where candidate.word.elementsEqual(word) {
            self = candidate
            return
        }
        return nil
    }
}
