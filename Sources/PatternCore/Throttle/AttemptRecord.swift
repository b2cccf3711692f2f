/// One failed guess as the record keeps it: when, and through which service, terminal and remote host.
/// Never what was typed.
public struct FailedAttempt: Equatable, Sendable {
    /// Seconds since the epoch.
    public var time: Int64
    /// PAM_SERVICE ("su", "sudo", "login"), as stored: empty when unknown.
    public var service: [UInt8]
    /// PAM_TTY ("/dev/pts/3", ":0"), empty when unset.
    public var tty: [UInt8]
    /// PAM_RHOST, empty for a local attempt.
    public var remoteHost: [UInt8]

    /// Each field is cleaned by `AttemptRecord.field` so it fits the file and is safe to print.
    public init(time: Int64, service: [UInt8], tty: [UInt8], remoteHost: [UInt8]) {
        self.time = max(time, 0)
        self.service = AttemptRecord.field(service)
        self.tty = AttemptRecord.field(tty)
        self.remoteHost = AttemptRecord.field(remoteHost)
    }
}

/// A user's recent failed attempts (FILEFORMAT.md, "Attempt record"): the newest `capacity` failures, oldest
/// first, and how many failures the person has not been told about yet (since their last success that
/// showed the notice). Written by the module under the user's state lock when a failure is counted.
public struct AttemptRecord: Equatable, Sendable {
    /// Entries kept; the oldest is dropped when a new one arrives. Bounds the file (and the module's work).
    public static let capacity = 16
    /// Longest stored service, tty or host; longer values are cut (a host name may be up to 1024 bytes).
    public static let maximumFieldBytes = 64
    /// The unseen count saturates here (9 digits).
    public static let maximumUnseen = 999_999_999
    /// Largest file: "unseen " + 9 digits + newline, `RepeatedGuess.remembered` lines of "repeat " + 64 hex
    /// digits + a space + a 19-digit time + newline, then `capacity` lines of a 19-digit time and three full
    /// fields, each with its separator (3,917 bytes).
    public static let maximumFileBytes =
        17 + RepeatedGuess.remembered * 92 + capacity * (20 + 3 * (maximumFieldBytes + 1))

    /// Failures since the last success that told the person about them. Can exceed `attempts.count`.
    public var unseen: Int
    /// Oldest first, at most `capacity`.
    public var attempts: [FailedAttempt]
    /// The last distinct wrong guesses (RepeatedGuess), oldest first, at most `RepeatedGuess.remembered`.
    public private(set) var wrongGuesses: [RememberedWrongGuess]

    public init(unseen: Int = 0, attempts: [FailedAttempt] = [], wrongGuesses: [RememberedWrongGuess] = []) {
        self.unseen = min(max(unseen, 0), AttemptRecord.maximumUnseen)
        self.attempts = attempts
        self.wrongGuesses = Array(
            wrongGuesses.filter { $0.tag.count == RepeatedGuess.bytes }.suffix(RepeatedGuess.remembered))
    }

    /// Whether a guess with `tag` at `now` repeats one of the remembered wrong guesses (RepeatedGuess).
    public func isRepeat(_ tag: [UInt8], at now: Int64) -> Bool {
        return wrongGuesses.contains { $0.isRepeat(of: tag, at: now) }
    }

    /// Remembers a wrong guess judged at `now`: the newest last, no tag twice, none older than the window, at
    /// most `RepeatedGuess.remembered` (the oldest goes).
    public mutating func rememberWrong(_ tag: [UInt8], at time: Int64) {
        guard tag.count == RepeatedGuess.bytes else { return }
        let now = max(time, 0)  // times are never negative, so the differences below cannot overflow
        wrongGuesses.removeAll { $0.tag == tag || now - $0.time > RepeatedGuess.windowSeconds }
        wrongGuesses.append(RememberedWrongGuess(tag: tag, time: now))
        if wrongGuesses.count > RepeatedGuess.remembered {
            wrongGuesses.removeFirst(wrongGuesses.count - RepeatedGuess.remembered)
        }
    }

    /// Forgets every remembered wrong guess (a success, a reset, a new pattern); whether there was any.
    @discardableResult
    public mutating func forgetWrongGuesses() -> Bool {
        let had = !wrongGuesses.isEmpty
        wrongGuesses.removeAll()
        return had
    }

    /// No failures recorded.
    public static let empty = AttemptRecord()

    /// Adds a failure, dropping the oldest beyond `capacity`.
    public mutating func add(_ attempt: FailedAttempt) {
        attempts.append(attempt)
        if attempts.count > AttemptRecord.capacity {
            attempts.removeFirst(attempts.count - AttemptRecord.capacity)
        }
        if unseen < AttemptRecord.maximumUnseen { unseen += 1 }
    }

    /// Takes back a failure added by `add` (the guess turned out right): its newest equal entry, if the
    /// capacity has not dropped it already, and one from `unseen`.
    public mutating func withdraw(_ attempt: FailedAttempt) {
        if let index = attempts.lastIndex(of: attempt) { attempts.remove(at: index) }
        if unseen > 0 { unseen -= 1 }
    }

    /// The failures not yet told, with the newest of them (nil when there are none).
    public var unseenSummary: UnseenFailures? {
        guard unseen > 0, let last = attempts.last else { return nil }
        return UnseenFailures(count: unseen, last: last)
    }

    /// A field as stored: at most `maximumFieldBytes`, every byte outside '!'...'~' (controls, space, DEL,
    /// non-ASCII) turned into '?'. The separator cannot appear, and a host name chosen by a remote client
    /// cannot send escape sequences to the terminal that shows the notice.
    public static func field(_ raw: [UInt8]) -> [UInt8] {
        return TextCodec.printable(Array(raw.prefix(maximumFieldBytes)), space: false)
    }

    /// "unseen N\n", one "repeat TAG TIME\n" per remembered wrong guess (64 lower-case hex digits, seconds),
    /// then one "TIME SERVICE TTY HOST\n" per attempt; an empty field is "-".
    public func encoded() -> [UInt8] {
        var bytes = Array("unseen ".utf8) + TextCodec.decimal(Int64(unseen)) + [0x0A]
        for guess in wrongGuesses {
            bytes += Array("repeat ".utf8) + TextCodec.hex(guess.tag) + [0x20] + TextCodec.decimal(guess.time) + [0x0A]
        }
        for attempt in attempts {
            bytes += TextCodec.decimal(attempt.time)
            for value in [attempt.service, attempt.tty, attempt.remoteHost] {
                bytes.append(0x20)
                bytes += value.isEmpty ? [0x2D] : value
            }
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Parses a whole file, strictly; nil when anything is off. An empty file is the empty record.
    public static func parse(_ bytes: [UInt8]) -> AttemptRecord? {
        if bytes.isEmpty { return .empty }
        guard bytes.count <= maximumFileBytes, bytes.last == 0x0A else { return nil }
        var record = AttemptRecord()
        var fields: [ArraySlice<UInt8>] = []
        var start = 0
        var isHeader = true
        for index in bytes.indices where bytes[index] == 0x20 || bytes[index] == 0x0A {
            fields.append(bytes[start..<index])
            start = index + 1
            guard bytes[index] == 0x0A else { continue }
            if isHeader {
                guard fields.count == 2, fields[0].elementsEqual("unseen".utf8),
                    let unseen = TextCodec.parseDecimal(fields[1], leadingZeros: false, maximumDigits: 19),
                    unseen <= maximumUnseen
                else { return nil }
                record.unseen = Int(unseen)
                isHeader = false
            } else if record.attempts.isEmpty && (fields.count == 2 || fields.count == 3)
                && fields[0].elementsEqual("repeat".utf8)
            {
                // Only right after the header, at most `remembered`, lower-case hex, as written. Without a time
                // (the one line written before 2026-12, when only the last guess was remembered): long expired.
                guard record.wrongGuesses.count < RepeatedGuess.remembered,
                    fields[1].count == 2 * RepeatedGuess.bytes, let tag = TextCodec.parseHex(fields[1])
                else { return nil }
                var time: Int64 = 0
                if fields.count == 3 {
                    guard let written = TextCodec.parseDecimal(fields[2], leadingZeros: false, maximumDigits: 19)
                    else { return nil }
                    time = written
                }
                guard !record.wrongGuesses.contains(where: { $0.tag == tag }) else { return nil }
                record.wrongGuesses.append(RememberedWrongGuess(tag: tag, time: time))
            } else {
                guard fields.count == 4, record.attempts.count < capacity,
                    let time = TextCodec.parseDecimal(fields[0], leadingZeros: false, maximumDigits: 19)
                else { return nil }
                for value in fields[1...] {
                    guard !value.isEmpty, value.count <= maximumFieldBytes,
                        value.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
                    else { return nil }
                }
                record.attempts.append(
                    FailedAttempt(
                        time: time, service: stored(fields[1]), tty: stored(fields[2]),
                        remoteHost: stored(fields[3])))
            }
            fields.removeAll(keepingCapacity: true)
        }
        return record
    }

    /// A field's value: "-" is empty.
    private static func stored(_ field: ArraySlice<UInt8>) -> [UInt8] {
        return field.count == 1 && field.first == 0x2D ? [] : Array(field)
    }
}

/// Where a guess comes from (the PAM items), for the attempt record.
public struct AttemptOrigin: Equatable, Sendable {
    public var service: [UInt8]
    public var tty: [UInt8]
    public var remoteHost: [UInt8]

    public init(service: [UInt8], tty: [UInt8], remoteHost: [UInt8]) {
        self.service = service
        self.tty = tty
        self.remoteHost = remoteHost
    }

    /// The program field of a record entry: what the person ran, as they know it. The host program's name
    /// with its PAM service in brackets when they differ ("authproto_pam(common-auth)": xsecurelock's
    /// authentication runs the shared service), the one name when they agree ("sudo") or only one is known.
    public static func program(_ name: [UInt8], service: [UInt8]) -> [UInt8] {
        if name.isEmpty || name == service { return service }
        if service.isEmpty { return name }
        return name + [0x28] + service + [0x29]
    }

    /// The record entry for a failure at `time`.
    public func failure(at time: Int64) -> FailedAttempt {
        return FailedAttempt(time: time, service: service, tty: tty, remoteHost: remoteHost)
    }
}

/// The failures a person has not been told about yet: how many, and the newest (login's "N failed attempts
/// since your last success, the last from ...").
public struct UnseenFailures: Equatable, Sendable {
    public let count: Int
    public let last: FailedAttempt
}
