import CPatternSystem
import Glibc
import PatternCore

/// The libFuzzer targets over PatternCore's parsers. Each takes the raw input bytes, must never trap on them,
/// and checks properties that must hold for every input (a broken property aborts, which libFuzzer reports).
///
/// Chosen with PATTERN_FUZZ_TARGET (pattern, store, state); see fuzz/README.md.
enum FuzzTarget: CaseIterable {
    /// Pattern.parse on typed bytes, both layouts, any minimum length.
    case pattern
    /// StoreRecord.parseStore on the bytes of a whole store file.
    case store
    /// ThrottleStore.state(for:) on the bytes of a state file, through a real root-only file.
    case state

    /// The name used in PATTERN_FUZZ_TARGET and fuzz/corpus/<name>.
    var name: String {
        switch self {
        case .pattern: return "pattern"
        case .store: return "store"
        case .state: return "state"
        }
    }

    static func named(_ name: String) -> FuzzTarget? {
        for target in allCases where target.name == name { return target }
        return nil
    }

    func run(_ data: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .pattern: FuzzPattern.run(data)
        case .store: FuzzStore.run(data)
        case .state: FuzzState.run(data)
        }
    }
}

/// A broken property: print it and abort, so libFuzzer saves the input as a crash.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        let text = Array("PatternFuzz: property broken: \(message())\n".utf8)
        text.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
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
            require((try? Pattern.parse(keys, layout: .numpad, minimumLength: minimum)) == pattern,
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
        require(!error.message.isEmpty && !error.isCountedAsGuess, "error \(error) unusable")
        switch error {
        case .tooLong(let count):
            require(count == typed.count && count > Pattern.maximumInputBytes, "tooLong(\(count)) for \(typed.count)")
        case .empty:
            require(typed.allSatisfy { $0 == 0x20 || $0 == 0x2D }, "empty for non-separator input")
        case .notADot(let character, let position):
            require(position >= 1 && position <= typed.count && typed[position - 1] == character,
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

/// Store input: the bytes of a whole store file.
enum FuzzStore {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(data)
        let records: [StoreRecord]
        do {
            records = try StoreRecord.parseStore(bytes)
        } catch {
            require(!error.message.isEmpty, "empty message")
            if case .malformedLine(let line, let problem) = error {
                require(line >= 1 && !problem.message.isEmpty, "malformedLine(\(line))")
            }
            return
        }
        // The format is strict and canonical: what parses re-encodes to the same bytes.
        require(StoreRecord.encodeStore(records) == bytes, "parse/encode round trip changed the store")
        for (index, record) in records.enumerated() {
            require(StoreRecord.isValidUserName(record.user) && StoreRecord.isValidHash(record.hash),
                    "record \(index + 1) accepted but invalid")
            require(record.setAt >= 0, "negative time accepted")
            if let cost = record.cost { require(PatternHash.costRange.contains(cost), "cost \(cost)") }
            for later in records[(index + 1)...] { require(later.user != record.user, "duplicate accepted") }
            // Verifying a pattern against any stored hash must not trap (libcrypt may refuse it).
            if index == 0, let pattern = try? Pattern.parse(Array("1235789".utf8)) {
                _ = FuzzStore.verifyIfCheap(pattern, record.hash)
            }
        }
    }

    /// Verifies only hashes of cost 1 (a fuzzed "$y$" string can ask for gigabytes of memory).
    static func verifyIfCheap(_ pattern: Pattern, _ hash: [UInt8]) -> Bool {
        guard PatternHash.cost(ofHash: hash) == 1 else { return false }
        return PatternHash.verify(pattern, against: hash)
    }
}

/// State input: the bytes of a throttle state file, read through ThrottleStore from a private 0700 directory
/// on /dev/shm (tmpfs: the fsync of reset costs nothing there).
enum FuzzState {
    static let user: [UInt8] = Array("fuzz".utf8)
    nonisolated(unsafe) static var directory: [UInt8] = {
        var template = Array("/dev/shm/pattern-fuzz-state.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        require(made != nil, "mkdtemp failed")
        atexit { FuzzState.removeDirectory() }
        return template.dropLast().map { UInt8(bitPattern: $0) }
    }()

    /// Leaves nothing behind in /dev/shm when the fuzzer exits.
    static func removeDirectory() {
        let directory = String(decoding: FuzzState.directory, as: UTF8.self)
        if let name = ThrottleStore.fileName(for: user) {
            unlink(directory + "/" + String(decoding: name, as: UTF8.self))
        }
        rmdir(directory)
    }

    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard geteuid() == 0 else { return }  // the store refuses files not owned by root
        let directory = FuzzState.directory
        guard let name = ThrottleStore.fileName(for: user) else { return }
        let path = String(decoding: directory + [0x2F] + name, as: UTF8.self)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        require(fd >= 0, "cannot write \(path)")
        if let base = data.baseAddress { _ = write(fd, base, data.count) }
        close(fd)
        let store = ThrottleStore(directory: directory)
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
}
