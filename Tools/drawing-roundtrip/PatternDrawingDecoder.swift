import PatternCore

/// Reads a drawing made by PatternDrawing.render back into its dots, using only
/// what a person sees: the nine key labels, the bracketed start, and one
/// arrowhead per step. Written from the drawing's documented rules, not from
/// the renderer's tables, so a drawing that does not determine its pattern
/// (a missing, doubled or misplaced arrowhead, a lost start) fails to decode.
struct PatternDrawingDecoder {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Where the dot labels are, found from the text itself.
    private struct Cell { let row: Int; let column: Int }

    /// Grid direction (rows, columns of dots) for an arrowhead cell at
    /// (row, column) relative to its dot: the 16 ways a line can leave a dot.
    private static func stepDirection(row r: Int, column c: Int) -> (Int, Int)? {
        switch (abs(r), abs(c)) {
        case (0, 2): return (0, c / 2)  // left, right
        case (1, 0): return (r, 0)  // up, down
        case (1, 2): return (r, c / 2)  // diagonal
        case (1, 1): return (2 * r, c)  // steep knight move
        case (1, 3): return (r, 2 * c / 3)  // shallow knight move
        default: return nil
        }
    }

    /// Which way an arrowhead character points: (row sign, column sign);
    /// ASCII v and ^ give only up or down (column sign nil: any). nil: not an arrowhead.
    private static func arrowSigns(_ scalar: Unicode.Scalar) -> (Int, Int?)? {
        switch scalar {
        case "→", ">": return (0, 1)
        case "←", "<": return (0, -1)
        case "↑": return (-1, 0)
        case "↓": return (1, 0)
        case "↘": return (1, 1)
        case "↙": return (1, -1)
        case "↗": return (-1, 1)
        case "↖": return (-1, -1)
        case "^": return (-1, nil)
        case "v": return (1, nil)
        default: return nil
        }
    }

    private static func distinctSorted(_ values: [Int]) -> [Int] {
        var result: [Int] = []
        for value in values.sorted() where result.last != value { result.append(value) }
        return result
    }

    /// The dots (phone numbering, 1 2 3 on top) the drawing shows, in order.
    static func decode(_ text: String, layout: KeypadLayout) throws(Failure) -> [UInt8] {
        // The text as rows of characters, one column each.
        var characters: [Unicode.Scalar] = []
        characters.reserveCapacity(256)
        var lineStarts = [0]
        for scalar in text.unicodeScalars {
            if scalar == "\n" { lineStarts.append(characters.count) } else { characters.append(scalar) }
        }
        lineStarts.append(characters.count)
        let lines = (0..<lineStarts.count - 1).map { characters[lineStarts[$0]..<lineStarts[$0 + 1]] }
        // 1. The nine labels, in three rows and three columns.
        var labels: [(cell: Cell, key: UInt8)] = []
        for (row, line) in lines.enumerated() {
            for (column, scalar) in zip(0..., line) where scalar >= "1" && scalar <= "9" {
                labels.append((Cell(row: row, column: column), UInt8(scalar.value - 0x30)))
            }
        }
        guard labels.count == 9 else { throw Failure("\(labels.count) dot labels, not 9") }
        let rows = distinctSorted(labels.map { $0.cell.row })
        let columns = distinctSorted(labels.map { $0.cell.column })
        guard rows.count == 3, columns.count == 3 else { throw Failure("the labels are not a 3x3 grid") }
        var seen = [Bool](repeating: false, count: 10)
        var cellOf = [Cell](repeating: Cell(row: 0, column: 0), count: 10)
        for (cell, key) in labels {
            guard let dot = layout.dot(forKey: key),
                let gridRow = rows.firstIndex(of: cell.row), let gridColumn = columns.firstIndex(of: cell.column),
                Int(dot) == 3 * gridRow + gridColumn + 1
            else {
                throw Failure("label \(key) is not where the layout puts it")
            }
            guard !seen[Int(dot)] else { throw Failure("label \(key) appears twice") }
            seen[Int(dot)] = true
            cellOf[Int(dot)] = cell
        }

        // 2. The start: the one label between "[" and "]".
        var starts: [UInt8] = []
        for dot: UInt8 in 1...9 {
            let cell = cellOf[Int(dot)]
            let line = lines[cell.row]
            let at = line.startIndex + cell.column
            if cell.column >= 1, cell.column + 1 < line.count,
                line[at - 1] == "[", line[at + 1] == "]"
            {
                starts.append(dot)
            }
        }
        guard starts.count == 1, let start = starts.first else { throw Failure("\(starts.count) start marks") }

        // 3. Arrowheads: each belongs to the dot it sits beside; its cell names the direction.
        var direction = [(Int, Int)?](repeating: nil, count: 10)
        var arrowCount = 0
        for (row, line) in lines.enumerated() {
            for (column, scalar) in zip(0..., line) {
                guard let signs = arrowSigns(scalar) else { continue }
                arrowCount += 1
                var owner: (UInt8, (Int, Int))? = nil
                for dot in 1...9 {
                    let centre = cellOf[dot]
                    if let found = stepDirection(row: row - centre.row, column: column - centre.column) {
                        guard owner == nil else { throw Failure("arrowhead at \(row),\(column) is beside two dots") }
                        owner = (UInt8(dot), found)
                    }
                }
                guard let (dot, way) = owner else { throw Failure("arrowhead at \(row),\(column) is beside no dot") }
                guard way.0.signum() == signs.0, signs.1.map { way.1.signum() == $0 } ?? true else {
                    throw Failure("arrowhead '\(scalar)' beside dot \(dot) points off its line")
                }
                guard direction[Int(dot)] == nil else { throw Failure("dot \(dot) has two arrowheads") }
                direction[Int(dot)] = way
            }
        }

        // 4. Walk: from each dot, the first unvisited dot in its arrow's direction.
        var path: [UInt8] = [start]
        var visited = [Bool](repeating: false, count: 10)
        visited[Int(start)] = true
        var current = start
        while let (dr, dc) = direction[Int(current)] {
            var row = Int(current - 1) / 3
            var column = Int(current - 1) % 3
            var next: UInt8? = nil
            while next == nil {
                row += dr
                column += dc
                guard (0..<3).contains(row), (0..<3).contains(column) else {
                    throw Failure("the arrow at dot \(current) leads off the grid")
                }
                let dot = UInt8(3 * row + column + 1)
                if !visited[Int(dot)] { next = dot }
            }
            guard let found = next else { break }
            path.append(found)
            visited[Int(found)] = true
            current = found
        }
        guard arrowCount == path.count - 1 else {
            throw Failure("\(arrowCount) arrowheads for \(path.count) dots: some are not on the path")
        }
        return path
    }
}
