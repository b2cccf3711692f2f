// Test driver for the TPM layer (never installed): each subcommand is one call of TPMPatternIndex,
// built as Embedded Swift exactly as the setuid helper uses it. Tests/TPMTests drive it against swtpm.
//
//   tpm-driver enroll  TCTI USER PATTERN LIMIT [SALT]  -> prints the record (SALT: 32 hex, tests only)
//   tpm-driver check   TCTI USER PATTERN RECORD [commands [STORE]]
//                      -> right [N] | wrong | limit | unavailable CODE TEXT
//                      (with "commands": N, the TPM commands the check sent; with STORE, the session key
//                      beside that store binds the session)
//   tpm-driver session-key TCTI STORE            -> the session-key index and its file beside STORE, made
//                                                   or checked as enrolment does
//   tpm-driver counter TCTI RECORD               -> FAILURES LIMIT
//   tpm-driver remove  TCTI RECORD
//   tpm-driver auth    SALT USER PATTERN         -> the derived auth value (hex)
//   tpm-driver guess   TCTI STORE STATEDIR USER PATTERN DENY LOCK_AFTER
//                      -> one guess through GuessGate with the TPM check, as the helper makes it:
//                         accepted | wrong VERDICT | refused VERDICT | not-enrolled | unavailable MESSAGE
//
// Exit 0 = done / right, 1 = wrong, 2 = limit reached / refused, 3 = unavailable or failed, 4 = not enrolled,
// 64 = usage.
import CPatternSystem
import PatternCoreEmbedded
import PatternTPM

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

func hex(_ data: [UInt8]) -> String { String(decoding: TextCodec.hex(data), as: UTF8.self) }

func fail(_ message: String, status: Int32) -> Never {
    print(message)
    exit(status)
}

func parsePattern(_ text: String) -> Pattern {
    do throws(PatternError) {
        return try Pattern.parse(bytes(text))
    } catch {
        fail("bad pattern", status: 64)
    }
}

func parseRecord(_ text: String) -> TPMRecord {
    guard let record = TPMRecord(text: bytes(text)) else { fail("bad record", status: 64) }
    return record
}

/// 32 hex digits, through the record parser (the one hex decoder).
func parseSalt(_ text: String) -> [UInt8] {
    guard let record = TPMRecord(text: bytes("$tpm2$01a50000$000b" + String(repeating: "0", count: 64) + "$" + text))
    else { fail("bad salt", status: 64) }
    return record.salt
}

func describe(_ verdict: ThrottleVerdict) -> String {
    switch verdict {
    case .allowed(let left): return "allowed \(left)"
    case .wait(let seconds): return "wait \(seconds)"
    case .disabled: return "disabled"
    }
}

func connect(_ tcti: String, _ bound: TPMConversationBound = .change) -> TPMConnection {
    do throws(TPMFailure) {
        return try TPMConnection(tcti: tcti, bound: bound, lockBeside: nil)
    } catch {
        fail("unavailable \(hex32(error.code)) \(error.description)", status: 3)
    }
}

/// The write policy in a conversation of its own (closed before the next one opens: swtpm serves one at a time).
func writePolicy(_ tcti: String, salt: [UInt8]) throws(TPMFailure) -> TPMWritePolicy {
    let tpm = connect(tcti)
    return try TPMPatternIndex.writePolicy(salt: salt, on: tpm)
}

func hex32(_ value: UInt32) -> String {
    return "0x"
        + hex([
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ])
}

// Embedded Swift has no CommandLine: the C entry point (argc, argv), by hand.
@_cdecl("tpm_driver_main")  // SwiftPM links main to <module>_main
func driverMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var args: [String] = []
    for i in 0..<Int(argc) {
        guard let arg = argv[i] else { break }
        args.append(String(cString: arg))
    }
    run(args)
    return 0
}

func run(_ args: [String]) {
    // Compared as bytes: String == would pull in Unicode normalisation tables.
    let command = args.count > 1 ? Array(args[1].utf8) : []
    switch (command, args.count) {
    case (bytes("enroll"), 6), (bytes("enroll"), 7):
        guard let limit = UInt32(args[5]) else { fail("bad limit", status: 64) }
        var salt = [UInt8](repeating: 0, count: TPMPinAuth.saltSize)
        for i in salt.indices { salt[i] = UInt8.random(in: 0...255) }
        if args.count == 7 { salt = parseSalt(args[6]) }
        // Two conversations, as the helper has them: the write policy, then the index.
        do throws(TPMFailure) {
            let policy = try writePolicy(args[2], salt: salt)
            let record = try TPMPatternIndex.enroll(
                parsePattern(args[4]), user: bytes(args[3]), salt: salt,
                pinLimit: limit, policy: policy, on: connect(args[2]))
            print(String(decoding: record.text, as: UTF8.self))
        } catch {
            fail("unavailable \(hex32(error.code)) \(error.description)", status: 3)
        }
    case (bytes("check"), 6), (bytes("check"), 7), (bytes("check"), 8):
        let tpm = connect(args[2], .check)
        let key = args.count == 8 ? TPMSessionKeyFile(store: PatternStore(path: bytes(args[7]))).read() : nil
        switch TPMPatternIndex.check(
            parsePattern(args[4]), user: bytes(args[3]), record: parseRecord(args[5]), sessionKey: key, on: tpm)
        {
        case .right: print(args.count >= 7 ? "right \(tpm.commandCount)" : "right")
        case .wrong: fail("wrong", status: 1)
        case .limitReached: fail("limit", status: 2)
        case .unavailable(let code), .unanswered(let code):
            fail("unavailable \(hex32(code)) \(TPMFailure(code: code).description)", status: 3)
        }
    case (bytes("session-key"), 4):
        do throws(TPMFailure) {
            try TPMSessionKey.ensure(beside: PatternStore(path: bytes(args[3]))) { () throws(TPMFailure) in
                connect(args[2])
            }
        } catch {
            fail("unavailable \(hex32(error.code)) \(error.description)", status: 3)
        }
    case (bytes("counter"), 4):
        let tpm = connect(args[2])
        do throws(TPMFailure) {
            let counter = try TPMPatternIndex.counter(of: parseRecord(args[3]), on: tpm)
            print("\(counter.failures) \(counter.limit)")
        } catch {
            fail("unavailable \(hex32(error.code)) \(error.description)", status: 3)
        }
    case (bytes("remove"), 4):
        let tpm = connect(args[2])
        do throws(TPMFailure) {
            try TPMPatternIndex.remove(parseRecord(args[3]), on: tpm)
        } catch {
            fail("unavailable \(hex32(error.code)) \(error.description)", status: 3)
        }
    case (bytes("auth"), 5):
        print(hex(TPMPinAuth.value(salt: parseSalt(args[2]), user: bytes(args[3]), pattern: parsePattern(args[4]))))
    case (bytes("guess"), 9):
        guard let deny = Int(args[7]), let lockAfter = Int(args[8]) else { fail("bad numbers", status: 64) }
        var gate = GuessGate(
            store: PatternStore(path: bytes(args[3])), throttle: ThrottleStore(directory: bytes(args[4])),
            settings: ThrottleSettings(deny: deny, unlockTime: 60, lockAfter: lockAfter))
        gate.dummyHashCost = nil
        gate.tpmCheck = TPMGuessCheck.make(tcti: args[2], store: PatternStore(path: bytes(args[3])))
        do throws(StoreError) {
            switch try gate.attempt(user: bytes(args[5]), pattern: parsePattern(args[6]), now: Int64(time(nil))) {
            case .accepted: print("accepted")
            case .rejected(let after): fail("wrong \(describe(after))", status: 1)
            case .refused(let verdict): fail("refused \(describe(verdict))", status: 2)
            case .notEnrolled: fail("not-enrolled", status: 4)
            case .revoked: fail("revoked", status: 2)
            }
        } catch {
            fail("unavailable \(error.message)", status: 3)
        }
    default:
        fail("usage: tpm-driver enroll|check|counter|remove|auth ...", status: 64)
    }
}
