import Dispatch
import Glibc
import PatternCore

// Test tool, never installed (make test-swift runs it, optimised): renders
// every valid pattern in both styles (and with the numpad's labels) and reads each drawing
// back with PatternDrawingDecoder. Exit 0 when all of them decode to their
// own pattern. Optimised and spread over the cores because the 1.5 million
// round trips take minutes in a debug build; the unit tests run the same
// decoder on samples.

let patterns = Pattern.allValid()
// The numpad only relabels the dots, so one style of it is enough.
let cases: [(KeypadLayout, DrawingStyle)] = [(.phone, .ascii), (.phone, .unicode), (.numpad, .unicode)]
let slices = 4
/// All jobs' counts and first failures, changed under `lock` only.
final class Outcome: @unchecked Sendable {
    var checked = 0
    var failures: [String] = []
    let lock = DispatchQueue(label: "outcome")
}
let outcome = Outcome()
DispatchQueue.concurrentPerform(iterations: cases.count * slices) { job in
    let (layout, style) = cases[job / slices]
    var checked = 0
    var failures: [String] = []
    for index in stride(from: job % slices, to: patterns.count, by: slices) {
        let pattern = patterns[index]
        let text = PatternDrawing.render(pattern, style: style, layout: layout)
        checked += 1
        do {
            let decoded = try PatternDrawingDecoder.decode(text, layout: layout)
            if decoded == pattern.dots { continue }
            failures.append("\(pattern.digitString) (\(style), \(layout)) decodes as \(decoded):\n\(text)")
        } catch {
            failures.append("\(pattern.digitString) (\(style), \(layout)) does not decode: \(error)\n\(text)")
        }
        if failures.count >= 5 { break }
    }
    outcome.lock.sync {
        outcome.checked += checked
        outcome.failures += failures
    }
}
for failure in outcome.failures.prefix(10) { print(failure) }
print(
    "\(patterns.count) patterns, \(outcome.checked) drawings (ASCII, Unicode, numpad labels): "
        + "\(outcome.failures.count) failed to decode")
exit(outcome.failures.isEmpty && patterns.count == 389_112 && outcome.checked == cases.count * 389_112 ? 0 : 1)
