// Test tool, never installed: the core's hit rules (PadTrace) over pointer paths read from stdin, for the
// equivalence test of the QML port (Tests/QMLTests). One path a line, space-separated tokens:
//     G centerX centerY spacing hitRadius   the grid (first)
//     P x y                                 a press (PadTrace.begin)
//     M x y                                 a move (PadTrace.extend)
// Out: one line a path, the digits taken ("-" for none). A malformed line stops the tool with status 2.
import Glibc
import PatternCore

func fail(_ line: Int) -> Never {
    print("malformed path on line \(line)")
    exit(2)
}

var lineNumber = 0
while let line = readLine() {
    lineNumber += 1
    let tokens = line.split(separator: " ")
    var index = 0
    func int32() -> Int32 {
        guard index < tokens.count, let value = Int32(tokens[index]) else { fail(lineNumber) }
        index += 1
        return value
    }
    guard tokens.first == "G" else { fail(lineNumber) }
    index = 1
    let grid = PadGrid(centerX: int32(), centerY: int32(), spacing: int32(), hitRadius: int32())
    var trace = PadTrace()
    while index < tokens.count {
        let kind = tokens[index]
        index += 1
        let x = int32()
        let y = int32()
        switch kind {
        case "P": trace.begin(at: x, y, on: grid)
        case "M": trace.extend(to: x, y, on: grid)
        default: fail(lineNumber)
        }
    }
    let digits = trace.withDigits { String(decoding: $0, as: UTF8.self) }
    print(digits.isEmpty ? "-" : digits)
}
