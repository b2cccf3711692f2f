import Foundation
import Testing

@testable import PatternCore

/// HelperClient against stand-in helpers (shell scripts): a verdict is read, and a helper that does not answer
/// in time is killed and reaped whatever it does (stops itself, sleeps, closes its stdout and stays), leaving no
/// child behind. Deadlines here are short; the test checks what came back, never how long it took.
@Suite(.serialized)
struct HelperClientTests {
    /// A check may use as much CPU as the module waits for the helper (GuessGate, a layer below, keeps its own
    /// copy of the figure).
    @Test func aCheckMayUseTheCPUTheModuleWaitsFor() {
        #expect(GuessGate.checkCPUSeconds * 1000 == Int64(HelperClient.moduleDeadlineMilliseconds))
    }

    /// A stand-in helper running `body` (sh), in a fresh directory; removed by the caller. A child process
    /// writes it, never this one: a file descriptor open for writing here would be inherited by whatever another
    /// suite forks meanwhile (StoreLookupTests' writer), and exec of a file open for writing fails (ETXTBSY).
    static func standIn(_ body: String) throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "helper-client-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("helper").path
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        let script = "printf '%s\\n' \"$2\" > \"$1\" && chmod 0755 \"$1\""
        writer.arguments = ["-c", script, "sh", path, "#!/bin/sh\n" + body]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0, "the stand-in was not written")
        return (path, directory)
    }

    /// Runs `body` as a host with its own signals would: SIGUSR1's action set to `usr1`, and this thread's mask
    /// exactly {SIGUSR2} (the test runner's threads start with most signals blocked); both restored after.
    static func withHostSignals<T>(usr1: __sighandler_t?, _ body: () throws -> T) rethrows -> T {
        let previous = signal(SIGUSR1, usr1)
        var mask = sigset_t()
        var before = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGUSR2)
        pthread_sigmask(SIG_SETMASK, &mask, &before)
        defer {
            pthread_sigmask(SIG_SETMASK, &before, nil)
            signal(SIGUSR1, previous)
        }
        return try body()
    }

    static func call(
        _ body: String, deadline: Int32 = 300, fields: [[UInt8]] = []
    ) throws -> Result<
        HelperVerdict, HelperFailure
    > {
        try callNotingPid(body, deadline: deadline, fields: fields).result
    }

    /// `call`, and the pid the stand-in had (it writes it down first, then runs `body`).
    static func callNotingPid(
        _ body: String, deadline: Int32 = 300, fields: [[UInt8]] = []
    ) throws -> (result: Result<HelperVerdict, HelperFailure>, pid: Int32?) {
        let stand = try standIn("echo $$ > \"${0%/*}/pid\"\n" + body)
        defer { try? FileManager.default.removeItem(at: stand.directory) }
        let client = HelperClient(path: Array(stand.path.utf8), deadlineMilliseconds: deadline)
        let result = client.call(.verify, user: Array("alice".utf8), fields: fields)
        let written = try? String(contentsOf: stand.directory.appendingPathComponent("pid"), encoding: .utf8)
        return (result, written.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    }

    /// The stand-in helper `pid` is no child of this process any more, running or as a zombie (looked up in /proc,
    /// so nothing is reaped here). Only that pid: other suites run beside this one and have children of their own.
    static func noChildLeft(_ pid: Int32?) -> Bool {
        guard let pid else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.range(of: ")", options: .backwards)
        else { return true }
        // After "(comm)": state, then the parent's pid.
        let fields = stat[end.upperBound...].split(separator: " ")
        return !(fields.count > 1 && Int32(fields[1]) == getpid())
    }

    @Test func aVerdictInTimeIsRead() throws {
        // The fields arrive on stdin, NUL-ended: the stand-in answers only when they are what was sent.
        let body = "[ \"$(tr '\\0' ,)\" = 1235789, ] && { echo accepted; exit 0; }; echo unavailable; exit 5"
        let (result, pid) = try Self.callNotingPid(body, deadline: 20_000, fields: [Array("1235789".utf8)])
        #expect(result == .success(.accepted))
        #expect(Self.noChildLeft(pid))
    }

    @Test func theCallsRefusalsAndUnavailableAreFailuresTheRestVerdicts() throws {
        #expect(try Self.call("echo 'refused user'; exit 6", deadline: 20_000) == .failure(.refused(.user)))
        #expect(try Self.call("echo 'refused policy'; exit 6", deadline: 20_000) == .success(.refused(.policy)))
        #expect(try Self.call("echo unavailable; exit 5", deadline: 20_000) == .failure(.unavailable))
        #expect(try Self.call("echo 'tpm-refused no-tpm'; exit 5", deadline: 20_000) == .success(.tpmRefused(.absent)))
    }

    @Test func aHelperThatDoesNotAnswerIsKilledAndReaped() throws {
        for body in [
            "kill -STOP $$", "exec sleep 600", "exec >&-; exec sleep 600", "echo accepted; exec sleep 600",
        ] {
            let (result, pid) = try Self.callNotingPid(body)
            #expect(result == .failure(.timedOut(milliseconds: 300)), "\(body)")
            #expect(Self.noChildLeft(pid), "\(body)")
        }
    }

    @Test func theHelperStartsWithDefaultSignalsAndAnEmptyEnvironment() throws {
        // Ignored signals and a blocked mask survive exec: the host's must not reach the helper.
        setenv("PATTERN_HOST_SECRET", "x", 1)
        defer { unsetenv("PATTERN_HOST_SECRET") }
        let body = """
            masks=$(grep -E '^Sig(Ign|Blk):' /proc/self/status | tr -d '0\\n\\t' | tr -d 'SigIgnBlk:')
            [ -z "$masks" ] && [ -z "$PATTERN_HOST_SECRET" ] && { echo accepted; exit 0; }
            echo unavailable; exit 5
            """
        let result = try Self.withHostSignals(usr1: SIG_IGN) { try Self.call(body, deadline: 20_000) }
        #expect(result == .success(.accepted))
    }

    @Test func theCallersSignalMaskAndHandlersAreAsTheyWere() throws {
        // Every signal is blocked in the calling thread while the child starts; the host gets its own mask back,
        // and a handler of the host's stays its own (the child resets only its copy).
        let handler: @convention(c) (Int32) -> Void = { _ in }
        let (result, blocked, kept) = try Self.withHostSignals(usr1: handler) {
            let result = try Self.call("echo accepted", deadline: 20_000)
            var after = sigset_t()
            pthread_sigmask(SIG_SETMASK, nil, &after)
            var action = sigaction()
            sigaction(SIGUSR1, nil, &action)
            let blocked = (1..<65).filter { sigismember(&after, Int32($0)) == 1 }
            return (result, blocked, unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self))
        }
        #expect(result == .success(.accepted))
        #expect(blocked == [Int(SIGUSR2)])
        #expect(kept == unsafeBitCast(handler, to: Int.self))
    }

    @Test func theHostsPagesAreNotMadeCopyOnWrite() throws {
        // A fork leaves every page of the host copy-on-write: each one the host writes afterwards is a page fault
        // (a screen locker's 10-30 MiB, twice per authentication). The child shares the host's memory until its
        // exec instead. Counted for this thread only: other suites run beside this one.
        let pageCount = 1024
        let pages = UnsafeMutablePointer<UInt8>.allocate(capacity: pageCount * 4096)
        defer { pages.deallocate() }
        pages.initialize(repeating: 1, count: pageCount * 4096)
        let thisThread: __rusage_who_t = 1  // RUSAGE_THREAD, which Glibc's Swift module leaves out
        func faultsWritingEveryPage() -> Int {
            var usage = rusage()
            getrusage(thisThread, &usage)
            let start = usage.ru_minflt
            for page in 0..<pageCount { pages[page * 4096] &+= 1 }
            getrusage(thisThread, &usage)
            return usage.ru_minflt - start
        }
        #expect(faultsWritingEveryPage() < pageCount / 8)  // resident: writing them again costs nothing
        let client = HelperClient(path: Array("/bin/true".utf8), deadlineMilliseconds: 20_000)
        _ = client.call(.verify, user: Array("alice".utf8), fields: [])
        #expect(faultsWritingEveryPage() < pageCount / 8)
    }

    @Test func aDeadlineIsNeverZeroOrNegative() throws {
        #expect(try Self.call("echo accepted", deadline: 0) == .failure(.couldNotRun(errno: EINVAL)))
    }

    @Test func theSentencesNameWhatHappened() {
        #expect(
            HelperFailure.timedOut(milliseconds: 5000).message
                == "pam_pattern_helper gave no answer within 5 seconds and was killed")
        #expect(HelperFailure.killed(signal: 9).message == "pam_pattern_helper was killed by signal 9")
        #expect(HelperFailure.refused(.tty).message == "pam_pattern_helper refused the call (tty)")
        #expect(
            HelperFailure.unexpectedAnswer(exitStatus: 127).message
                == "pam_pattern_helper could not be executed (exit 127: missing or not executable?)")
    }
}
