import PatternCoreEmbedded

/// What pam_pattern said, read back from its words so the pad can say it in the person's language and keep a
/// wait counting down. authproto_pam sets only LC_CTYPE, so under xsecurelock the module always speaks the
/// msgids (English): those are matched here, and anything else (another module's message, a translated one)
/// is shown as it came.
enum ModuleMessage: Equatable {
    /// "Wrong pattern." with the tries left before a wait (nil: none said).
    case wrong(triesLeft: Int64?)
    /// A wait of `seconds` from when the message came; `afterWrong` when it followed a wrong pattern.
    case wait(seconds: Int64, afterWrong: Bool)
    /// The pattern is disabled until an administrator resets it.
    case disabled(afterWrong: Bool)
    /// Anything else, shown as it came.
    case other([UInt8])

    static func read(_ message: [UInt8]) -> ModuleMessage {
        switch matched(withoutRoute(message)) {
        case .other: return .other(message)
        case let known: return known
        }
    }

    /// The module's refusal without the sentence about a forgotten pattern that ends it (ForgottenPattern): the
    /// pad says the refusal in its own words, and the way out is a command for after the screen is open.
    static func withoutRoute(_ text: [UInt8]) -> [UInt8] {
        let route = [0x20] + PadText.bytes(ForgottenPattern.lead)
        guard text.count >= route.count else { return text }
        for index in 0...(text.count - route.count) where PadText.has(text, route, at: index) {
            return Array(text[0..<index])
        }
        return text
    }

    /// The module's words, without the route sentence, matched against its msgids.
    private static func matched(_ text: [UInt8]) -> ModuleMessage {
        let wrongPrefix = PadText.bytes("Wrong pattern.")
        if text == wrongPrefix { return .wrong(triesLeft: nil) }
        var rest = text[...]
        var afterWrong = false
        if PadText.has(text, wrongPrefix + [0x20], at: 0) {
            afterWrong = true
            rest = text[(wrongPrefix.count + 1)...]
        }
        let body = Array(rest)
        if afterWrong,
            let n = number(in: body, before: " try left before a wait.")
                ?? number(in: body, before: " tries left before a wait.")
        {
            return .wrong(triesLeft: n)
        }
        let waitPrefix = PadText.bytes("Too many wrong patterns: try again in ")
        let waitSuffix = PadText.bytes(". Your password still works.")
        if PadText.has(body, waitPrefix, at: 0), body.count >= waitPrefix.count + waitSuffix.count,
            PadText.has(body, waitSuffix, at: body.count - waitSuffix.count),
            let seconds = durationSeconds(Array(body[waitPrefix.count..<(body.count - waitSuffix.count)]))
        {
            return .wait(seconds: seconds, afterWrong: afterWrong)
        }
        if PadText.has(body, PadText.bytes("Your pattern is disabled"), at: 0)
            || PadText.has(body, PadText.bytes("Your pattern is now disabled"), at: 0)
        {
            return .disabled(afterWrong: afterWrong)
        }
        return .other(text)
    }

    /// The decimal number that makes up all of `text` before `suffix`.
    private static func number(in text: [UInt8], before suffix: String) -> Int64? {
        let tail = Array(suffix.utf8)
        guard text.count > tail.count, PadText.has(text, tail, at: text.count - tail.count) else { return nil }
        return decimal(text[0..<(text.count - tail.count)])
    }

    private static func decimal(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 12 else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    /// "2 hours 5 minutes", "1 minute", "30 seconds" (the module's duration words) in seconds.
    static func durationSeconds(_ text: [UInt8]) -> Int64? {
        var total: Int64 = 0
        var parts = 0
        for word in split(text) {
            parts += 1
            guard parts <= 2, let space = word.firstIndex(of: 0x20), let n = decimal(word[word.startIndex..<space])
            else { return nil }
            let unit = Array(word[(space + 1)...])
            let scale: Int64
            switch unit {
            case Array("second".utf8), Array("seconds".utf8): scale = 1
            case Array("minute".utf8), Array("minutes".utf8): scale = 60
            case Array("hour".utf8), Array("hours".utf8): scale = 3600
            default: return nil
            }
            total += n * scale
        }
        return parts == 0 ? nil : total
    }

    /// "2 hours 5 minutes" -> ["2 hours", "5 minutes"]: every second space splits.
    private static func split(_ text: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        var spaces = 0
        for index in 0..<text.count where text[index] == 0x20 {
            spaces += 1
            if spaces % 2 == 0 {
                out.append(text[start..<index])
                start = index + 1
            }
        }
        if start < text.count { out.append(text[start...]) }
        return out
    }
}
