import PatternCore

/// patternctl's calls of the setuid helper (/usr/sbin/pam_pattern_helper): a user managing their own pattern,
/// root's TPM work. Through the core's HelperClient, as the module calls it, with patternctl's deadline.
enum HelperCall {
    /// The verdict, or why there is none (patternctl then fails; nothing was changed unless the helper said so).
    static func run(
        _ operation: HelperOperation, user: [UInt8], fields: [[UInt8]]
    ) -> Result<HelperVerdict, HelperFailure> {
        HelperClient(deadlineMilliseconds: HelperClient.commandDeadlineMilliseconds)
            .call(operation, user: user, fields: fields)
    }
}

extension HelperFailure {
    /// The core's sentence (`message`, what the module logs) in the user's language.
    var sentence: String {
        let (format, arguments) = template
        return localized(format, arguments: arguments.map { String(decoding: $0, as: UTF8.self) })
    }
}

extension HelperFailure {
    /// `sentence` and what became of the change: nothing, unless the helper was killed at the deadline, at an
    /// unknown point (the guess may have been counted, the change may have been made).
    var outcomeSentence: String {
        if case .timedOut = self { return localized("%s; see patternctl status for what was done", sentence) }
        return localized("%s; nothing was changed", sentence)
    }
}

extension HelperVerdict {
    /// An answer the caller did not expect, said in words (the line itself is quoted as is).
    var unexpectedSentence: String {
        localized("pam_pattern_helper gave an unexpected answer (%s)", String(decoding: line.dropLast(), as: UTF8.self))
    }
}
