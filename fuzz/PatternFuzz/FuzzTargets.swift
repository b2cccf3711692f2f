import CPatternSystem
import Glibc
import PatternCore

/// The libFuzzer targets over PatternCore's parsers. Each takes the raw input bytes, must never trap on them,
/// and checks properties that must hold for every input (a broken property aborts, which libFuzzer reports).
///
/// Chosen with PATTERN_FUZZ_TARGET (pattern, store, state, options, conf, helper, pad); see fuzz/README.md.
enum FuzzTarget: CaseIterable {
    /// Pattern.parse on typed bytes, both layouts, any minimum length.
    case pattern
    /// StoreRecord.parseStore and the module's lookup (PatternStore.record(for:)) on a whole store file.
    case store
    /// ThrottleStore.state(for:) on the bytes of a state file, through a real root-only file.
    case state
    /// PatternSettings.parse on module arguments.
    case options
    /// ConfFile.parse on a configuration file.
    case conf
    /// pam_pattern_helper's stdin framing, argv and verdict line (FuzzHelper.swift).
    case helper
    /// The drawing pad's hit rules: PadTrace on a grid and a pointer path (FuzzPad.swift).
    case pad

    /// The name used in PATTERN_FUZZ_TARGET and fuzz/corpus/<name>.
    var name: String {
        switch self {
        case .pattern: return "pattern"
        case .store: return "store"
        case .state: return "state"
        case .options: return "options"
        case .conf: return "conf"
        case .helper: return "helper"
        case .pad: return "pad"
        }
    }

    /// The store and state targets read root-only files through the real checks, which refuse other owners.
    var needsRoot: Bool { self == .store || self == .state }

    static func named(_ name: String) -> FuzzTarget? {
        for target in allCases where target.name == name { return target }
        return nil
    }

    func run(_ data: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .pattern: FuzzPattern.run(data)
        case .store: FuzzStore.run(data)
        case .state: FuzzState.run(data)
        case .options: FuzzOptions.run(data)
        case .conf: FuzzConf.run(data)
        case .helper: FuzzHelper.run(data)
        case .pad: FuzzPad.run(data)
        }
    }
}

/// A broken property: print it and abort, so libFuzzer saves the input as a crash.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        let text = Array("PatternFuzz: property broken: \(message())\n".utf8)
        text.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        if FuzzFiles.created { FuzzFiles.removeDirectory() }  // abort skips atexit
        abort()
    }
}

/// Pattern input: byte 0 picks the layout (bit 0) and the minimum length (bits 1-7, see `minimumLengths`);
/// the rest is what was typed.
enum FuzzPattern {
    /// Minimum lengths worth trying: the valid range, its edges, and values a bad config could give.
    static let minimumLengths: [Int] = [4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 10, -1, Int.min, Int.max, 64, -64]

    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let control = data.first else { return }
        let layout: KeypadLayout = control & 1 == 0 ? .phone : .numpad
        let minimum = minimumLengths[Int(control >> 1) % minimumLengths.count]
        let typed = UnsafeBufferPointer(rebasing: data[1...])
        let clamped = Pattern.clampedMinimumLength(minimum)
        require(clamped >= 4 && clamped <= 9, "minimum \(minimum) clamped to \(clamped)")

        let pattern: Pattern
        do {
            pattern = try Pattern.parse(typed, layout: layout, minimumLength: minimum)
        } catch {
            checkError(error, typed: typed, minimum: clamped)
            return
        }
        // The array form agrees with the buffer form.
        let again = try? Pattern.parse(Array(typed), layout: layout, minimumLength: minimum)
        require(again == pattern, "array and buffer parses differ")
        checkValid(pattern, minimum: clamped)
        // A fresh parse of the canonical digits (phone layout: digits are dot numbers) is the same pattern.
        let reparsed = try? Pattern.parse(pattern.digits, layout: .phone, minimumLength: minimum)
        require(reparsed == pattern, "canonical digits \(pattern.digitString) do not parse back to themselves")
        // Typed through the other layout's keys, the same dots come back.
        if layout == .numpad {
            var keys: [UInt8] = []
            for dot in pattern.dots { keys.append((KeypadLayout.numpad.key(forDot: dot) ?? 0) &+ 0x30) }
            require(
                (try? Pattern.parse(keys, layout: .numpad, minimumLength: minimum)) == pattern,
                "numpad keys of \(pattern.digitString) do not parse back")
        }
        for symmetry in Symmetry.allCases {
            let image = pattern.applying(symmetry)
            checkValid(image, minimum: clamped)
            require(image.applying(symmetry.inverse) == pattern, "symmetry \(symmetry) has no inverse")
        }
        // Never traps, always says something.
        if let weakness = pattern.weakness(minimumLength: minimum) { require(!weakness.reason.isEmpty, "empty reason") }
        require(!PatternDrawing.render(pattern, style: .unicode).isEmpty, "empty drawing")
        require(!PatternDrawing.render(pattern, style: .ascii).isEmpty, "empty drawing")
    }

    /// A valid pattern: minimum..9 distinct dots 1...9, and no line jumps over an unvisited dot.
    static func checkValid(_ pattern: Pattern, minimum: Int) {
        let dots = pattern.dots
        require(dots.count >= minimum && dots.count <= 9, "pattern of \(dots.count) dots, minimum \(minimum)")
        var seen: UInt16 = 0
        for (index, dot) in dots.enumerated() {
            require(dot >= 1 && dot <= 9, "dot \(dot) off the grid")
            require(seen & (1 << UInt16(dot)) == 0, "dot \(dot) used twice")
            if index > 0 {
                let from = dots[index - 1]
                let rowSum = Int((from - 1) / 3) + Int((dot - 1) / 3)
                let columnSum = Int((from - 1) % 3) + Int((dot - 1) % 3)
                if rowSum % 2 == 0 && columnSum % 2 == 0 {
                    let middle = UInt8((rowSum / 2) * 3 + columnSum / 2 + 1)
                    require(seen & (1 << UInt16(middle)) != 0, "line \(from)-\(dot) jumps over unvisited \(middle)")
                }
            }
            seen |= 1 << UInt16(dot)
        }
    }

    /// The error matches the input: lengths, positions and characters point at real bytes.
    static func checkError(_ error: PatternError, typed: UnsafeBufferPointer<UInt8>, minimum: Int) {
        require(!error.message.isEmpty, "error \(error) unusable")
        switch error {
        case .tooLong(let count):
            require(count == typed.count && count > Pattern.maximumInputBytes, "tooLong(\(count)) for \(typed.count)")
        case .empty:
            require(typed.allSatisfy { $0 == 0x20 || $0 == 0x2D }, "empty for non-separator input")
        case .notADot(let character, let position):
            require(
                position >= 1 && position <= typed.count && typed[position - 1] == character,
                "notADot(\(character), \(position)) does not point at that byte")
        case .zero(let position):
            require(position >= 1 && position <= typed.count && typed[position - 1] == 0x30, "zero(\(position))")
        case .dotUsedTwice(let dot):
            require(dot >= 1 && dot <= 9, "dotUsedTwice(\(dot))")
        case .tooShort(let count, let reported):
            require(reported == minimum && count >= 1 && count < minimum, "tooShort(\(count), \(reported))")
        }
        if typed.count <= Pattern.maximumInputBytes {
            require(error != .tooLong(byteCount: typed.count), "short input refused as too long")
        }
    }
}

/// Store input: byte 0 picks the user looked up (bits 0-2) and whether a padding of valid lines comes first
/// (bits 3-6 all set; byte 1 then says how far before the lookup's 64 KiB window edge the fuzzed bytes start);
/// the rest is the store. Both parsers must agree: the full `StoreRecord.parseStore` (patternctl) and the
/// module's streaming lookup `PatternStore.record(for:)`, run on a real root-only file.
enum FuzzStore {
    /// A valid cost-1 hash for the padding lines (any well-formed "$y$" string would do).
    static let padHash: [UInt8] = Array(
        "$y$j75$IYZo7d8cp6SMsUFJKBAs8/$F3Qt4CdRMI5MmbSHn2kK1t2QfbAeviz0rsmOV20r1m8".utf8)
    static let users: [[UInt8]] = [
        Array("alice".utf8), Array("bob".utf8), Array("jos\u{e9}".utf8), Array("a".utf8),
        Array("p0001".utf8), Array("root".utf8),
    ]

    /// The padding for each distance, built once.
    nonisolated(unsafe) static var paddings = [[UInt8]?](repeating: nil, count: 256)

    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let control = data.first else { return }
        var bytes: [UInt8] = []
        var fuzzed = UnsafeBufferPointer(rebasing: data[1...])
        if control & 0x78 == 0x78, let distance = fuzzed.first {
            if paddings[Int(distance)] == nil { paddings[Int(distance)] = padding(to: 65536 - Int(distance)) }
            bytes = paddings[Int(distance)] ?? []
            fuzzed = UnsafeBufferPointer(rebasing: fuzzed[1...])
        }
        bytes.append(contentsOf: fuzzed)
        let selector = Int(control & 7)
        let user = selector < users.count ? users[selector] : firstField(fuzzed)

        var full: [StoreRecord]? = nil
        var fullError: StoreError? = nil
        do {
            full = try StoreRecord.parseStore(bytes)
        } catch {
            require(!error.message.isEmpty, "empty message")
            if case .malformedLine(let line, let problem) = error {
                require(line >= 1 && !problem.message.isEmpty, "malformedLine(\(line))")
            }
            fullError = error
        }
        if let records = full { checkParsed(records, bytes) }

        // The module's lookup, through the file as the module reads it.
        let path = FuzzFiles.write(bytes, name: "patterns")
        var found: StoreRecord? = nil
        var lookupFailed = false
        do {
            found = try PatternStore(path: path).record(for: user)
        } catch {
            lookupFailed = true
            require(!error.message.isEmpty, "empty message")
        }
        if let records = full {
            // A valid store: the lookup finds exactly what the full parse found.
            require(!lookupFailed, "lookup refused a store the full parser accepts")
            let expected = StoreRecord.isValidUserName(user) ? records.first { $0.user == user } : nil
            require(found == expected, "lookup and full parse disagree on \(String(decoding: user, as: UTF8.self))")
        }
        if let record = found {
            // Whatever the rest of the file holds, a found record is the user's own, valid, complete line.
            require(record.user == user, "lookup returned another user's record")
            require(
                StoreRecord.isValidUserName(record.user) && StoreRecord.isValidCredential(record.hash), "invalid record"
            )
            require(containsLine(bytes, record.encoded()), "found record is not a line of the store")
        }
        if case .malformedLine(_, let problem)? = fullError, StoreRecord.isValidUserName(user) {
            // Line structure is always checked, whoever is looked up. (A name no line can hold is answered
            // "not enrolled" without reading; the module refuses such a name before looking it up.)
            switch problem {
            case .missingNewline, .emptyLine, .wrongFieldCount:
                require(lookupFailed, "lookup accepted a store with a broken line structure (\(problem))")
            default: break
            }
        }
    }

    static func checkParsed(_ records: [StoreRecord], _ bytes: [UInt8]) {
        // The format is strict and canonical: what parses re-encodes to the same bytes.
        require(StoreRecord.encodeStore(records) == bytes, "parse/encode round trip changed the store")
        for (index, record) in records.enumerated() {
            require(
                StoreRecord.isValidUserName(record.user) && StoreRecord.isValidCredential(record.hash),
                "record \(index + 1) accepted but invalid")
            require(record.setAt >= 0, "negative time accepted")
            if let cost = record.cost { require(PatternHash.costRange.contains(cost), "cost \(cost)") }
        }
        // No user twice (sorted copy: quadratic checks would slow the 64 KiB padded inputs down).
        let users = records.map { $0.user }.sorted { $0.lexicographicallyPrecedes($1) }
        for index in users.indices.dropFirst() { require(users[index] != users[index - 1], "duplicate accepted") }
        // Verifying a pattern against a stored hash must not trap (libcrypt may refuse it). Cost 1 only:
        // a fuzzed "$y$" string could ask for gigabytes.
        if let first = records.first, PatternHash.cost(ofHash: first.hash) == 1,
            let pattern = try? Pattern.parse(Array("1235789".utf8))
        {
            _ = PatternHash.verify(pattern, against: first.hash)
        }
    }

    /// Valid lines "p0000:<hash>:1" ... making exactly `length` bytes (the last line's name absorbs the rest).
    static func padding(to length: Int) -> [UInt8] {
        let line = 5 + 1 + padHash.count + 1 + 1 + 1
        let count = length / line
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        for index in 0..<count {
            let extra = index == count - 1 ? length - count * line : 0
            var name: [UInt8] = [0x70] + Array(String(1000 + index).utf8.suffix(4))
            name.append(contentsOf: [UInt8](repeating: 0x78, count: extra))
            bytes.append(contentsOf: StoreRecord(user: name, hash: padHash, setAt: 1).encoded())
        }
        return bytes
    }

    /// The bytes before the first ':' (or the whole first line): a user that is likely in the store.
    static func firstField(_ data: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var user: [UInt8] = []
        for byte in data {
            if byte == 0x3A || byte == 0x0A { break }
            user.append(byte)
        }
        return user
    }

    /// True if `line` (newline included) starts at the beginning of a line of `bytes`.
    static func containsLine(_ bytes: [UInt8], _ line: [UInt8]) -> Bool {
        var start = 0
        while start + line.count <= bytes.count {
            if bytes[start..<(start + line.count)].elementsEqual(line) { return true }
            guard let next = bytes[start...].firstIndex(of: 0x0A) else { return false }
            start = next + 1
        }
        return false
    }
}

/// Options input: module arguments separated by NUL bytes (pam.d arguments never contain one).
enum FuzzOptions {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let arguments = data.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        let (options, problems) = PatternSettings.parse(arguments)
        require(problems.count <= arguments.count, "more problems than arguments")
        for problem in problems {
            // Problems go to syslog: printable ASCII only, and short.
            require(!problem.isEmpty && problem.count <= 300, "problem of \(problem.count) bytes")
            require(problem.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "unprintable byte in a problem message")
        }
        // Whatever the arguments, every setting is what its row of the table allows.
        checkTable(options)
        // Settings of the file alone are never changed by an argument.
        for row in PatternOption.table where !row.isArgument {
            require(
                options.value(of: row.key) == PatternSettings().value(of: row.key), "an argument set a file-only key")
        }
        require(!options.effectivePrompt.isEmpty, "empty prompt")
        // An ignored argument changes nothing: the accepted ones alone give the same options.
        if problems.isEmpty { return }
        let accepted = arguments.filter { PatternSettings.parse([$0]).problems.isEmpty }
        require(PatternSettings.parse(accepted).options == options, "an ignored argument changed the options")
        require(PatternSettings.parse(accepted).problems.isEmpty, "accepted arguments reported problems together")
    }
}

/// Walks the option table: every setting holds a value its row accepts.
func checkTable(_ options: PatternSettings) {
    for row in PatternOption.table {
        let value = options.value(of: row.key)
        let name = row.name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        switch (row.kind, value) {
        case (.flag, .yes), (.yesNo, .yes), (.layout, .layout), (.tpmMode, .tpmMode): break
        case (.number(let range), .number(let number)):
            require(range.contains(number), "\(name) = \(number) outside \(range)")
        case (.path, .bytes(let path)):
            require(
                path.first == 0x2F && path.count > 1 && path.count <= OptionSetting.maximumPathBytes
                    && !path.contains(0), "\(name) is not an absolute path")
        case (.text(let maximumBytes), .bytes(let text)):
            require(text.count <= maximumBytes && !text.contains { $0 < 0x20 || $0 == 0x7F }, "\(name) text")
        case (.serviceNames, .names(let names)):
            let possible = names.allSatisfy {
                !$0.isEmpty && $0.count <= ServiceNames.maximumNameBytes && $0.allSatisfy(ServiceNames.isNameByte)
            }
            require(possible, "\(name) holds a name PAM_SERVICE cannot be")
        default: require(false, "\(name) holds a value of the wrong kind")
        }
    }
}

/// Configuration file input: the bytes of /etc/security/pam_pattern.conf, parsed (ConfFile.parse).
enum FuzzConf {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(data)
        let settings: [OptionSetting]
        do {
            settings = try ConfFile.parse(bytes)
        } catch {
            // The message goes to syslog and names a line that exists.
            let message = Array(error.message(path: ConfFile.defaultPath).utf8)
            require(message.count <= 400 && message.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "unprintable message")
            if case .malformed(let line, _) = error {
                let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
                require(line >= 1 && line <= lines, "line \(line) of \(lines)")
            }
            return
        }
        var seen: [OptionKey] = []
        for setting in settings {
            require(PatternOption.spec(for: setting.key).isConfKey, "an argument-only key came from the file")
            require(!seen.contains(setting.key), "a key came twice")
            seen.append(setting.key)
        }
        var options = PatternSettings()
        options.apply(settings)
        checkTable(options)
        // Comments and blank lines change nothing: the file with a comment appended parses the same.
        require((try? ConfFile.parse(bytes + Array("\n# x = y\n\n".utf8))) == settings, "a comment changed the file")
    }
}

/// Files the store and state targets read back through the real code: a private 0700 directory on /dev/shm
/// (tmpfs: writing and the fsync of reset cost nothing there; else /tmp), removed at exit.
enum FuzzFiles {
    nonisolated(unsafe) static var directory: [UInt8] = {
        // /tmp when there is no /dev/shm (some containers).
        var template = Array("/dev/shm/pattern-fuzz.XXXXXX".utf8CString)
        var made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        if made == nil {
            template = Array("/tmp/pattern-fuzz.XXXXXX".utf8CString)
            made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        }
        require(made != nil, "mkdtemp failed")
        atexit { FuzzFiles.removeDirectory() }
        created = true
        return template.dropLast().map { UInt8(bitPattern: $0) }
    }()
    nonisolated(unsafe) static var created = false
    nonisolated(unsafe) static var written: Set<String> = []

    /// Writes `bytes` to `name` in the directory, root-only; returns its path.
    static func write(_ bytes: [UInt8], name: String) -> [UInt8] {
        let path = String(decoding: directory, as: UTF8.self) + "/" + name
        written.insert(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        require(fd >= 0, "cannot write \(path)")
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.write(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            require(count > 0, "short write to \(path)")
            offset += count
        }
        close(fd)
        return Array(path.utf8)
    }

    static func removeDirectory() {
        for path in written { unlink(path) }
        rmdir(String(decoding: directory, as: UTF8.self))
    }
}

/// State input: the bytes of a throttle state file, read through ThrottleStore, and the same bytes as an attempt
/// record (its remembered wrong guesses: old one-line records and the newer timed ones) and as an enrolment
/// record.
enum FuzzState {
    static let user: [UInt8] = Array("fuzz".utf8)

    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        attemptRecord(Array(data))
        enrolmentRecord(Array(data))
        guard let name = ThrottleStore.fileName(for: user) else { return }
        _ = FuzzFiles.write(Array(data), name: String(decoding: name, as: UTF8.self))
        let store = ThrottleStore(directory: FuzzFiles.directory)
        do {
            let state = try store.state(for: user)
            require(state.failures >= 0 && state.lastFailure >= 0, "negative state")
            // The verdict of any state must be computable.
            _ = ThrottlePolicy.verdict(state: state, now: Int64(data.count) * 1_000_003, settings: ThrottleSettings())
            // A state that reads back must be a file of the fixed format (or empty).
            require(data.count == 0 || data.count == 31, "state read from a \(data.count)-byte file")
        } catch {
            require(!error.message.isEmpty, "empty message")
            return
        }
        // Reset always works on a file that is root-only, whatever its content.
        do { try store.reset(user: user) } catch { require(false, "reset failed: \(error.message)") }
        require((try? store.state(for: user)) == ThrottleState.zero, "reset did not zero the state")
    }

    /// An attempt record that parses is within its bounds, reads back the same once written again, and its
    /// remembered guesses can be asked about and added to without a trap or exceeding the limit.
    static func attemptRecord(_ bytes: [UInt8]) {
        guard var record = AttemptRecord.parse(bytes) else { return }
        require(bytes.count <= AttemptRecord.maximumFileBytes, "a record longer than the limit read")
        require(record.wrongGuesses.count <= RepeatedGuess.remembered, "too many remembered guesses")
        require(AttemptRecord.parse(record.encoded()) == record, "a record does not read back as written")
        let now = Int64(bytes.count) * 1_000_003
        for guess in record.wrongGuesses { _ = record.isRepeat(guess.tag, at: now) }
        record.rememberWrong(
            [UInt8](repeating: UInt8(truncatingIfNeeded: bytes.count), count: RepeatedGuess.bytes), at: now)
        require(record.wrongGuesses.count <= RepeatedGuess.remembered, "remembering exceeded the limit")
        require(record.encoded().count <= AttemptRecord.maximumFileBytes, "a record grew past the limit")
    }

    /// An enrolment record that parses is within its bounds and reads back the same once written again; one
    /// more enrolment keeps it within them.
    static func enrolmentRecord(_ bytes: [UInt8]) {
        guard var record = EnrolmentRecord.parse(bytes) else { return }
        require(bytes.count <= EnrolmentRecord.maximumFileBytes, "an enrolment record longer than the limit read")
        require(EnrolmentRecord.parse(record.encoded()) == record, "an enrolment record does not read back")
        let now = Int64(bytes.count) * 1_000_003
        _ = record.allows(at: now)
        record.record(at: now)
        require(record.times.count <= EnrolmentRecord.limit, "an enrolment record grew past the limit")
        require(record.encoded().count <= EnrolmentRecord.maximumFileBytes, "an enrolment record's file grew")
    }
}
