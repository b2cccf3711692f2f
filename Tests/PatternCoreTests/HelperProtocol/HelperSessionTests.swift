import CPatternSystem
import Foundation
import Testing

@testable import PatternCore

/// HelperSession (`authenticate`) against stand-in helpers: the check's line opens a session and the guess gets
/// the second line; a session closed without a guess tells the helper so; "expired" (or a helper gone before the
/// guess) is "not seen"; a refused check ends the run with its own exit status; a helper that answers the check
/// and then hangs is killed at the deadline. No stand-in is left a child of this process in any case.
@Suite(.serialized)
struct HelperSessionTests {
    /// startAuthentication with a stand-in running `body` (after writing its pid), then `then` on the start;
    /// returns what `then` gave and whether the stand-in is gone.
    static func withSession<T>(
        _ body: String, deadline: Int32 = 20_000, _ then: (HelperClient.AuthenticationStart) -> T
    ) throws -> (T, gone: Bool) {
        let stand = try HelperClientTests.standIn("echo $$ > \"${0%/*}/pid\"\n" + body)
        defer { try? FileManager.default.removeItem(at: stand.directory) }
        let client = HelperClient(path: Array(stand.path.utf8), deadlineMilliseconds: deadline)
        let result = then(client.startAuthentication(user: Array("alice".utf8)))
        let written = try? String(contentsOf: stand.directory.appendingPathComponent("pid"), encoding: .utf8)
        let pid = written.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (result, HelperClientTests.noChildLeft(pid))
    }

    static let guess = [Array("1235789".utf8), Array("i3lock".utf8), Array(":0".utf8)]

    @Test func theChecksLineOpensTheSessionAndTheGuessGetsTheSecond() throws {
        // The guess arrives after the check's line, NUL-ended: the stand-in accepts only exactly that.
        let body =
            "echo 'allowed 3'\n[ \"$(tr '\\0' ,)\" = 1235789,i3lock,:0, ] && { echo accepted; exit 0; }\n"
            + "echo unavailable; exit 5"
        let (got, gone) = try Self.withSession(body) { start -> String in
            guard case .allowed(let left, let session) = start else { return "no session: \(start)" }
            guard case .answered(let answer) = session.verify(fields: Self.guess) else { return "not seen" }
            return "\(left) \(answer)"
        }
        #expect(got == "3 success(PatternCore.HelperVerdict.accepted)")
        #expect(gone)
    }

    @Test func aSessionClosedWithoutAGuessTellsTheHelperSo() throws {
        // End of file with no byte: the stand-in exits 0 only then (9 when anything arrived).
        let body = "echo 'allowed 3'\n[ \"$(wc -c)\" = 0 ] && exit 0\nexit 9"
        let (closed, gone) = try Self.withSession(body) { start -> Bool in
            guard case .allowed(_, let session) = start else { return false }
            // Exit 0 (9 had any byte arrived), no line after the check's: no verdict of its own.
            let finished = session.finish(fields: nil, before: [])
            return finished.ran == PATTERN_HELPER_EXITED
                && finished.answer == .failure(.unexpectedAnswer(exitStatus: 0))
        }
        #expect(closed)
        #expect(gone)
    }

    @Test func anExpiredRunHasNotSeenTheGuess() throws {
        let (notSeen, gone) = try Self.withSession("echo 'allowed 3'; echo expired; exit 7") { start -> Bool in
            guard case .allowed(_, let session) = start else { return false }
            if case .notSeen = session.verify(fields: Self.guess) { return true }
            return false
        }
        #expect(notSeen)
        #expect(gone)
    }

    @Test func aRefusedCheckEndsTheRunWithItsExitStatus() throws {
        let (answer, gone) = try Self.withSession("echo 'locked wait 30'; exit 2") { start -> String in
            guard case .answered(let answer) = start else { return "\(start)" }
            return "\(answer)"
        }
        #expect(
            answer == "success(PatternCore.HelperVerdict.locked(PatternCore.ThrottleVerdict.wait(secondsLeft: 30)))")
        #expect(gone)
        // The same line with the wrong exit status is no answer.
        let (mismatched, _) = try Self.withSession("echo 'locked wait 30'; exit 0") { start -> Bool in
            if case .answered(.failure(.unexpectedAnswer)) = start { return true }
            return false
        }
        #expect(mismatched)
    }

    @Test func aHelperThatHangsAfterTheCheckIsKilledAtTheDeadline() throws {
        // It answers the check, then neither reads nor exits (its stdin held by a background child, too).
        let body = "echo 'allowed 3'\nsleep 60 &\nexec sleep 60"
        let (timedOut, gone) = try Self.withSession(body, deadline: 400) { start -> Bool in
            guard case .allowed(_, let session) = start else { return false }
            if case .answered(.failure(.timedOut(milliseconds: 400))) = session.verify(fields: Self.guess) {
                return true
            }
            return false
        }
        #expect(timedOut)
        #expect(gone)
    }

    @Test func aCheckThatNeverComesIsKilledAtTheDeadline() throws {
        let (timedOut, gone) = try Self.withSession("exec sleep 60", deadline: 400) { start -> Bool in
            if case .answered(.failure(.timedOut(milliseconds: 400))) = start { return true }
            return false
        }
        #expect(timedOut)
        #expect(gone)
    }
}
