import Glibc
import Testing

@testable import PatternCore

/// A fresh root-owned 0700 directory under /tmp, removed by `remove()`.
struct TempDirectory {
    let path: String

    init() {
        var template = Array("/tmp/pattern-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { $0.baseAddress.flatMap { mkdtemp($0) } }
        precondition(made != nil, "mkdtemp failed")
        path = String(cString: template)
    }

    /// path + "/" + name, as bytes.
    func pathBytes(_ name: String) -> [UInt8] { Array((path + "/" + name).utf8) }
    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        _ = system("rm -rf '\(path)'")
    }

    /// Names in the directory (no "." / "..").
    func names() -> [String] { Self.names(of: path) }

    /// Names in any directory (no "." / ".."), sorted.
    static func names(of path: String) -> [String] {
        guard let stream = opendir(path) else { return [] }
        defer { closedir(stream) }
        var result: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { result.append(name) }
        }
        return result.sorted()
    }
}

func readBytes(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    if fd < 0 { return nil }
    defer { close(fd) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n <= 0 { break }
        result.append(contentsOf: buffer[0..<n])
    }
    return result
}

func writeBytes(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
    precondition(fd >= 0)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    fchmod(fd, mode)
    close(fd)
}

func fileStat(_ path: String) -> stat {
    var info = stat()
    precondition(lstat(path, &info) == 0, "lstat \(path)")
    return info
}

/// A pattern from digits "1235789" (tests only; the parser is someone else's).
func storePattern(_ digits: String) -> Pattern {
    Pattern(canonicalDots: digits.utf8.map { $0 - 0x30 })
}

func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Distinct wrong 4-dot patterns (neither 1235789 nor 1236, the patterns tests store): a repeated wrong guess is
/// not counted (RepeatedGuess), so tests that count failures guess a different one each time.
let wrongPatterns: [Pattern] = Pattern.allValid(length: 4).filter { $0.digits != Array("1236".utf8) }

/// A real yescrypt cost-1 hash (fast), for records that need a valid hash.
func quickHash(_ digits: String) -> [UInt8] {
    (try? PatternHash.make(for: storePattern(digits), cost: 1)) ?? []
}

/// The store and state rules demand root-owned files, so their suites only run as root.
let runningAsRoot = geteuid() == 0
let rootOnlyReason: Comment = "needs root: the store and state must be owned by root (run make test as root)"

/// A gate over `dir`'s "patterns" and "state" in which alice is enrolled with `credential` (pattern 1235789
/// hashed at cost 1 unless given); dummy hashes at cost 1, so a test never waits on the default cost.
func aliceGate(
    _ dir: TempDirectory, _ settings: ThrottleSettings = ThrottleSettings(), credential: [UInt8]? = nil
) throws -> GuessGate {
    let store = PatternStore(path: dir.pathBytes("patterns"))
    try store.save(StoreRecord(user: ascii("alice"), hash: credential ?? quickHash("1235789"), setAt: 1))
    var gate = GuessGate(store: store, throttle: ThrottleStore(directory: dir.pathBytes("state")), settings: settings)
    gate.dummyHashCost = 1
    return gate
}
