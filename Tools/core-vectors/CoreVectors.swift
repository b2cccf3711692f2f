// Test tool, never installed: the core's pure functions over inputs read from stdin, compiled twice from this
// one file, as normal Swift (core-vectors, over PatternCore) and as Embedded Swift at -Osize
// (core-vectors-embedded, a symlink to this folder, over PatternCoreEmbedded: the build sudo, login, the helper
// and the pad run). Tests/CoreVectorsTests feeds both the same inputs and fails on any difference in what they
// print: the Embedded build has miscompiled before where the normal one was right (ARCHITECTURE.md, the
// -Osize trap), and `swift test` and the fuzzers only ever run the normal one.
//
// In: one input a line, "KIND HEX" (the input's bytes in hex). Out: one line an input, "KIND HEX" (the
// result's bytes in hex); an unknown kind or bad hex prints "? " and the line number. The kinds:
//   pattern  typed digits, parsed in both layouts at every interesting minimum length; a pattern's strength
//            verdict, its 8 symmetries and drawings
//   store    a store file, parsed and re-encoded, each record's cost
//   options  module arguments split on NUL, parsed; every setting after it
//   conf     a pam_pattern.conf, parsed and applied; every setting after it
//   helper   the helper's stdin framing (0-3 fields), its verdict line (exit 0-7) and argv split on NUL
//   pad      "G cx cy spacing radius" then "P x y" (press) and "M x y" (move) tokens: the dots taken
//   policy   "failures lastFailure now deny unlockTime lockAfter": the throttle's verdict and next wait
//   duration seconds in decimal: the wait as DurationWords says it (the msgids: no locale is set)
//   words    a message: the module's words read back (ModuleWords.read), "KIND TRIES SECONDS AFTERWRONG
//            LANGUAGE ROUTE" (-1: not said; the route, which holds spaces, last)
//   prompt   a PAM prompt: which of the module's it is (ModuleWords.prompt)
//   enrolment "now" in decimal, a newline, then an enrolment record's bytes: whether one more enrolment is
//            allowed then, and the record after one more
//   strength a minimum length in decimal: the strength rules over all 389,112 patterns, as a count of each
//            reason (accepted included) and an FNV-1a hash over every pattern's digits and reason
//   hint     "minimum level" in decimal: over all 389,112 patterns and the 385 drawings of 1-3 dots, the live
//            verdict (StrengthPreview) and the refused ones' hint (StrengthHint): a count of each verdict and
//            hint kind, of hints that, followed, do not pass ("broken", must be 0), and an FNV-1a hash over
//            every drawing's digits, verdict, hint and its words
#if EMBEDDED
    import PatternCoreEmbedded
#else
    import PatternCore
#endif

struct Output {
    var bytes: [UInt8] = []

    mutating func add(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
    mutating func add(_ more: [UInt8]) { bytes.append(contentsOf: more) }
    mutating func add(_ text: String) { bytes.append(contentsOf: Array(text.utf8)) }
    mutating func add(number: Int64) { bytes.append(contentsOf: TextCodec.signedDecimal(number)) }
}

enum Vectors {
    static let minimumLengths: [Int] = [4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 10, -1, Int.min, Int.max, 64, -64]

    static func pattern(_ typed: [UInt8], _ out: inout Output) {
        for layout in [KeypadLayout.phone, .numpad] {
            for minimum in minimumLengths {
                do throws(PatternError) {
                    let pattern = try Pattern.parse(typed, layout: layout, minimumLength: minimum)
                    out.add("ok ")
                    out.add(pattern.digits)
                    if let weakness = pattern.weakness(minimumLength: minimum) {
                        out.add(" weak ")
                        out.add(weakness.reason)
                    }
                    if minimum == 4 {
                        for symmetry in Symmetry.allCases {
                            out.add(" ")
                            out.add(pattern.applying(symmetry).digits)
                        }
                        out.add(PatternDrawing.render(pattern, style: .ascii, layout: layout))
                        out.add(PatternDrawing.render(pattern, style: .unicode, layout: layout))
                    }
                } catch {
                    out.add("error ")
                    out.add(error.message)
                }
                out.add(";")
            }
        }
    }

    static func store(_ bytes: [UInt8], _ out: inout Output) {
        do throws(StoreError) {
            let records = try StoreRecord.parseStore(bytes)
            out.add(StoreRecord.encodeStore(records))
            for record in records {
                out.add(" cost ")
                out.add(number: Int64(record.cost ?? -1))
            }
        } catch {
            out.add("error ")
            out.add(error.message)
        }
    }

    static func settings(_ options: PatternSettings, _ out: inout Output) {
        for row in PatternOption.table {
            out.add(row.nameBytes)
            out.add("=")
            switch options.value(of: row.key) {
            case .on: out.add("on")
            case .number(let number): out.add(number: number)
            case .bytes(let bytes): out.add(bytes)
            case .layout(let layout): out.add(layout == .phone ? "phone" : "numpad")
            case .yes(let yes): out.add(yes ? "yes" : "no")
            case .tpmMode(let mode): out.add(mode.word)
            case .names(let names):
                for name in names {
                    out.add(name)
                    out.add(",")
                }
            }
            out.add(";")
        }
        out.add(options.effectivePrompt)
    }

    static func options(_ bytes: [UInt8], _ out: inout Output) {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        let (options, problems) = PatternSettings.parse(arguments)
        for problem in problems {
            out.add(problem)
            out.add(";")
        }
        settings(options, &out)
    }

    static func conf(_ bytes: [UInt8], _ out: inout Output) {
        do throws(ConfError) {
            var options = PatternSettings()
            options.apply(try ConfFile.parse(bytes))
            settings(options, &out)
        } catch {
            out.add("error ")
            out.add(error.message(path: ConfFile.defaultPath))
        }
    }

    static func helper(_ bytes: [UInt8], _ out: inout Output) {
        for count in 0...3 {
            if let fields = HelperRequest.parseFields(bytes, count: count) {
                out.add(HelperRequest.encodeFields(fields))
            } else {
                out.add("nil")
            }
            out.add(";")
        }
        for status: Int32 in 0...7 {
            if let verdict = HelperVerdict.decode(exitStatus: status, output: bytes) {
                out.add(verdict.line)
                out.add(number: Int64(verdict.exit.rawValue))
            } else {
                out.add("nil")
            }
            out.add(";")
        }
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        switch HelperRequest.parseArguments(arguments) {
        case .success(let (operation, user)):
            out.add(operation.word)
            out.add(" ")
            out.add(user)
        case .failure(let error):
            out.add("refused ")
            out.add(error.refusal.word)
        }
    }

    /// Space-separated signed decimals, nil if any token is not one.
    static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int64]? {
        var values: [Int64] = []
        for token in bytes.split(separator: 0x20) {
            var digits = token
            var negative = false
            if digits.first == 0x2D {
                negative = true
                digits = digits.dropFirst()
            }
            guard let value = TextCodec.parseDecimal(digits) else { return nil }
            values.append(negative ? -value : value)
        }
        return values
    }

    static func pad(_ bytes: [UInt8], _ out: inout Output) {
        let tokens = bytes.split(separator: 0x20)
        guard tokens.count >= 5, tokens[0].elementsEqual([0x47]),
            let values = numbers(bytes[tokens[1].startIndex..<tokens[4].endIndex]), values.count == 4,
            values.allSatisfy({ $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) })
        else { return out.add("malformed") }
        let grid = PadGrid(
            centerX: Int32(values[0]), centerY: Int32(values[1]), spacing: Int32(values[2]),
            hitRadius: Int32(values[3]))
        var trace = PadTrace()
        var index = 5
        while index < tokens.count {
            guard index + 2 < tokens.count,
                let point = numbers(bytes[tokens[index + 1].startIndex..<tokens[index + 2].endIndex]),
                point.count == 2, point.allSatisfy({ $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) })
            else { return out.add("malformed") }
            if tokens[index].elementsEqual([0x50]) {
                trace.begin(at: Int32(point[0]), Int32(point[1]), on: grid)
            } else if tokens[index].elementsEqual([0x4D]) {
                trace.extend(to: Int32(point[0]), Int32(point[1]), on: grid)
            } else {
                return out.add("malformed")
            }
            index += 3
        }
        guard index == tokens.count else { return out.add("malformed") }
        trace.withDigits { out.add(Array($0)) }
        if trace.count == 0 { out.add("-") }
    }

    static func policy(_ bytes: [UInt8], _ out: inout Output) {
        guard let values = numbers(bytes[...]), values.count == 6,
            let failures = Int(exactly: values[0]), let deny = Int(exactly: values[3]),
            let lockAfter = Int(exactly: values[5])
        else { return out.add("malformed") }
        let settings = ThrottleSettings(deny: deny, unlockTime: values[4], lockAfter: lockAfter)
        let state = ThrottleState(failures: failures, lastFailure: values[1])
        switch ThrottlePolicy.verdict(state: state, now: values[2], settings: settings) {
        case .allowed(let left):
            out.add("allowed ")
            out.add(number: Int64(left))
        case .wait(let seconds):
            out.add("wait ")
            out.add(number: seconds)
        case .disabled: out.add("disabled")
        }
        out.add(" next ")
        out.add(number: ThrottlePolicy.waitAfter(failures: failures &+ 1, settings: settings) ?? -1)
    }

    static func strength(_ bytes: [UInt8], _ out: inout Output) {
        guard let minimum = numbers(bytes[...]), minimum.count == 1, let length = Int(exactly: minimum[0]) else {
            return out.add("malformed")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var reasons: [[UInt8]] = []
        var counts: [Int64] = []
        for pattern in Pattern.allValid() {
            var reason: [UInt8] = Array("accepted".utf8)
            if let weakness = pattern.weakness(minimumLength: length) { reason = Array(weakness.reason.utf8) }
            for byte in pattern.digits + [0x3A] + reason + [0x0A] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            if let index = reasons.firstIndex(of: reason) {
                counts[index] += 1
            } else {
                reasons.append(reason)
                counts.append(1)
            }
        }
        for (reason, count) in zip(reasons, counts) {
            out.add(number: count)
            out.add(" ")
            out.add(reason)
            out.add("\n")  // reasons hold ';'
        }
        out.add(TextCodec.hex((0..<8).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) }))
    }

    static func hint(_ bytes: [UInt8], _ out: inout Output) {
        guard let values = numbers(bytes[...]), values.count == 2, let length = Int(exactly: values[0]),
            let level = Int(exactly: values[1])
        else { return out.add("malformed") }
        let rules = StrengthRules(level: level)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // accepted, tooShort, commonShape, simpleShape, addAtEnd, changeEnd, none, broken
        var counts = [Int64](repeating: 0, count: 8)
        var drawings: [[UInt8]] = []
        for n in 1...3 { drawings += Pattern.allCanonical(length: n).map { $0.dots } }
        drawings += Pattern.allValid().map { $0.dots }
        for dots in drawings {
            let preview = StrengthPreview(dots: dots, minimumLength: length, rules: rules)
            var said = preview.said
            switch preview {
            case .accepted: counts[0] += 1
            case .tooShort: counts[1] += 1
            case .commonShape: counts[2] += 1
            case .simpleShape: counts[3] += 1
            }
            if preview != .accepted {
                if let hint = StrengthHint.forDots(dots, minimumLength: length, rules: rules) {
                    if case .addAtEnd = hint { counts[4] += 1 } else { counts[5] += 1 }
                    let followed = hint.applied(to: dots)
                    if StrengthPreview(dots: followed, minimumLength: length, rules: rules) != .accepted {
                        counts[7] += 1
                    }
                    said += [0x3A] + followed + hint.said
                } else {
                    counts[6] += 1
                    counts[7] += 1
                }
            }
            for byte in dots + [0x3A] + said + [0x0A] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        for count in counts {
            out.add(number: count)
            out.add(" ")
        }
        out.add(TextCodec.hex((0..<8).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) }))
    }

    static func duration(_ bytes: [UInt8], _ out: inout Output) {
        guard let seconds = numbers(bytes[...]), seconds.count == 1 else { return out.add("malformed") }
        out.add(DurationWords(seconds: seconds[0]).said)
    }

    static func words(_ bytes: [UInt8], _ out: inout Output) {
        let reading = ModuleWords.read(bytes)
        var tries: Int64 = -1
        var seconds: Int64 = -1
        switch reading.said {
        case .wrong(let left):
            out.add("wrong")
            tries = left ?? -1
        case .wait(let s):
            out.add("wait")
            seconds = s
        case .disabled: out.add("disabled")
        case .other: out.add("other")
        }
        out.add(" ")
        out.add(number: tries)
        out.add(" ")
        out.add(number: seconds)
        out.add(reading.afterWrong ? " 1 " : " 0 ")
        out.add(reading.language)
        out.add(" ")
        out.add(reading.route)
    }

    static func prompt(_ bytes: [UInt8], _ out: inout Output) {
        switch ModuleWords.prompt(bytes) {
        case .pattern?: out.add("pattern")
        case .patternOrPassword?: out.add("patternOrPassword")
        case nil: out.add("password")
        }
    }

    static func enrolment(_ bytes: [UInt8], _ out: inout Output) {
        guard let newline = bytes.firstIndex(of: 0x0A), let now = numbers(bytes[..<newline]), now.count == 1,
            var record = EnrolmentRecord.parse(Array(bytes[(newline + 1)...]))
        else { return out.add("malformed") }
        out.add(record.allows(at: now[0]) ? "allows " : "refuses ")
        record.record(at: now[0])
        out.add(record.encoded())
    }

    static func run(kind: ArraySlice<UInt8>, input: [UInt8]) -> [UInt8]? {
        var out = Output()
        if kind.elementsEqual(Array("pattern".utf8)) {
            pattern(input, &out)
        } else if kind.elementsEqual(Array("store".utf8)) {
            store(input, &out)
        } else if kind.elementsEqual(Array("options".utf8)) {
            options(input, &out)
        } else if kind.elementsEqual(Array("conf".utf8)) {
            conf(input, &out)
        } else if kind.elementsEqual(Array("helper".utf8)) {
            helper(input, &out)
        } else if kind.elementsEqual(Array("pad".utf8)) {
            pad(input, &out)
        } else if kind.elementsEqual(Array("policy".utf8)) {
            policy(input, &out)
        } else if kind.elementsEqual(Array("duration".utf8)) {
            duration(input, &out)
        } else if kind.elementsEqual(Array("words".utf8)) {
            words(input, &out)
        } else if kind.elementsEqual(Array("prompt".utf8)) {
            prompt(input, &out)
        } else if kind.elementsEqual(Array("enrolment".utf8)) {
            enrolment(input, &out)
        } else if kind.elementsEqual(Array("strength".utf8)) {
            strength(input, &out)
        } else if kind.elementsEqual(Array("hint".utf8)) {
            hint(input, &out)
        } else {
            return nil
        }
        return out.bytes
    }
}

/// Reads stdin whole, answers each line, writes stdout once.
func coreVectors() -> Int32 {
    var input: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        guard let count = try? SystemCall.read(0, into: &chunk, from: 0), count > 0 else { break }
        input.append(contentsOf: chunk[0..<count])
    }
    var output: [UInt8] = []
    var lineNumber: Int64 = 0
    for line in input.split(separator: 0x0A) {
        lineNumber += 1
        let parts = line.split(separator: 0x20, maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, let bytes = TextCodec.parseHex(parts[1]),
            let result = Vectors.run(kind: parts[0], input: bytes)
        {
            output.append(contentsOf: parts[0])
            output.append(0x20)
            output.append(contentsOf: TextCodec.hex(result))
        } else {
            output.append(contentsOf: [0x3F, 0x20])
            output.append(contentsOf: TextCodec.decimal(lineNumber))
        }
        output.append(0x0A)
    }
    return (try? SystemCall.writeToStream(1, output)) == nil ? 1 : 0
}

// The entry point by hand (Embedded Swift has no top-level code runner); SwiftPM links main to <module>_main.
#if EMBEDDED
    @_cdecl("core_vectors_embedded_main")
    func main(_ argc: Int32, _ argv: UnsafeMutableRawPointer?) -> Int32 { coreVectors() }
#else
    @_cdecl("core_vectors_main")
    func main(_ argc: Int32, _ argv: UnsafeMutableRawPointer?) -> Int32 { coreVectors() }
#endif
