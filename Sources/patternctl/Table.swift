/// Left-aligned text columns separated by two spaces; the last column is not padded.
enum Table {
    /// Renders rows (the first is usually a header) with one line per row.
    static func render(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var text = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - cell.count + 2)
                }
            }
            text += line + "\n"
        }
        return text
    }
}
