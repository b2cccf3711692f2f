/// Where the pad's words break into lines: no line wider than the room, the lines about equally long, and no word
/// left alone on the last line (as a greedy fill leaves "works." under a long sentence). Breaks come at spaces, and
/// between CJK characters (but never before a closing CJK mark such as "。"); a word wider than the room is cut
/// between its characters. Widths come from the caller's `measure` (the pad's font), asked once per word.
public enum PadLineBreak {
    /// The lines of `text` (UTF-8) no wider than `width`, at most `maximumLines` of them.
    public static func lines(
        _ text: [UInt8], width: Int32, maximumLines: Int = 6, measure: ([UInt8]) -> Int32
    ) -> [[UInt8]] {
        let pieces = self.pieces(text, width: width, measure: measure)
        guard !pieces.isEmpty else { return [] }
        let space = measure([0x20])
        var breaks = fill(pieces, width: width, space: space)
        if breaks.count > 1 {
            // The narrowest room that needs no more lines: every line about as long as the others.
            var low: Int32 = 1
            var high = width
            while low < high {
                let middle = low + (high - low) / 2
                if fill(pieces, width: middle, space: space).count <= breaks.count {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            breaks = fill(pieces, width: high, space: space)
            unstrand(&breaks, pieces, width: width, space: space)
        }
        var result: [[UInt8]] = []
        for range in breaks.prefix(maximumLines) {
            var line: [UInt8] = []
            for index in range.lowerBound..<range.upperBound {
                if index > range.lowerBound && pieces[index].spaceBefore { line.append(0x20) }
                line += text[pieces[index].bytes]
            }
            result.append(line)
        }
        return result
    }

    /// A word or a character: where it is in the text, how wide, and whether a space joins it to the one before.
    struct Piece {
        var bytes: Range<Int>
        var width: Int32
        var spaceBefore: Bool
    }

    /// The text cut at every place a line may break; a word wider than `width` is cut between its characters.
    static func pieces(_ text: [UInt8], width: Int32, measure: ([UInt8]) -> Int32) -> [Piece] {
        var pieces: [Piece] = []
        var index = 0
        var spaceBefore = false
        while index < text.count {
            if text[index] == 0x20 {
                spaceBefore = true
                index += 1
                continue
            }
            var end = characterEnd(text, index)
            if !isWide(text, index) {
                // A word: up to a space or a wide character.
                while end < text.count && text[end] != 0x20 && !isWide(text, end) { end = characterEnd(text, end) }
            }
            // Closing marks stay with what they close.
            while end < text.count && isClosingMark(text, end) { end = characterEnd(text, end) }
            let word = Array(text[index..<end])
            let wordWidth = measure(word)
            if wordWidth <= width || characterEnd(text, index) >= end {
                pieces.append(Piece(bytes: index..<end, width: wordWidth, spaceBefore: spaceBefore))
            } else {
                var start = index
                var first = true
                while start < end {
                    let next = characterEnd(text, start)
                    let part = Array(text[start..<next])
                    pieces.append(Piece(bytes: start..<next, width: measure(part), spaceBefore: first && spaceBefore))
                    first = false
                    start = next
                }
            }
            spaceBefore = false
            index = end
        }
        return pieces
    }

    /// Greedy lines of pieces (ranges of indices) no wider than `width`; a piece wider than that stands alone.
    static func fill(_ pieces: [Piece], width: Int32, space: Int32) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        var used: Int32 = 0
        for index in 0..<pieces.count {
            let added = index == start ? pieces[index].width : used + gap(pieces[index], space) + pieces[index].width
            if index > start && added > width {
                lines.append(start..<index)
                start = index
                used = pieces[index].width
            } else {
                used = added
            }
        }
        lines.append(start..<pieces.count)
        return lines
    }

    /// When the last line holds one piece and the line above can spare one, that one goes down too.
    static func unstrand(_ lines: inout [Range<Int>], _ pieces: [Piece], width: Int32, space: Int32) {
        guard lines.count >= 2, let last = lines.last, last.count == 1 else { return }
        let above = lines[lines.count - 2]
        guard above.count >= 3 else { return }
        let moved = above.upperBound - 1
        let newWidth = pieces[moved].width + gap(pieces[last.lowerBound], space) + pieces[last.lowerBound].width
        guard newWidth <= width else { return }
        lines[lines.count - 2] = above.lowerBound..<moved
        lines[lines.count - 1] = moved..<last.upperBound
    }

    private static func gap(_ piece: Piece, _ space: Int32) -> Int32 { piece.spaceBefore ? space : 0 }

    /// The index after the UTF-8 character that starts at `index`.
    static func characterEnd(_ text: [UInt8], _ index: Int) -> Int {
        var end = index + 1
        while end < text.count && text[end] & 0xC0 == 0x80 { end += 1 }
        return end
    }

    /// A character of the CJK ranges (U+2E80 and above, in three or four bytes): a line may break on either side.
    static func isWide(_ text: [UInt8], _ index: Int) -> Bool {
        let lead = text[index]
        if lead >= 0xE3 { return true }
        return lead == 0xE2 && index + 1 < text.count && text[index + 1] >= 0xBA
    }

    /// 、。，：；！？）」』 and their full-width forms: a line never starts with one.
    static func isClosingMark(_ text: [UInt8], _ index: Int) -> Bool {
        guard index + 2 < text.count else { return false }
        let (a, b, c) = (text[index], text[index + 1], text[index + 2])
        if a == 0xE3 && b == 0x80 { return c == 0x81 || c == 0x82 || c == 0x8D || c == 0x8F }
        if a == 0xEF && b == 0xBC { return c == 0x8C || c == 0x9A || c == 0x9B || c == 0x81 || c == 0x9F || c == 0x89 }
        return false
    }
}
