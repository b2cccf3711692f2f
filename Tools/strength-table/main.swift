import Glibc
import PatternCore

// Tool, never installed: learns which patterns people choose from a file of their patterns (one per line, as
// pam_pattern writes them: 1 2 3 / 4 5 6 / 7 8 9), read on standard input.
//   strength-table derive      prints Sources/PatternCore/Pattern/HumanChoiceTable.swift (make strength-table)
//   strength-table figures [N] prints the rules' figures, 5-fold cross-validated, N shuffles (make bench)
// The data file is not part of the project (no licence came with it); what is learnt from it is.

/// A line on standard error (write(2): the C stream is shared mutable state to Swift 6).
func complain(_ text: String) {
    let line = Array("strength-table: \(text)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

var patterns: [Pattern] = []
var unreadable = 0
while let line = readLine() {
    let typed = Array(line.utf8.filter { $0 != 0x20 && $0 != 0x0D })
    if typed.isEmpty { continue }
    if let pattern = try? Pattern.parse(typed, layout: .phone, minimumLength: 4) {
        patterns.append(pattern)
    } else {
        unreadable += 1
    }
}
if unreadable > 0 { complain("\(unreadable) lines are not patterns of 4 or more dots") }
guard !patterns.isEmpty else {
    complain("no patterns on standard input")
    exit(2)
}
let all = Pattern.allValid()
let arguments = CommandLine.arguments.dropFirst()

switch arguments.first {
case "derive":
    print(TableSource.swift(HumanChoiceDerivation.model(from: patterns, all: all), from: patterns.count))
case "figures":
    let shuffles = arguments.dropFirst().first.flatMap { Int($0) } ?? 1
    let figures = CrossValidation(patterns: patterns, all: all, shuffles: shuffles).run()
    print(FiguresTable.markdown(figures, patterns: patterns.count, shuffles: shuffles))
    print(HintFigures.markdown(patterns))
default:
    complain("usage: strength-table derive|figures [SHUFFLES] < PATTERNS")
    exit(2)
}
