// store-writer: a test helper (not installed) that runs one PatternStore / GuessGate operation per process,
// so Tests/StoreTests can inject faults with strace, kill it with SIGKILL, or run 64 of it at once.
// Prints nothing before the store is written (strace's write injection then hits the store's write first).
// Exit status: 0 done, 1 StoreError (message on stderr), 64 usage.
import CPatternSystem
import Glibc
import PatternCore

func fail(_ error: StoreError) -> Never {
    FileHandleStderr.write("store-writer: \(error.message) [\(error)]\n")
    exit(1)
}

enum FileHandleStderr {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(2, &bytes, bytes.count)
    }
}

func usage() -> Never {
    FileHandleStderr.write(
        """
        usage: store-writer save STORE USER HASH SETAT
               store-writer set STORE USER DIGITS COST SETAT
               store-writer remove STORE USER
               store-writer load STORE
               store-writer attempt STORE STATEDIR USER DIGITS NOW DENY UNLOCK LOCKAFTER
               store-writer state STATEDIR USER
               store-writer time COST COUNT

        """)
    exit(64)
}

func dots(_ digits: String) -> Pattern {
    // Test helper: digits are given canonical; the real parser is used by the module and patternctl.
    guard let parsed = try? Pattern.parse(Array(digits.utf8)) else { usage() }
    return parsed
}

/// A new hash; a hashing failure exits like a store failure (status 1).
func hash(_ pattern: Pattern, cost: Int) throws(StoreError) -> [UInt8] {
    do throws(HashError) { return try PatternHash.make(for: pattern, cost: cost) } catch { throw .hash(error) }
}

func int64(_ text: String) -> Int64 {
    guard let value = Int64(text) else { usage() }
    return value
}

/// Start barrier for the concurrency tests: with STORE_WRITER_GO=<fifo>, block until the test opens the FIFO
/// for writing and closes it, so all processes hit the lock at the same moment instead of one by one.
func waitForGo() {
    guard let fifo = getenv("STORE_WRITER_GO") else { return }
    let fd = open(fifo, O_RDONLY | O_CLOEXEC)
    if fd < 0 { return }
    var byte: UInt8 = 0
    while read(fd, &byte, 1) > 0 {}
    close(fd)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { usage() }
let rest = Array(arguments.dropFirst())

do throws(StoreError) {
    switch command {
    case "save" where rest.count == 4:
        try PatternStore(path: Array(rest[0].utf8))
            .save(StoreRecord(user: Array(rest[1].utf8), hash: Array(rest[2].utf8), setAt: int64(rest[3])))
    case "set" where rest.count == 5:
        let hash = try hash(dots(rest[2]), cost: Int(int64(rest[3])))
        try PatternStore(path: Array(rest[0].utf8)).save(
            StoreRecord(user: Array(rest[1].utf8), hash: hash, setAt: int64(rest[4])))
    case "remove" where rest.count == 2:
        print(try PatternStore(path: Array(rest[0].utf8)).remove(user: Array(rest[1].utf8)) ? "removed" : "absent")
    case "load" where rest.count == 1:
        for record in try PatternStore(path: Array(rest[0].utf8)).load() {
            print(String(decoding: record.encoded().dropLast(), as: UTF8.self) + " cost=\(record.cost ?? -1)")
        }
    case "attempt" where rest.count == 8:
        var gate = GuessGate(
            store: PatternStore(path: Array(rest[0].utf8)), throttle: ThrottleStore(directory: Array(rest[1].utf8)),
            settings: ThrottleSettings(
                deny: Int(int64(rest[5])), unlockTime: int64(rest[6]), lockAfter: Int(int64(rest[7]))))
        gate.dummyHashCost = 1
        let user = Array(rest[2].utf8), guess = dots(rest[3]), now = int64(rest[4])
        waitForGo()
        let outcome = try gate.attempt(user: user, pattern: guess, now: now)
        switch outcome {
        case .accepted: print("accepted")
        case .rejected(let verdict): print("rejected \(verdict)")
        case .refused(let verdict): print("refused \(verdict)")
        case .notEnrolled: print("notEnrolled")
        case .revoked: print("revoked")
        }
    case "state" where rest.count == 2:
        let state = try ThrottleStore(directory: Array(rest[0].utf8)).state(for: Array(rest[1].utf8))
        print("\(state.failures) \(state.lastFailure)")
    case "time" where rest.count == 2:
        // Seconds per verify at COST, averaged over COUNT runs (a wrong pattern: full hash + compare).
        let cost = Int(int64(rest[0])), count = max(Int(int64(rest[1])), 1)
        let hash = try hash(dots("1235789"), cost: cost)
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        for _ in 0..<count { _ = PatternHash.verify(dots("1236"), against: hash) }
        clock_gettime(CLOCK_MONOTONIC, &end)
        let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        print("\(seconds / Double(count))")
    default:
        usage()
    }
} catch {
    fail(error)
}
