/// What the module says that another program reads back (its prompts and its verdicts on a pattern), in
/// every shipped language, from one table generated from the message catalogue (`ModuleWordsTable.swift`,
/// written by po/module-words.py, which writes the QML surfaces' ModuleWords.js from the same catalogue).
/// The pad reads the module's messages through `read` and its prompts through `prompt`, so a new wording or
/// a translation reaches every reader without a second copy of any sentence. Same rules as the JavaScript
/// reader (po/module-words.js): Tests/CoreVectorsTests and Tests/QMLTests read every sentence in every
/// language through both.
public enum ModuleWords {
    /// One language's words; a plural msgid has every form the language has.
    struct Language {
        let name: StaticString
        let patternPrompt: StaticString
        let patternOrPasswordPrompt: StaticString
        let patternPromptTries: [StaticString]
        let patternOrPasswordPromptTries: [StaticString]
        let wrong: StaticString
        let wrongTries: [StaticString]
        let wait: StaticString
        let wrongWait: StaticString
        let disabled: StaticString
        let wrongDisabled: StaticString
        let routeSelf: StaticString
        let routeAdmin: StaticString
        let routeScreen: StaticString
        let seconds: [StaticString]
        let minutes: [StaticString]
        let hours: [StaticString]
        let pair: StaticString
    }

    /// What a message said.
    public enum Said: Equatable, Sendable {
        /// "Wrong pattern.", with the tries left before a wait (nil: none said).
        case wrong(triesLeft: Int64?)
        /// A wait of `seconds` (as said: an hour's seconds are not).
        case wait(seconds: Int64)
        /// The pattern is disabled until an administrator resets it.
        case disabled
        /// Nothing the module says about a pattern (another module's message, a prompt).
        case other
    }

    /// A message read back.
    public struct Reading: Equatable, Sendable {
        public let said: Said
        /// The message began "Wrong pattern." (in its language).
        public let afterWrong: Bool
        /// The language it was said in ("C": the msgids); [] for `.other`.
        public let language: [UInt8]
        /// The sentence for a forgotten pattern (ForgottenPattern) that ended it; [] for none.
        public let route: [UInt8]

        static let other = Reading(said: .other, afterWrong: false, language: [], route: [])
    }

    /// Which of the module's prompts an echo-off prompt is.
    public enum Prompt: Equatable, Sendable {
        /// "Pattern: ": a drawing answers it.
        case pattern
        /// forward_pass's "Pattern or password: ": either answers it.
        case patternOrPassword
    }

    /// The module's prompt in any language, also with the tries left that it says under PAM_SILENT
    /// ("Pattern (3 tries before a wait): "); nil for another module's (pam_unix's password).
    public static func prompt(_ text: [UInt8]) -> Prompt? {
        for language in languages {
            if text == bytes(language.patternPrompt) { return .pattern }
            if text == bytes(language.patternOrPasswordPrompt) { return .patternOrPassword }
            for form in language.patternPromptTries where filled(form, text[...]).flatMap(decimal) != nil {
                return .pattern
            }
            for form in language.patternOrPasswordPromptTries
            where filled(form, text[...]).flatMap(decimal) != nil {
                return .patternOrPassword
            }
        }
        return nil
    }

    /// What the module said, in whichever shipped language it spoke.
    public static func read(_ message: [UInt8]) -> Reading {
        for language in languages {
            if let reading = read(message, in: language) { return reading }
        }
        return .other
    }

    /// What a lock or login screen says in place of the reading's route (ForgottenPattern.atScreen), in the
    /// language the module spoke; [] when the message had no route.
    public static func screenRoute(for reading: Reading) -> [UInt8] {
        guard !reading.route.isEmpty else { return [] }
        for language in languages where bytes(language.name) == reading.language {
            return bytes(language.routeScreen)
        }
        return []
    }

    static func read(_ message: [UInt8], in language: Language) -> Reading? {
        var body = message[...]
        var route: [UInt8] = []
        for sentence in [language.routeSelf, language.routeAdmin] {
            let tail = [0x20] + bytes(sentence)
            if let head = body.withoutSuffix(tail) {
                body = head
                route = Array(tail.dropFirst())
                break
            }
        }
        func reading(_ said: Said, afterWrong: Bool) -> Reading {
            Reading(said: said, afterWrong: afterWrong, language: bytes(language.name), route: route)
        }
        if body.elementsEqual(bytes(language.wrong)) { return reading(.wrong(triesLeft: nil), afterWrong: true) }
        for form in language.wrongTries {
            if let n = filled(form, body).flatMap(decimal) { return reading(.wrong(triesLeft: n), afterWrong: true) }
        }
        for (wait, afterWrong) in [(language.wait, false), (language.wrongWait, true)] {
            if let seconds = filled(wait, body).flatMap({ durationSeconds($0, in: language) }) {
                return reading(.wait(seconds: seconds), afterWrong: afterWrong)
            }
        }
        if body.elementsEqual(bytes(language.disabled)) { return reading(.disabled, afterWrong: false) }
        if body.elementsEqual(bytes(language.wrongDisabled)) { return reading(.disabled, afterWrong: true) }
        return nil
    }

    /// A wait as DurationWords says it ("45 seconds", "4 minutes 54 seconds") in `language`, in seconds.
    static func durationSeconds(_ text: ArraySlice<UInt8>, in language: Language) -> Int64? {
        if let single = unitSeconds(text, in: language) { return single }
        let parts = split(bytes(language.pair))
        guard parts.count == 3, !parts[1].isEmpty, let inner = text.withoutPrefix(parts[0])?.withoutSuffix(parts[2])
        else { return nil }
        var at = inner.startIndex
        while at < inner.endIndex {
            if inner[at...].starts(with: parts[1]),
                let larger = unitSeconds(inner[inner.startIndex..<at], in: language),
                let rest = unitSeconds(inner[(at + parts[1].count)...], in: language)
            {
                return larger + rest
            }
            at += 1
        }
        return nil
    }

    /// "4 minutes" in `language`: one unit's words, in seconds.
    static func unitSeconds(_ text: ArraySlice<UInt8>, in language: Language) -> Int64? {
        for (forms, scale) in [(language.seconds, Int64(1)), (language.minutes, 60), (language.hours, 3600)] {
            for form in forms {
                if let n = filled(form, text).flatMap(decimal) { return n * scale }
            }
        }
        return nil
    }

    /// What fills the one placeholder of `template` ("%s" or "%N$s") in `text`, when the rest of `text` is the
    /// template's; never empty.
    static func filled(_ template: StaticString, _ text: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let parts = split(bytes(template))
        guard parts.count == 2, let inner = text.withoutPrefix(parts[0])?.withoutSuffix(parts[1]), !inner.isEmpty
        else { return nil }
        return inner
    }

    /// A template cut at its placeholders: "a %s b %2$s" -> ["a ", " b ", ""].
    static func split(_ template: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = [[]]
        var index = 0
        while index < template.count {
            let rest = template[index...]
            if rest.starts(with: [0x25, 0x73]) {  // "%s"
                parts.append([])
                index += 2
            } else if rest.count >= 4, rest[index] == 0x25, rest[index + 1] >= 0x31, rest[index + 1] <= 0x39,
                rest[index + 2] == 0x24, rest[index + 3] == 0x73
            {  // "%N$s"
                parts.append([])
                index += 4
            } else {
                parts[parts.count - 1].append(template[index])
                index += 1
            }
        }
        return parts
    }

    /// 1 to 12 decimal digits, as the module writes a count.
    static func decimal(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 12 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    static func bytes(_ text: StaticString) -> [UInt8] {
        text.withUTF8Buffer { Array($0) }
    }
}

extension ArraySlice where Element == UInt8 {
    fileprivate func withoutPrefix(_ prefix: [UInt8]) -> ArraySlice<UInt8>? {
        starts(with: prefix) ? dropFirst(prefix.count) : nil
    }

    fileprivate func withoutSuffix(_ suffix: [UInt8]) -> ArraySlice<UInt8>? {
        count >= suffix.count && self[(endIndex - suffix.count)...].elementsEqual(suffix)
            ? dropLast(suffix.count) : nil
    }
}
